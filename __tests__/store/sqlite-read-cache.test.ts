/**
 * The SQLite store's cached read path (readMemories, cached full-text results, poolGeneration):
 * whatever the caches hold, a reader never sees a memory as it was before a write, a rolled-back
 * write, or a write another process made to the same file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { axisVector, makeMemory } from './contract.js';

const dir = mkdtempSync(join(tmpdir(), 'mt-read-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const open: SqliteStore[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close().catch(() => undefined)));
});

async function fresh(path = join(dir, `pool-${++n}.db`)): Promise<SqliteStore> {
  const store = await SqliteStore.open(path);
  await store.migrate();
  open.push(store);
  return store;
}

/** another process's connection to the same file */
function rawExec(path: string, sql: string): Promise<void> {
  const db = new sqlite3.Database(path);
  return new Promise<void>((resolve, reject) => db.exec(sql, (e) => (e ? reject(e) : resolve()))).finally(
    () => new Promise<void>((resolve) => db.close(() => resolve())),
  );
}

const search = { level: ['insight' as const], status: ['active' as const], limit: 10 };

describe('SQLite cached reads', () => {
  it('reads memories like getMemories, in the order asked, as frozen shared objects', async () => {
    const store = await fresh();
    await store.putMemory(makeMemory({ id: 'm1', title: 'Alpha routine' }));
    await store.putMemory(makeMemory({ id: 'm2', title: 'Beta routine' }));
    const read = await store.readMemories('acme', ['m2', 'missing', 'm1']);
    expect(read).toEqual(await store.getMemories('acme', ['m2', 'm1'], { provenance: 'sample' }));
    expect(Object.isFrozen(read[0])).toBe(true);
    expect(Object.isFrozen(read[0]?.provenance[0])).toBe(true);
    expect(() => {
      (read[0] as { title: string }).title = 'changed';
    }).toThrow(TypeError);
    expect((await store.readMemories('acme', ['m2']))[0]?.title).toBe('Beta routine');
    // getMemories still hands out the caller's own objects
    const own = await store.getMemories('acme', ['m1']);
    expect(Object.isFrozen(own[0])).toBe(false);
    expect(await store.readMemories('other', ['m1'])).toEqual([]);
  });

  it('sees every write through the caches: a new text, a status change, a delete', async () => {
    const store = await fresh();
    await store.putMemory(makeMemory({ id: 'm1', title: 'Check the timezone offset' }));
    expect((await store.readMemories('acme', ['m1']))[0]?.title).toBe('Check the timezone offset');
    expect((await store.searchLexical('acme', 'timezone', search)).map((h) => h.id)).toEqual(['m1']);

    await store.putMemory(makeMemory({ id: 'm1', title: 'Check the encoding of names' }));
    expect((await store.readMemories('acme', ['m1']))[0]?.title).toBe('Check the encoding of names');
    expect(await store.searchLexical('acme', 'timezone', search)).toEqual([]);
    expect((await store.searchLexical('acme', 'encoding', search)).map((h) => h.id)).toEqual(['m1']);

    await store.putMemory(makeMemory({ id: 'm1', title: 'Check the encoding of names', status: 'rejected' }));
    expect((await store.readMemories('acme', ['m1']))[0]?.status).toBe('rejected');
    expect(await store.searchLexical('acme', 'encoding', search)).toEqual([]);

    await store.deleteMemory('acme', 'm1');
    expect(await store.readMemories('acme', ['m1'])).toEqual([]);
  });

  it('forgets what a rolled-back transaction wrote', async () => {
    const store = await fresh();
    await store.putMemory(makeMemory({ id: 'm1', title: 'Original advice about retries' }));
    await store.readMemories('acme', ['m1']);
    await store.searchLexical('acme', 'retries', search);
    await expect(
      store.transaction(async () => {
        await store.putMemory(makeMemory({ id: 'm1', title: 'Rewritten advice about locks' }));
        expect((await store.readMemories('acme', ['m1']))[0]?.title).toBe('Rewritten advice about locks');
        expect((await store.searchLexical('acme', 'locks', search)).map((h) => h.id)).toEqual(['m1']);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect((await store.readMemories('acme', ['m1']))[0]?.title).toBe('Original advice about retries');
    expect(await store.searchLexical('acme', 'locks', search)).toEqual([]);
    expect((await store.searchLexical('acme', 'retries', search)).map((h) => h.id)).toEqual(['m1']);
  });

  it("sees another process's writes to the same pool file", async () => {
    const path = join(dir, `shared-${++n}.db`);
    const store = await fresh(path);
    await store.putMemory(makeMemory({ id: 'm1', title: 'Advice about retries' }));
    await store.putVector('acme', 'm1', axisVector(4, 0), 'e1');
    expect((await store.readMemories('acme', ['m1']))[0]?.status).toBe('active');
    expect((await store.searchLexical('acme', 'retries', search)).map((h) => h.id)).toEqual(['m1']);
    expect((await store.searchVector('acme', axisVector(4, 0), 'e1', search)).map((h) => h.id)).toEqual(['m1']);
    const before = await store.poolGeneration('acme');

    await rawExec(path, "UPDATE memories SET status = 'rejected' WHERE id = 'm1'");

    expect(await store.poolGeneration('acme')).not.toBe(before);
    expect((await store.readMemories('acme', ['m1']))[0]?.status).toBe('rejected');
    expect(await store.searchLexical('acme', 'retries', search)).toEqual([]);
    expect(await store.searchVector('acme', axisVector(4, 0), 'e1', search)).toEqual([]);
  });

  it('changes the pool generation on memory and vector writes and deletes, not on reads or other state', async () => {
    const store = await fresh();
    const g0 = await store.poolGeneration('acme');
    await store.putMemory(makeMemory({ id: 'm1' }));
    const g1 = await store.poolGeneration('acme');
    expect(g1).not.toBe(g0);
    await store.readMemories('acme', ['m1']);
    await store.searchLexical('acme', 'anything at all', search);
    await store.setState('cursor', '42');
    await store.putMemory(makeMemory({ id: 'x1', tenant: 'other' }));
    expect(await store.poolGeneration('acme')).toBe(g1);
    await store.putVector('acme', 'm1', axisVector(4, 1), 'e1');
    const g2 = await store.poolGeneration('acme');
    expect(g2).not.toBe(g1);
    await store.deleteMemory('acme', 'm1');
    const g3 = await store.poolGeneration('acme');
    expect([g0, g1, g2]).not.toContain(g3);
  });

  it('a read racing a write never leaves the old version in the cache', async () => {
    const store = await fresh();
    await store.putMemory(makeMemory({ id: 'm1', title: 'First version' }));
    const [raced] = await Promise.all([
      store.readMemories('acme', ['m1']),
      store.putMemory(makeMemory({ id: 'm1', title: 'Second version' })),
    ]);
    expect(['First version', 'Second version']).toContain(raced[0]?.title);
    expect((await store.readMemories('acme', ['m1']))[0]?.title).toBe('Second version');
  });
});
