import { describe, expect, it } from 'vitest';
import { END_MARKER, START_MARKER, upsertMarkedSection } from '../../../src/action/inject/marked-section.js';
import { InputError } from '../../../src/core/errors.js';

const BLOCK = '## Validation routines\n\nRun the tests.\n';

describe('upsertMarkedSection', () => {
  it('creates the section when the file is missing', () => {
    expect(upsertMarkedSection(undefined, BLOCK, 'AGENTS.md')).toBe(`${START_MARKER}\n${BLOCK}${END_MARKER}\n`);
  });

  it('appends after the user text, which stays a byte-identical prefix', () => {
    const user = '# Agents\n\nUse pnpm.\n';
    const out = upsertMarkedSection(user, BLOCK, 'AGENTS.md');
    expect(out.startsWith(user)).toBe(true);
    expect(out).toContain(BLOCK);
  });

  it('running twice changes nothing', () => {
    const user = '# Agents\r\nno trailing newline';
    const once = upsertMarkedSection(user, BLOCK, 'AGENTS.md');
    expect(upsertMarkedSection(once, BLOCK, 'AGENTS.md')).toBe(once);
  });

  it('replaces only between the markers; text before and after is byte-identical', () => {
    const before = '# Agents\n\n  weird   spacing\t\n';
    const after = '\n\n## My own section\nkeep me \u00e9\n';
    const file = `${before}${START_MARKER}\nold insight\n${END_MARKER}${after}`;
    const out = upsertMarkedSection(file, BLOCK, 'AGENTS.md');
    expect(out).toBe(`${before}${START_MARKER}\n${BLOCK}${END_MARKER}${after}`);
  });

  it('accepts a hand-shortened start marker', () => {
    const file = `a\n<!-- memory-transfer:start -->\nold\n${END_MARKER}\nb\n`;
    expect(upsertMarkedSection(file, BLOCK, 'AGENTS.md')).toBe(`a\n${START_MARKER}\n${BLOCK}${END_MARKER}\nb\n`);
  });

  it('keeps CRLF line endings of a CRLF file', () => {
    const out = upsertMarkedSection('# A\r\n', BLOCK, 'AGENTS.md');
    expect(out).not.toMatch(/[^\r]\n/);
  });

  it('empties the section when there is nothing to inject', () => {
    const file = `x\n${START_MARKER}\nold\n${END_MARKER}\ny\n`;
    expect(upsertMarkedSection(file, '', 'AGENTS.md')).toBe(`x\n${START_MARKER}\n${END_MARKER}\ny\n`);
  });

  it.each([
    ['a start without an end', `x\n${START_MARKER}\nuser text\n`],
    ['an end without a start', `x\n${END_MARKER}\nuser text\n`],
    ['the end before the start', `${END_MARKER}\nuser\n${START_MARKER}\n`],
    ['two sections', `${START_MARKER}\na\n${END_MARKER}\n${START_MARKER}\nb\n${END_MARKER}\n`],
  ])('refuses %s with a clear error and no change', (_name, file) => {
    expect(() => upsertMarkedSection(file, BLOCK, 'AGENTS.md')).toThrow(InputError);
    expect(() => upsertMarkedSection(file, BLOCK, 'AGENTS.md')).toThrow(
      /AGENTS\.md: broken Memory Transfer markers.*Nothing was changed/,
    );
  });
});
