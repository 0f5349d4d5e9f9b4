/**
 * `npm run test:setup` (scripts/test-setup.sh): finds what the tests need or stops saying what is
 * missing; it never lets a test be skipped for want of it. Run with a PATH of stubs, so what the
 * machine has installed does not change the answer.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const SCRIPT = join(import.meta.dirname, '..', '..', 'scripts', 'test-setup.sh');
let bin: string;

beforeEach(() => {
  bin = mkdtempSync(join(tmpdir(), 'mt-test-setup-'));
  // the few tools the script uses, and nothing else of the machine's
  for (const tool of ['id', 'ls', 'sort', 'tail', 'seq', 'sleep']) {
    const found = spawnSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    if (found) symlinkSync(found, join(bin, tool));
  }
});
afterEach(() => rmSync(bin, { recursive: true, force: true }));

function stub(name: string, script: string): string {
  const path = join(bin, name);
  writeFileSync(path, `#!/bin/bash\n${script}\n`);
  chmodSync(path, 0o755);
  return path;
}

function setup(env: Record<string, string> = {}): { code: number | null; stderr: string } {
  const run = spawnSync('/bin/bash', [SCRIPT], { encoding: 'utf8', env: { PATH: bin, ...env } });
  return { code: run.status, stderr: run.stderr };
}

describe('scripts/test-setup.sh', () => {
  it('stops, saying how to get PostgreSQL, when no server answers and none is installed', () => {
    stub('pg_isready', 'exit 2');
    const run = setup();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no server answers on 127.0.0.1:5432 and none is installed');
    expect(run.stderr).toContain('TEST_DATABASE_URL');
  });

  it('finds Chromium on the PATH when a server answers', () => {
    stub('pg_isready', 'exit 0');
    const chromium = stub('chromium', 'exit 0');
    const run = setup();
    expect(run.stderr).toContain(`Chromium: ${chromium}`);
    expect(run.code).toBe(0);
  });

  it('refuses a CHROMIUM_PATH that is not a program', () => {
    const run = setup({ TEST_DATABASE_URL: 'postgresql://x@127.0.0.1/test', CHROMIUM_PATH: join(bin, 'nothing') });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`CHROMIUM_PATH=${join(bin, 'nothing')} is not an executable file`);
  });

  it('with no Chromium and no apt-get, stops saying how to install one', () => {
    const run = setup({ TEST_DATABASE_URL: 'postgresql://x@127.0.0.1/test' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Chromium: none found');
    expect(run.stderr).toContain('apt-get install chromium');
  });
});
