/**
 * `npm run eval:kinds`: how recall reads a set of issues, by kind, and which routine it reads first
 * in bug reports labelled with the routine they need; without a set, the reading sets it ships.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const run = (...args: string[]) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'eval', 'kinds.ts'), ...args], {
    cwd: root,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mt-eval-kinds-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run eval:kinds', () => {
  it('counts the bug reports read as failures and the routine read first, and the off-topic issues by kind', async () => {
    const set = join(dir, 'mine');
    mkdirSync(set);
    const reports = [
      { routine: 'encoding-locale', title: 'Users in New Zealand see yesterday’s date on invoices', body: '' },
      { routine: 'concurrency-async', title: 'App hangs forever when the upstream server never answers', body: '' },
      { routine: 'edge-input', title: 'How do I configure the colours?', body: 'Just asking.' },
    ];
    writeFileSync(join(set, 'routines.jsonl'), reports.map((r) => JSON.stringify(r)).join('\n'));
    writeFileSync(
      join(set, 'offtopic-issues.jsonl'),
      JSON.stringify({ repo: 'acme/app', title: 'Add a --json flag to the status command', body: '', kind: 'feature' }),
    );
    const { code, stdout } = await run(set);
    expect(code).toBe(0);
    expect(stdout).toContain('failure      3: failure 2, question 1');
    expect(stdout).toContain('feature      1: feature 1');
    expect(stdout).toContain('routine read first 2 of 3');
    expect(stdout).toMatch(/edge-input\s+1: first 0, among 0/);
  });

  it('without a set, reads the reading sets the repository ships, and says so', async () => {
    const { code, stdout, stderr } = await run();
    expect(code).toBe(0);
    expect(stderr).toContain('(m, p, q, r, s)');
    for (const set of ['m', 'p', 'q', 'r', 's']) expect(stdout).toContain(join('eval', 'sets', set));
  });

  it('a folder with no issues exits 2 naming it', async () => {
    const { code, stderr } = await run(join(dir, 'nothing-here'));
    expect(code).toBe(2);
    expect(stderr).toContain(`no issues at ${join(dir, 'nothing-here')}`);
  });
});
