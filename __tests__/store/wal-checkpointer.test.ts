import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/ports/index.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { WalCheckpointer } from '../../src/store/wal-checkpointer.js';
import { makeMemory } from './contract.js';

const dir = mkdtempSync(join(tmpdir(), 'mt-wal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** a pool whose own timer never fires in the test, with 200 memories written one transaction each */
async function grownPool(name: string): Promise<{ store: SqliteStore; path: string; ids: string[] }> {
  const path = join(dir, name, 'pool.db');
  const store = await SqliteStore.open(path, { checkpointEveryMs: 3_600_000 });
  await store.migrate();
  const ids: string[] = [];
  for (let i = 0; i < 200; i++) {
    const memory = makeMemory({ title: `Check the routine number ${i} on an empty input` });
    ids.push(memory.id);
    await store.transaction(() => store.putMemory(memory));
  }
  return { store, path, ids };
}

const walSize = (path: string) => statSync(`${path}-wal`).size;

describe('WAL checkpoints', () => {
  it('a passive checkpoint folds the log back but leaves the file as large as it grew', async () => {
    const { store, path } = await grownPool('passive');
    const checkpointer = new WalCheckpointer(path, silentLogger, 3_600_000, Infinity);
    try {
      const before = walSize(path);
      await checkpointer.checkpoint();
      expect(walSize(path)).toBe(before);
      expect(before).toBeGreaterThan(64 * 4096);
    } finally {
      await checkpointer.close();
      await store.close();
    }
  });

  it('empties the log once it holds more frames than the limit, losing no write', async () => {
    const { store, path, ids } = await grownPool('truncate');
    const checkpointer = new WalCheckpointer(path, silentLogger, 3_600_000, 64);
    try {
      await checkpointer.checkpoint();
      expect(walSize(path)).toBe(0);
      await store.putMemory(makeMemory({ id: 'after' }));
      expect(await store.countMemories('acme')).toBe(ids.length + 1);
    } finally {
      await checkpointer.close();
      await store.close();
    }
    const again = await SqliteStore.open(path, { readOnly: true });
    try {
      expect((await again.getMemories('acme', [...ids, 'after'])).map((m) => m.id)).toEqual([...ids, 'after']);
    } finally {
      await again.close();
    }
  });
});

describe('a cleared delivery in the log', () => {
  it('truncateSoon(): the next checkpoint empties the log however small it is, once', async () => {
    const { store, path } = await grownPool('cleared');
    const checkpointer = new WalCheckpointer(path, silentLogger, 3_600_000, Infinity);
    try {
      await checkpointer.checkpoint();
      expect(walSize(path)).toBeGreaterThan(0);
      checkpointer.truncateSoon();
      await checkpointer.checkpoint();
      expect(walSize(path)).toBe(0);
      // asked once: later checkpoints are passive again
      await store.putMemory(makeMemory({ id: 'later' }));
      await checkpointer.checkpoint();
      expect(walSize(path)).toBeGreaterThan(0);
    } finally {
      await checkpointer.close();
      await store.close();
    }
  });
});
