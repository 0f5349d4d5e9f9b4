// `npm run demo` leaves no temporary folders behind, and learns into a pool of its own.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let tmp: string;

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'mt-demo-'));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('npm run demo', () => {
  it('learns into a pool of its own, says where, recalls, and removes the repositories it built', async () => {
    const temp = join(tmp, 'temp');
    await mkdir(temp);
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    // run in a newcomer's clone (tmp), with a pool of theirs named in the environment
    const theirs = join(tmp, 'theirs.db');
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', tsx, resolve('scripts/demo.ts')], {
      cwd: tmp,
      env: { PATH: process.env.PATH ?? '', HOME: tmp, TMPDIR: temp, MEMORY_TRANSFER_DB: theirs },
    });
    expect(stdout).toContain('$ memory-transfer stats');
    expect(stdout).toMatch(/^repos {5}2$/m);
    expect(existsSync(join(tmp, '.memory-transfer', 'demo.db'))).toBe(true);
    expect(stdout).toContain(`The demo's pool is ${join('.memory-transfer', 'demo.db')}`);
    // the newcomer's pools are untouched: the default one and the one the environment names
    expect(existsSync(join(tmp, '.memory-transfer', 'pool.db'))).toBe(false);
    expect(existsSync(theirs)).toBe(false);
    // tsx keeps its own cache there; the demo leaves nothing of its own
    expect((await readdir(temp)).filter((name) => name.startsWith('memory-transfer-demo-'))).toEqual([]);
  }, 120_000);
});
