import { describe, expect, it } from 'vitest';
import { MAX_COMMANDS_PER_COMMENT, parseCommands } from '../../src/core/commands.js';

describe('parseCommands', () => {
  it('reads each command with its argument', () => {
    const body = [
      'Thanks!',
      '/memory approve m3f9a1c20b7',
      '/memory reject M3F9A1C20B7',
      '/memory forget `m0123456789`',
      '/memory search   flaky date parsing  ',
      '/memory why',
    ].join('\n');
    expect(parseCommands(body)).toEqual([
      { name: 'approve', id: 'm3f9a1c20b7' },
      { name: 'reject', id: 'm3f9a1c20b7' },
      { name: 'forget', id: 'm0123456789' },
      { name: 'search', text: 'flaky date parsing' },
      { name: 'why' },
    ]);
  });

  it('treats a bare /memory and /memory help as help', () => {
    expect(parseCommands('/memory')).toEqual([{ name: 'help' }]);
    expect(parseCommands('/MEMORY help')).toEqual([{ name: 'help' }]);
  });

  it('ignores commands in code blocks, indented code, quotes and mid-line', () => {
    const body = [
      '```',
      '/memory forget m3f9a1c20b7',
      '```',
      '    /memory forget m3f9a1c20b7',
      '> /memory forget m3f9a1c20b7',
      'please run /memory forget m3f9a1c20b7',
      '/memoryforget m3f9a1c20b7',
    ].join('\n');
    expect(parseCommands(body)).toEqual([]);
  });

  it('reports a bad id or an unknown command without echoing it', () => {
    const [bad, unknown, empty] = parseCommands(
      '/memory approve <img src=x>\n/memory <script>alert(1)</script>\n/memory search',
    );
    expect(bad).toMatchObject({ name: 'invalid' });
    expect(unknown).toMatchObject({ name: 'invalid', reason: 'unknown command' });
    expect(empty).toMatchObject({ name: 'invalid' });
    expect(
      JSON.stringify([bad && 'reason' in bad ? bad.reason : '', unknown && 'reason' in unknown ? unknown.reason : '']),
    ).not.toContain('<');
  });

  it('runs at most a handful of commands from one comment', () => {
    const body = Array.from({ length: 50 }, () => '/memory why').join('\n');
    expect(parseCommands(body)).toHaveLength(MAX_COMMANDS_PER_COMMENT);
  });

  it('caps the search text', () => {
    const [cmd] = parseCommands(`/memory search ${'x'.repeat(10_000)}`);
    expect(cmd?.name === 'search' && cmd.text.length).toBe(500);
  });
});
