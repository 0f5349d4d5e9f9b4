import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { approve } from '../../../src/services/governance.js';
import { openStore } from '../../../src/store/open-store.js';
import { sampleMemory } from '../../helpers/sample-memory.js';
import { runCli, type CliRun } from '../../helpers/run-cli.js';

let tmp: string;
let db: string;
beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'mt-cli-audit-'));
  db = join(tmp, 'pool.db');
  const store = await openStore(db);
  const old = new Date(Date.now() - 200 * 86_400_000).toISOString();
  await store.putMemory(
    sampleMemory({ id: 'm0000000001', status: 'proposed', votes: { up: 0, down: 0 }, createdAt: old }),
  );
  await store.putMemory(
    sampleMemory({ id: 'm0000000002', votes: { up: 0, down: 0 }, createdAt: new Date().toISOString() }),
  );
  await approve(store, 'acme', 'm0000000001', { actor: 'octocat', detail: 'reviewed' });
  await store.close();
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const cli = (...args: string[]): Promise<CliRun> => runCli([...args, '--db', db], tmp);

describe('memory-transfer audit and archive-stale', () => {
  it('audit lists who did what and when, as text and JSON', async () => {
    const text = await cli('audit');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^\S+Z {2}octocat {2}approve {2}m0000000001 {2}reviewed\n$/);
    const json = await cli('audit', '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({
      tenant: 'acme',
      entries: [{ actor: 'octocat', action: 'approve', memoryId: 'm0000000001' }],
    });
  });

  it('archive-stale: a dry run changes nothing, then it archives the unused insight, audited', async () => {
    const dry = await cli('archive-stale', '--dry-run', '--json');
    expect(JSON.parse(dry.stdout)).toMatchObject({ days: 90, dryRun: true, ids: ['m0000000001'] });
    const run = await cli('archive-stale');
    expect(run).toMatchObject({ code: 0, stdout: 'archived 1 memories unused for 90 days: m0000000001\n' });
    const audit = JSON.parse((await cli('audit', '--json')).stdout) as { entries: { action: string; actor: string }[] };
    expect(audit.entries.map((e) => `${e.action}:${e.actor}`)).toEqual(
      expect.arrayContaining(['archive:cli:archive-stale']),
    );
  });

  it('names a bad flag', async () => {
    const bad = await cli('archive-stale', '--days', 'soon');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--days: /);
  });
});
