// Issue 16, point 8: `npm run demo` leaves no temporary folders behind.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  it('learns, recalls, and removes the repositories it built', async () => {
    const temp = join(tmp, 'temp');
    await mkdir(temp);
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/demo.ts'], {
      env: { PATH: process.env.PATH ?? '', HOME: tmp, TMPDIR: temp, MEMORY_TRANSFER_DB: join(tmp, 'pool.db') },
    });
    expect(stdout).toContain('$ memory-transfer stats');
    expect(stdout).toMatch(/^repos {5}2$/m);
    // tsx keeps its own cache there; the demo leaves nothing of its own
    expect((await readdir(temp)).filter((name) => name.startsWith('memory-transfer-demo-'))).toEqual([]);
  }, 120_000);
});
