import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sqlite3 from 'sqlite3';
import { SCHEMA_VERSION } from '../../src/store/migrations.js';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/core/errors.js';
import { defaultPoolLocation, openStore } from '../../src/store/open-store.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { copyV3Pool, expectMigratedWithoutLoss, readV3Rows, v3Memory } from '../helpers/v3-pool.js';
import { encodeVector, exactCosine, unitVector } from '../../src/core/retrieval/vector-index.js';
import { bytesToVector } from '../../src/store/vector-cache.js';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeMemory, runStoreContract } from './contract.js';

const dir = mkdtempSync(join(tmpdir(), 'mt-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const newPath = () => join(dir, `pool-${++n}`, 'pool.db');
const paths = new WeakMap<Store, string>();

async function makeStore(): Promise<Store> {
  const path = newPath();
  const store = await openStore(path);
  paths.set(store, path);
  return store;
}

runStoreContract('sqlite', makeStore, async (store) => {
  const path = paths.get(store)!;
  await store.close();
  return openStore(path);
});

/** a second, raw connection to the same file (another process's view) */
function query<T>(path: string, sql: string): Promise<T[]> {
  const db = new sqlite3.Database(path, sqlite3.OPEN_READONLY);
  return new Promise<T[]>((resolve, reject) =>
    db.all(sql, (error, rows: T[]) => {
      db.close();
      if (error) reject(error);
      else resolve(rows);
    }),
  );
}

function raw(path: string): { exec(sql: string): Promise<void>; close(): Promise<void> } {
  const db = new sqlite3.Database(path);
  return {
    exec: (sql) => new Promise((resolve, reject) => db.exec(sql, (e) => (e ? reject(e) : resolve()))),
    close: () => new Promise((resolve) => db.close(() => resolve())),
  };
}

describe('SQLite pool file', () => {
  it('creates missing parent folders', async () => {
    const path = join(dir, 'deep', 'er', 'pool.db');
    const store = await openStore(path);
    await store.putMemory(makeMemory());
    expect(await store.countMemories('acme')).toBe(1);
    await store.close();
  });

  it('refuses a file that is not SQLite with a corrupt-pool error naming the path', async () => {
    const path = join(dir, 'garbage.db');
    writeFileSync(
      path,
      'this is not a database, just a text file that is long enough to have a header page'.repeat(100),
    );
    const error = await openStore(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('corrupt');
    expect((error as StoreError).message).toContain(path);
  });

  it('refuses a pool written by a newer schema version, saying which versions', async () => {
    const path = newPath();
    const store = await openStore(path);
    await store.putMemory(makeMemory());
    await store.close();
    const other = raw(path);
    await other.exec(`INSERT INTO schema_version (version, applied_at) VALUES (99, '2030-01-01')`);
    await other.close();
    const error = await openStore(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('newer-schema');
    expect((error as StoreError).message).toMatch(/99/);
    expect((error as StoreError).message).toMatch(new RegExp(`up to ${SCHEMA_VERSION}\\b`));
  });

  it('folds the write-ahead log back into the pool file in the background, not inside a commit', async () => {
    const path = newPath();
    const store = await SqliteStore.open(path, { checkpointEveryMs: 25 });
    try {
      await store.migrate();
      // the schema's own pages folded in first (else the timer may fold them during the check below)
      await store.purgeDeleted();
      const before = statSync(path).size;
      await store.enqueueJob({ key: 'big', kind: 'x', payload: null, body: Buffer.alloc(2_000_000, 1) });
      // committed into the WAL: the pool file itself has not grown yet
      expect(statSync(path).size).toBeLessThan(before + 100_000);
      const deadline = Date.now() + 5_000;
      // (a few of its pages may reuse pages the fold above freed)
      while (statSync(path).size < before + 1_900_000 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(statSync(path).size).toBeGreaterThan(before + 1_900_000);
    } finally {
      await store.close();
    }
  });

  it('upgrades a version-1 pool in place: its memories and a job recorded before the upgrade survive', async () => {
    const path = newPath();
    // a pool of the version-3 release, taken back to version 1: no jobs.body, no fixes.fallback, a job waiting, a fix learned
    copyV3Pool(path);
    const before = await readV3Rows(path);
    const other = raw(path);
    await other.exec(`ALTER TABLE jobs DROP COLUMN body; ALTER TABLE fixes DROP COLUMN fallback;
      DELETE FROM schema_version WHERE version > 1;
      INSERT INTO fixes (tenant, repo, ref, learned_at) VALUES ('acme', 'acme/api', '7', '2026-01-01');
      INSERT INTO jobs (key, kind, payload, state, attempts, run_after, created_at, updated_at)
      VALUES ('webhook:old', 'webhook-delivery', '{"id":"old"}', 'pending', 0, '1970-01-01T00:00:00.000Z', '2026-01-01', '2026-01-01')`);
    await other.close();
    const again = await openStore(path);
    try {
      expect(await again.countMemories('acme')).toBe(before.memories.length);
      expect(await again.learnedFix('acme', 'acme/api', '7')).toEqual({});
      const job = await again.claimJob(new Date().toISOString(), new Date(Date.now() + 60_000).toISOString());
      expect(job).toMatchObject({ key: 'webhook:old', payload: { id: 'old' } });
      expect(job?.body).toBeUndefined();
      await again.enqueueJob({ key: 'new', kind: 'x', payload: null, body: Buffer.from('raw') });
      expect((await again.claimJob(new Date().toISOString(), new Date().toISOString()))?.body?.toString()).toBe('raw');
    } finally {
      await again.close();
    }
  });

  it('moves the provenance of a pool written by the version-3 release to its own table without loss', async () => {
    const path = newPath();
    copyV3Pool(path);
    const before = await readV3Rows(path);
    const store = await openStore(path);
    try {
      await expectMigratedWithoutLoss(store, before);
    } finally {
      await store.close();
    }
    // and once more after reopening: nothing was kept only in memory
    const again = await openStore(path);
    try {
      const wide = before.memories.map(v3Memory).find((m) => m.provenance.length > 5)!;
      expect((await again.getMemory('acme', wide.id))?.provenance).toHaveLength(wide.provenance.length + 1);
    } finally {
      await again.close();
    }
  });

  it('gives every vector of a pool written by the version-4 release its code, and searches them exactly', async () => {
    // __tests__/fixtures/pools/v4-vectors.db: written by that release's code (make-v4-vectors-pool.ts.txt):
    // 21 memories with 512-dimension vectors, 8 with 24-dimension vectors of a second model, one forgotten
    const path = newPath();
    mkdirSync(dirname(path), { recursive: true });
    copyFileSync(fileURLToPath(new URL('../fixtures/pools/v4-vectors.db', import.meta.url)), path);
    type VectorRow = { id: string; model: string; data: Buffer; code: Buffer | null };
    const vectorRows = (): Promise<VectorRow[]> =>
      query<VectorRow>(
        path,
        `SELECT m.id, v.model, v.data, c.code FROM vectors v JOIN memories m ON m.seq = v.seq
         LEFT JOIN vector_codes c ON c.seq = v.seq AND c.model = v.model ORDER BY v.seq, v.model`,
      );
    const before = await query<{ id: string; model: string; data: Buffer }>(
      path,
      'SELECT m.id, v.model, v.data FROM vectors v JOIN memories m ON m.seq = v.seq ORDER BY v.seq, v.model',
    );
    expect(before.filter((r) => r.model === 'fixture-512')).toHaveLength(21);
    expect(before.filter((r) => r.model === 'fixture-24')).toHaveLength(8);
    const store = await openStore(path);
    try {
      // every vector has its code, as putVector would write it; the floats are untouched
      const after = await vectorRows();
      expect(after.map((r) => [r.id, r.model, r.data])).toEqual(before.map((r) => [r.id, r.model, r.data]));
      for (const row of after) expect(row.code).toEqual(Buffer.from(encodeVector(bytesToVector(row.data))));
      // a search of either model finds what exact cosine finds, with exact scores, in that order
      for (const [model, dims] of [
        ['fixture-512', 512],
        ['fixture-24', 24],
      ] as const) {
        const rows = before.filter((r) => r.model === model);
        const query = bytesToVector(rows[2]!.data).map((x, i) => x + (i % 3) * 0.01);
        const unit = unitVector(query)!;
        const exact = rows
          .map((r) => ({ id: r.id, score: exactCosine(unit, bytesToVector(r.data)) }))
          .sort((a, b) => b.score - a.score);
        const hits = await store.searchVector('acme', query, model, { limit: 5 });
        expect(hits.map((h) => h.id)).toEqual(exact.slice(0, 5).map((h) => h.id));
        hits.forEach((hit, i) => expect(hit.score).toBeCloseTo(exact[i]!.score, 6));
        expect(hits[0]!.id).toBe(rows[2]!.id);
        expect(query.length).toBe(dims);
      }
      // forgetting a memory takes its vectors and codes; replacing a vector replaces its code
      const forgotten = before.find((r) => r.model === 'fixture-24')!.id;
      expect(await store.deleteMemory('acme', forgotten)).toBe(true);
      const replaced = before.filter((r) => r.model === 'fixture-512')[5]!;
      const moved = bytesToVector(before.filter((r) => r.model === 'fixture-512')[9]!.data).map((x) => -x);
      await store.putVector('acme', replaced.id, moved, replaced.model);
      const now = await vectorRows();
      expect(now.some((r) => r.id === forgotten)).toBe(false);
      expect(now.length).toBe(before.filter((r) => r.id !== forgotten).length);
      for (const row of now) expect(row.code).toEqual(Buffer.from(encodeVector(bytesToVector(row.data))));
      expect((await store.searchVector('acme', moved, replaced.model, { limit: 1 }))[0]?.id).toBe(replaced.id);
    } finally {
      await store.close();
    }
    // a fresh process loads the same index from the codes
    const again = await openStore(path, undefined, { readOnly: true });
    try {
      const replaced = before.filter((r) => r.model === 'fixture-512')[5]!;
      const moved = bytesToVector(before.filter((r) => r.model === 'fixture-512')[9]!.data).map((x) => -x);
      const hits = await again.searchVector('acme', moved, replaced.model, { limit: 3 });
      expect(hits[0]).toEqual({ id: replaced.id, score: expect.closeTo(1, 6) as number });
    } finally {
      await again.close();
    }
  });

  it('loads a pool of many vectors by pages of codes (whole segments, the rest row by row) and keeps it in step', async () => {
    const path = newPath();
    const store = await openStore(path);
    const count = 2048 * 2 + 37;
    const vectors: Float32Array[] = [];
    let s = 7;
    const next = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
    await store.transaction(async () => {
      for (let i = 0; i < count; i++) {
        const memory = makeMemory({ id: `v${i}`, status: i % 5 === 0 ? 'proposed' : 'active' });
        await store.putMemory(memory);
        const vector = Float32Array.from({ length: 32 }, next);
        vectors.push(vector);
        await store.putVector('acme', memory.id, vector, 'emb');
      }
    });
    await store.close();
    const reader = await openStore(path, undefined, { readOnly: true });
    const exactTop = (query: Float32Array, k: number, accept: (i: number) => boolean) => {
      const unit = unitVector(query)!;
      return vectors
        .map((v, i) => ({ id: `v${i}`, i, score: exactCosine(unit, v) }))
        .filter((h) => accept(h.i))
        .sort((a, b) => b.score - a.score)
        .slice(0, k)
        .map((h) => h.id);
    };
    try {
      for (const q of [3, 2048, 4096 + 36]) {
        const hits = await reader.searchVector('acme', vectors[q]!, 'emb', { limit: 20, status: ['active'] });
        expect(hits.map((h) => h.id)).toEqual(exactTop(vectors[q]!, 20, (i) => i % 5 !== 0));
      }
    } finally {
      await reader.close();
    }
  });

  it('refuses a pool at the current version whose tables are missing, naming them', async () => {
    const path = newPath();
    const store = await openStore(path);
    await store.close();
    const other = raw(path);
    await other.exec('DROP TABLE fts_insight');
    await other.close();
    const error = await openStore(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('corrupt');
    expect((error as StoreError).message).toContain('fts_insight');
  });

  it('reports a pool locked by another writer as locked, and loses nothing', async () => {
    const path = newPath();
    const store = await SqliteStore.open(path, { busyTimeoutMs: 100 });
    await store.migrate();
    const kept = makeMemory();
    await store.putMemory(kept);
    const other = raw(path);
    await other.exec("BEGIN IMMEDIATE; INSERT INTO state (key, value, updated_at) VALUES ('other', '1', 'x');");
    const error = await store.putMemory(makeMemory()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('locked');
    expect((error as StoreError).message).toContain(path);
    // reads still work while locked
    expect(await store.getMemory('acme', kept.id)).toEqual(kept);
    await other.exec('COMMIT');
    await other.close();
    // the store recovers once the lock is gone
    const later = makeMemory();
    await store.putMemory(later);
    expect(await store.countMemories('acme')).toBe(2);
    expect(await store.getState('other')).toBe('1');
    await store.close();
  });

  it('migrates an existing pool without touching its data when opened again', async () => {
    const path = newPath();
    const first = await openStore(path);
    const m = makeMemory();
    await first.putMemory(m);
    await first.close();
    const second = await openStore(path);
    await second.migrate();
    expect(await second.getMemory('acme', m.id)).toEqual(m);
    await second.close();
  });
});

describe('defaultPoolLocation', () => {
  it('uses MEMORY_TRANSFER_DB when set, else ./.memory-transfer/pool.db', () => {
    expect(defaultPoolLocation({ MEMORY_TRANSFER_DB: '/data/pool.db' })).toBe('/data/pool.db');
    expect(defaultPoolLocation({ MEMORY_TRANSFER_DB: '  ' })).toBe('./.memory-transfer/pool.db');
    expect(defaultPoolLocation({})).toBe('./.memory-transfer/pool.db');
  });
});

describe('finished jobs at rest', () => {
  it("a done job keeps neither its payload nor its raw body (a delivery's text may hold a secret)", async () => {
    const path = newPath();
    const store = await SqliteStore.open(path);
    await store.migrate();
    const body = Buffer.from('{"issue":{"body":"npm token in the text"}}');
    await store.enqueueJob({ key: 'delivery-9', kind: 'webhook', payload: { text: 'token in the payload' }, body });
    const job = await store.claimJob(new Date().toISOString(), new Date(Date.now() + 60_000).toISOString());
    expect(job?.body).toEqual(body);
    expect(await store.completeJob(job!.id, job!.attempts)).toBe(true);
    await store.close();
    const db = new sqlite3.Database(path, sqlite3.OPEN_READONLY);
    const rows = await new Promise<unknown[]>((resolve, reject) =>
      db.all('SELECT key, payload, body FROM jobs', (error, found) => (error ? reject(error) : resolve(found))),
    );
    await new Promise<void>((resolve) => db.close(() => resolve()));
    expect(rows).toEqual([{ key: 'delivery-9', payload: 'null', body: null }]);
  });
});
