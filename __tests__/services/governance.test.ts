import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Memory, Provenance, Visibility } from '../../src/core/types.js';
import { maySee } from '../../src/core/visibility.js';
import {
  applyFeedback,
  approve,
  archive,
  archiveStale,
  evidenceAgainst,
  forget,
  recordOutcome,
  reject,
  restore,
  revokeSource,
  shareWider,
  updateRepoVisibility,
  vote,
  withdrawVote,
} from '../../src/services/governance.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { sampleMemory } from '../helpers/sample-memory.js';

const dir = mkdtempSync(join(tmpdir(), 'mt-governance-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
let store: Store;
beforeEach(async () => {
  store = await openStore(join(dir, `pool-${++n}.db`));
});
afterEach(async () => {
  await store.close();
});

const NOW = new Date('2026-06-01T00:00:00Z');
const by = { actor: 'maintainer', now: NOW };

function source(repo: string, visibility: Visibility, ref: string, repoId?: number): Provenance {
  return {
    tenant: 'acme',
    repo,
    visibility,
    sourceKind: 'pull_request',
    ref,
    authors: ['ada'],
    date: '2026-01-01T00:00:00Z',
    ...(repoId === undefined ? {} : { repoId }),
  };
}

function insight(id: string, over: Partial<Memory> = {}): Memory {
  return sampleMemory({ id, votes: { up: 0, down: 0 }, createdAt: '2026-05-01T00:00:00.000Z', ...over });
}

describe('status changes, each audited', () => {
  it('approve, reject, archive, restore and share move the standing and write who did what, when', async () => {
    await store.putMemory(insight('m0000000001', { status: 'proposed' }));
    expect((await approve(store, 'acme', 'm0000000001', { ...by, detail: 'looks right' })).status).toBe('active');
    expect((await reject(store, 'acme', 'm0000000001', by)).status).toBe('rejected');
    expect((await restore(store, 'acme', 'm0000000001', by)).status).toBe('active');
    expect((await archive(store, 'acme', 'm0000000001', by)).status).toBe('archived');
    expect((await restore(store, 'acme', 'm0000000001', by)).status).toBe('active');
    expect((await shareWider(store, 'acme', 'm0000000001', { actor: 'admin', now: NOW })).sharedWiderBy).toBe('admin');
    const entries = await store.listAudit('acme');
    expect(entries.map((e) => e.action).sort()).toEqual(
      ['approve', 'archive', 'reject', 'restore', 'restore', 'share'].sort(),
    );
    expect(entries.every((e) => e.memoryId === 'm0000000001' && e.at === NOW.toISOString())).toBe(true);
    expect(entries.find((e) => e.action === 'approve')).toMatchObject({ actor: 'maintainer', detail: 'looks right' });
  });

  it('writes no entry when nothing changes, and names a missing memory', async () => {
    await store.putMemory(insight('m0000000002'));
    await approve(store, 'acme', 'm0000000002', by);
    expect(await store.listAudit('acme')).toEqual([]);
    await expect(approve(store, 'acme', 'm404', by)).rejects.toThrow(/no memory m404/);
  });

  it('an audit detail typed by a person is cleared of secrets', async () => {
    await store.putMemory(insight('m0000000004', { status: 'proposed' }));
    const token = `ghp_${'Ab3'.repeat(12)}`;
    await reject(store, 'acme', 'm0000000004', { ...by, detail: `wrong, and my token is ${token}` });
    const [entry] = await store.listAudit('acme');
    expect(entry?.detail).toContain('[REDACTED:github-token]');
    expect(entry?.detail).not.toContain(token);
  });

  it('a status change never crosses tenants', async () => {
    await store.putMemory(insight('m0000000003', { status: 'proposed' }));
    await expect(approve(store, 'other', 'm0000000003', by)).rejects.toThrow(/no memory/);
    expect((await store.getMemory('acme', 'm0000000003'))?.status).toBe('proposed');
  });
});

describe('forget', () => {
  it('removes the memory from the store, the full-text index and the vectors, and audits it', async () => {
    const memory = insight('m0000000010', { title: 'Canary zebrafish routine', content: 'zebrafish zebrafish' });
    await store.putMemory(memory);
    await store.putVector('acme', memory.id, new Float32Array([1, 0, 0]), 'test-embed');
    expect(await store.searchLexical('acme', 'zebrafish', { limit: 5 })).toHaveLength(1);
    await forget(store, 'acme', memory.id, { ...by, detail: 'wrong advice' });
    expect(await store.getMemory('acme', memory.id)).toBeUndefined();
    expect(await store.searchLexical('acme', 'zebrafish', { limit: 5 })).toEqual([]);
    expect(await store.searchVector('acme', new Float32Array([1, 0, 0]), 'test-embed', { limit: 5 })).toEqual([]);
    expect(await store.listAudit('acme')).toEqual([
      expect.objectContaining({ action: 'forget', memoryId: memory.id, actor: 'maintainer', detail: 'wrong advice' }),
    ]);
  });
});

describe('revokeSource', () => {
  it('deletes what was learned only from the source and strips it from merged memories', async () => {
    await store.putMemory(
      insight('m0000000020', { provenance: [source('acme/app', 'private', '7')], visibility: 'private' }),
    );
    await store.putMemory(
      insight('m0000000021', {
        provenance: [source('acme/app', 'private', '7'), source('acme/lib', 'public', '3')],
        visibility: 'private',
        support: 2,
      }),
    );
    await store.putMemory(
      insight('m0000000022', { provenance: [source('acme/app', 'private', '8')], visibility: 'private' }),
    );
    await store.markFixLearned('acme', 'acme/app', '7');
    await store.markFixLearned('acme', 'acme/app', '8');

    const result = await revokeSource(store, 'acme', 'acme/app', '7', by);
    expect(result).toEqual({ removed: ['m0000000020'], stripped: ['m0000000021'] });
    expect(await store.getMemory('acme', 'm0000000020')).toBeUndefined();
    const merged = await store.getMemory('acme', 'm0000000021');
    expect(merged).toMatchObject({ support: 1, visibility: 'public' });
    expect(merged?.provenance.map((p) => p.repo)).toEqual(['acme/lib']);
    expect(await store.getMemory('acme', 'm0000000022')).toBeDefined();
    expect(await store.isFixLearned('acme', 'acme/app', '7')).toBe(false);
    expect(await store.isFixLearned('acme', 'acme/app', '8')).toBe(true);
    expect((await store.listAudit('acme')).map((e) => [e.action, e.memoryId])).toEqual(
      expect.arrayContaining([
        ['revoke-source', 'm0000000020'],
        ['revoke-source', 'm0000000021'],
      ]),
    );
  });

  it('a whole repository: every memory it taught goes, the repository is no longer marked learned', async () => {
    await store.putMemory(insight('m0000000023', { provenance: [source('acme/app', 'private', '7')] }));
    await store.putMemory(insight('m0000000024', { provenance: [source('acme/app', 'private', '8')] }));
    await store.markFixLearned('acme', 'acme/app', '8');
    const result = await revokeSource(store, 'acme', 'ACME/App', undefined, by);
    expect(result.removed.sort()).toEqual(['m0000000023', 'm0000000024']);
    expect(await store.countMemories('acme')).toBe(0);
    expect(await store.isFixLearned('acme', 'acme/app', '8')).toBe(false);
  });
});

describe('a repository changes visibility after its insights were learned', () => {
  it('made private: its memories stop flowing to public repositories, and share-wider is withdrawn', async () => {
    await store.putMemory(
      insight('m0000000030', { provenance: [source('acme/app', 'public', '7')], visibility: 'public' }),
    );
    await store.putMemory(
      insight('m0000000031', {
        provenance: [source('acme/app', 'internal', '8')],
        visibility: 'internal',
        sharedWiderBy: 'admin',
      }),
    );
    const publicReader = { tenant: 'acme', repo: 'acme/site', visibility: 'public' as const };
    expect(maySee((await store.getMemory('acme', 'm0000000030'))!, publicReader)).toBe(true);
    expect(maySee((await store.getMemory('acme', 'm0000000031'))!, publicReader)).toBe(true);

    const changed = await updateRepoVisibility(store, 'acme', 'acme/app', 'private', { now: NOW });
    expect(changed.sort()).toEqual(['m0000000030', 'm0000000031']);
    for (const id of changed) {
      const memory = (await store.getMemory('acme', id))!;
      expect(memory.visibility).toBe('private');
      expect(memory.sharedWiderBy).toBeUndefined();
      expect(maySee(memory, publicReader)).toBe(false);
      expect(maySee(memory, { tenant: 'acme', repo: 'acme/app', visibility: 'private' })).toBe(true);
    }
    expect((await store.listAudit('acme')).filter((e) => e.action === 'edit')).toHaveLength(2);
  });

  it('made public: nothing widens by itself (an admin shares it wider)', async () => {
    await store.putMemory(
      insight('m0000000032', { provenance: [source('acme/app', 'private', '7')], visibility: 'private' }),
    );
    expect(await updateRepoVisibility(store, 'acme', 'acme/app', 'public', { now: NOW })).toEqual([]);
    const memory = (await store.getMemory('acme', 'm0000000032'))!;
    expect(maySee(memory, { tenant: 'acme', repo: 'acme/site', visibility: 'public' })).toBe(false);
  });

  it('transferred to another org: revoked from the old pool, and the new org never sees it', async () => {
    await store.putMemory(
      insight('m0000000033', { provenance: [source('acme/app', 'private', '7', 42)], visibility: 'private' }),
    );
    await revokeSource(store, 'acme', 'acme/app', undefined, { actor: 'github', now: NOW, repoId: 42 });
    expect(await store.getMemory('acme', 'm0000000033')).toBeUndefined();
    expect(await store.listMemories('neworg')).toEqual([]);
  });
});

describe('feedback', () => {
  it('the rule: down ≥ 3 and down > 2·up, or failures ≥ 3 and failure rate > 0.7', () => {
    const votes = (up: number, down: number) => ({ votes: { up, down }, outcomes: { success: 0, failure: 0 } });
    const runs = (success: number, failure: number) => ({ votes: { up: 0, down: 0 }, outcomes: { success, failure } });
    expect(evidenceAgainst(votes(0, 2))).toBeUndefined();
    expect(evidenceAgainst(votes(0, 3))).toMatch(/down-voted/);
    expect(evidenceAgainst(votes(2, 4))).toBeUndefined();
    expect(evidenceAgainst(votes(2, 5))).toMatch(/down-voted/);
    expect(evidenceAgainst(runs(0, 2))).toBeUndefined();
    expect(evidenceAgainst(runs(1, 3))).toMatch(/failed runs/);
    expect(evidenceAgainst(runs(2, 3))).toBeUndefined();
  });

  it('three people voting 👎 archive an insight; one person voting three times does not', async () => {
    await store.putMemory(insight('m0000000040'));
    for (let i = 0; i < 3; i += 1) await vote(store, 'acme', 'm0000000040', 'down', { actor: 'mallory', now: NOW });
    expect(await store.getMemory('acme', 'm0000000040')).toMatchObject({ status: 'active', votes: { up: 0, down: 1 } });
    await vote(store, 'acme', 'm0000000040', 'up', { actor: 'mallory', now: NOW });
    expect((await store.getMemory('acme', 'm0000000040'))?.votes).toEqual({ up: 1, down: 0 });
    await vote(store, 'acme', 'm0000000040', 'down', { actor: 'mallory', now: NOW });
    await vote(store, 'acme', 'm0000000040', 'down', { actor: 'bob', now: NOW });
    const after = await vote(store, 'acme', 'm0000000040', 'down', { actor: 'carol', now: NOW });
    expect(after).toMatchObject({ status: 'archived', votes: { up: 0, down: 3 } });
    expect((await store.listAudit('acme'))[0]).toMatchObject({
      action: 'archive',
      actor: 'system:feedback',
      detail: expect.stringMatching(/down-voted/),
    });
  });

  it('a withdrawn vote goes only when no other thread backs it; a vote stored by an earlier version goes at once', async () => {
    await store.putMemory(insight('m0000000042'));
    const ada = { actor: 'ada', now: NOW };
    await vote(store, 'acme', 'm0000000042', 'up', ada, 'acme/api#1');
    await vote(store, 'acme', 'm0000000042', 'up', ada, 'acme/web#7');
    expect((await store.getMemory('acme', 'm0000000042'))?.votes).toEqual({ up: 1, down: 0 });
    await withdrawVote(store, 'acme', 'm0000000042', 'up', ada, 'acme/api#1');
    expect((await store.getMemory('acme', 'm0000000042'))?.votes).toEqual({ up: 1, down: 0 });
    await withdrawVote(store, 'acme', 'm0000000042', 'down', ada, 'acme/web#7'); // not her vote: nothing
    expect((await store.getMemory('acme', 'm0000000042'))?.votes).toEqual({ up: 1, down: 0 });
    await withdrawVote(store, 'acme', 'm0000000042', 'up', ada, 'acme/web#7');
    expect((await store.getMemory('acme', 'm0000000042'))?.votes).toEqual({ up: 0, down: 0 });

    // bob's 👍 as the previous version stored it: a bare direction, no thread known
    await store.putMemory(insight('m0000000043', { votes: { up: 1, down: 0 } }));
    await store.setState('governance:vote:acme:m0000000043:bob', 'up');
    await withdrawVote(store, 'acme', 'm0000000043', 'up', { actor: 'bob', now: NOW }, 'acme/api#1');
    expect((await store.getMemory('acme', 'm0000000043'))?.votes).toEqual({ up: 0, down: 0 });
  });

  it('failed runs archive it; a restore counts only evidence after it', async () => {
    await store.putMemory(insight('m0000000041'));
    for (let i = 0; i < 3; i += 1) await recordOutcome(store, 'acme', 'm0000000041', 'failure', { now: NOW });
    expect((await store.getMemory('acme', 'm0000000041'))?.status).toBe('archived');
    await restore(store, 'acme', 'm0000000041', by);
    expect((await recordOutcome(store, 'acme', 'm0000000041', 'failure', { now: NOW })).status).toBe('active');
    expect((await applyFeedback(store, 'acme', 'm0000000041')).status).toBe('active');
    await recordOutcome(store, 'acme', 'm0000000041', 'failure', { now: NOW });
    expect((await recordOutcome(store, 'acme', 'm0000000041', 'failure', { now: NOW })).status).toBe('archived');
  });
});

describe('archiveStale', () => {
  const day = 86_400_000;
  const ago = (days: number) => new Date(NOW.getTime() - days * day).toISOString();

  it('archives (never deletes) an active insight unused for 90 days and never up-voted, and audits it', async () => {
    await store.putMemory(insight('m0000000050', { createdAt: ago(200), lastUsedAt: ago(91) }));
    await store.putMemory(insight('m0000000051', { createdAt: ago(200), lastUsedAt: ago(30) }));
    await store.putMemory(insight('m0000000052', { createdAt: ago(200), votes: { up: 1, down: 0 } }));
    await store.putMemory(insight('m0000000053', { createdAt: ago(10) }));
    await store.putMemory(insight('m0000000054', { createdAt: ago(200), status: 'proposed' }));
    expect(await archiveStale(store, 'acme', { days: 90, now: NOW })).toEqual(['m0000000050']);
    expect((await store.getMemory('acme', 'm0000000050'))?.status).toBe('archived');
    expect(await store.countMemories('acme')).toBe(5);
    expect(await store.listAudit('acme')).toEqual([
      expect.objectContaining({ action: 'archive', memoryId: 'm0000000050', actor: 'system:staleness' }),
    ]);
  });

  it('the period is configurable, and a restored insight gets a fresh period', async () => {
    await store.putMemory(insight('m0000000055', { createdAt: ago(40) }));
    expect(await archiveStale(store, 'acme', { days: 60, now: NOW })).toEqual([]);
    expect(await archiveStale(store, 'acme', { days: 30, now: NOW })).toEqual(['m0000000055']);
    await restore(store, 'acme', 'm0000000055', by);
    expect(await archiveStale(store, 'acme', { days: 30, now: NOW })).toEqual([]);
    const later = new Date(NOW.getTime() + 31 * day);
    expect(await archiveStale(store, 'acme', { days: 30, now: later })).toEqual(['m0000000055']);
  });
});
