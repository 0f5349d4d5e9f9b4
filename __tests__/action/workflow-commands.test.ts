import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { escapeData, outputEntry, workflowCommands } from '../../src/action/workflow-commands.js';

async function setup() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mt-commands-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const output = path.join(dir, 'output');
  const summary = path.join(dir, 'summary.md');
  await writeFile(output, '');
  const lines: string[] = [];
  let exitCode = 0;
  const commands = workflowCommands(
    { GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary },
    (text) => lines.push(text),
    (code) => {
      exitCode = code;
    },
  );
  return { commands, output, summary, lines, exit: () => exitCode };
}

describe('workflow commands', () => {
  it('writes multi-line outputs in the GITHUB_OUTPUT heredoc format', async () => {
    const s = await setup();
    s.commands.setOutput('insights', '## Insights\nline two\r\n');
    s.commands.setOutput('count', '2');
    const text = await readFile(s.output, 'utf8');
    const match =
      /^insights<<(ghadelimiter_[0-9a-z]{16})\n## Insights\nline two\r\n\n\1\ncount<<(ghadelimiter_[0-9a-z]{16})\n2\n\2\n$/.exec(
        text,
      );
    expect(match).not.toBeNull();
    expect(match?.[1]).not.toBe(match?.[2]);
  });

  it('refuses a value that contains its delimiter', () => {
    expect(() => outputEntry('x', 'a\nD\nb', 'D')).toThrow(/contains its own delimiter/);
  });

  it('escapes annotations so a message cannot start another command', async () => {
    const s = await setup();
    s.commands.warning('50% done\n::error::forged');
    s.commands.info('plain line');
    expect(s.lines).toEqual(['::warning::50%25 done%0A::error::forged\n', 'plain line\n']);
    expect(escapeData('a\rb')).toBe('a%0Db');
  });

  it('setFailed sets exit code 1 and writes an error annotation', async () => {
    const s = await setup();
    s.commands.setFailed('Memory Transfer: pool: broken');
    expect(s.exit()).toBe(1);
    expect(s.lines).toEqual(['::error::Memory Transfer: pool: broken\n']);
  });

  it('appends to the job summary, and does nothing without one', async () => {
    const s = await setup();
    await s.commands.appendSummary('| a |');
    await s.commands.appendSummary('| b |');
    expect(await readFile(s.summary, 'utf8')).toBe('| a |\n| b |\n');
    await workflowCommands({}, () => undefined).appendSummary('ignored');
  });

  it('a missing GITHUB_OUTPUT file fails clearly; without the variable, the stdout command', async () => {
    const bad = workflowCommands({ GITHUB_OUTPUT: '/nonexistent/output' }, () => undefined);
    expect(() => bad.setOutput('count', '1')).toThrow(/Missing file at path: \/nonexistent\/output/);
    const lines: string[] = [];
    workflowCommands({}, (t) => lines.push(t)).setOutput('count', '1');
    expect(lines).toEqual(['\n::set-output name=count::1\n']);
  });
});
