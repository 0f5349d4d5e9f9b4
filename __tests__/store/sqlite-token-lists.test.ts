/**
 * SQLite answers full-text searches from cached per-token lists (src/store/token-lists.ts). The
 * claim: the result is exactly FTS5's own OR query (same memories, same order, same scores to the
 * last bit), before and after writes, and for a token too common to list.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { MemoryStatus } from '../../src/core/types.js';
import { fts5Query, queryTokens } from '../../src/store/fts-query.js';
import { ReadCache } from '../../src/store/read-cache.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { sumTokenLists, TOKEN_LIST_MAX, tokenList, type TokenHit } from '../../src/store/token-lists.js';
import { makeMemory } from './contract.js';

const dir = mkdtempSync(join(tmpdir(), 'mt-token-lists-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const open: SqliteStore[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close().catch(() => undefined)));
});

const WORDS = ['cache', 'retry', 'migration', 'lockfile', 'timeout', 'encoding', 'parser', 'schema', 'locale', 'queue'];

function seeded(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

/** FTS5's own answer, from another connection to the file: the OR query, best 10 */
function engine(
  path: string,
  tenant: string,
  query: string,
  status: MemoryStatus,
): Promise<{ id: string; score: number }[]> {
  const db = new sqlite3.Database(path);
  const sql = `SELECT m.id AS id, bm25(fts_insight, 4.0, 2.0, 1.0, 2.0) AS rank
    FROM fts_insight CROSS JOIN memories m ON m.seq = fts_insight.rowid
    WHERE fts_insight MATCH ? AND m.tenant = ? AND m.status = ? ORDER BY rank, m.seq LIMIT 10`;
  return new Promise<{ id: string; score: number }[]>((resolve, reject) =>
    db.all<{ id: string; rank: number }>(sql, [fts5Query(queryTokens(query)), tenant, status], (error, rows) =>
      error ? reject(error) : resolve(rows.map((r) => ({ id: r.id, score: -r.rank }))),
    ),
  ).finally(() => new Promise<void>((resolve) => db.close(() => resolve())));
}

async function pool(count: number, text: (i: number, rnd: () => number) => string): Promise<[SqliteStore, string]> {
  const path = join(dir, `pool-${++n}.db`);
  const store = await SqliteStore.open(path);
  await store.migrate();
  open.push(store);
  const rnd = seeded(n);
  await store.transaction(async () => {
    for (let i = 0; i < count; i += 1) {
      await store.putMemory(
        makeMemory({
          id: `p${String(i).padStart(4, '0')}`,
          tenant: i % 7 === 0 ? 'other' : 'acme',
          title: text(i, rnd),
          description: `${text(i + 1, rnd)}`,
          content: `${text(i + 2, rnd)}.`,
          status: i % 5 === 0 ? 'proposed' : 'active',
        }),
      );
    }
  });
  return [store, path];
}

const pick = (rnd: () => number) => WORDS[Math.floor(rnd() * WORDS.length)] as string;
const search = (status: MemoryStatus) => ({ level: ['insight' as const], status: [status], limit: 10 });

describe('SQLite full-text search from per-token lists', () => {
  it('answers exactly what FTS5 answers, scores to the last bit, before and after writes', async () => {
    const [store, path] = await pool(300, (_, rnd) => `${pick(rnd)} ${pick(rnd)} ${pick(rnd)}`);
    const rnd = seeded(42);
    const check = async () => {
      for (let q = 0; q < 15; q += 1) {
        const query = `${pick(rnd)} ${pick(rnd)} ${pick(rnd)}`;
        for (const status of ['active', 'proposed'] as const) {
          const expected = await engine(path, 'acme', query, status);
          expect(expected.length).toBeGreaterThan(0);
          expect(await store.searchLexical('acme', query, search(status))).toEqual(expected);
        }
      }
    };
    await check();
    // a new memory, a changed text, a status change and a delete reach the next search
    await store.putMemory(makeMemory({ id: 'p9999', title: 'cache cache retry', description: 'queue', content: '.' }));
    await store.putMemory(makeMemory({ id: 'p0001', title: 'locale locale locale', description: 'x', content: '.' }));
    await store.putMemory(
      makeMemory({ id: 'p0002', title: 'timeout', description: 'x', content: '.', status: 'proposed' }),
    );
    await store.deleteMemory('acme', 'p0003');
    await check();
    const hits = await store.searchLexical('acme', 'cache retry queue', { ...search('active'), limit: 300 });
    expect(hits.map((h) => h.id)).toContain('p9999');
    expect(hits.map((h) => h.id)).not.toContain('p0003');
    expect((await store.searchLexical('acme', 'locale', search('active')))[0]?.id).toBe('p0001');
  });

  it('keeps tenants apart: a token list of one organization never answers another', async () => {
    const [store, path] = await pool(140, (_, rnd) => `${pick(rnd)} ${pick(rnd)}`);
    for (const tenant of ['acme', 'other']) {
      const hits = await store.searchLexical(tenant, 'cache retry schema', search('active'));
      expect(hits).toEqual(await engine(path, tenant, 'cache retry schema', 'active'));
      const ids = (await store.listMemories(tenant)).map((m) => m.id);
      expect(hits.every((h) => ids.includes(h.id))).toBe(true);
    }
  });

  it('answers exactly what FTS5 answers in a large pool, whether its common words are listed yet or not', async () => {
    // 1,200 memories, one word a field: words are counted, each found in about 320 (over LIST_AT_FIRST_SIGHT)
    const [store, path] = await pool(1_200, (_, rnd) => pick(rnd));
    const rnd = seeded(7);
    // not "migration": every memory's tags hold it, so the store does not search it (term-stats.ts)
    const word = () => pick(rnd).replace('migration', 'schema');
    const queries = Array.from({ length: 8 }, () => `${word()} ${word()}`);
    for (let round = 0; round < 3; round += 1) {
      for (const query of queries) {
        expect(await store.searchLexical('acme', query, search('active'))).toEqual(
          await engine(path, 'acme', query, 'active'),
        );
      }
    }
  });

  it('asks FTS5 itself when a token matches too many memories to list', async () => {
    const count = Math.ceil(TOKEN_LIST_MAX * 1.4);
    const [store, path] = await pool(count, (i, rnd) => (i % 3 === 0 ? `everywhere ${pick(rnd)}` : `everywhere`));
    const all = await store.countMemories('acme');
    expect(all).toBeGreaterThan(TOKEN_LIST_MAX);
    const everywhere = await store.searchLexical('acme', 'everywhere', search('active'));
    expect(everywhere).toHaveLength(10);
    expect(everywhere).toEqual(await engine(path, 'acme', 'everywhere', 'active'));
    // with a rarer token beside it, the one found in over half the pool is not searched (term-stats.ts)
    expect(await store.searchLexical('acme', 'everywhere cache', search('active'))).toEqual(
      await engine(path, 'acme', 'cache', 'active'),
    );
  });
});

describe('sumTokenLists', () => {
  const hit = (seq: number, rank: number, status = 'active'): TokenHit => ({ seq, id: `m${seq}`, status, rank });
  const sum = (lists: TokenHit[][], statuses: string[] | undefined, limit: number) =>
    sumTokenLists(lists.map(tokenList), statuses, limit);

  it('adds each memory’s ranks over the lists, keeps the statuses asked, best first, ties by row order', () => {
    const result = sum(
      [[hit(1, -1), hit(2, -2), hit(3, -0.5, 'rejected')], [hit(1, -1.5), hit(4, -2.5)], [hit(5, -2.5)]],
      ['active'],
      10,
    );
    expect(result).toEqual([
      { id: 'm1', rank: -2.5 },
      { id: 'm4', rank: -2.5 },
      { id: 'm5', rank: -2.5 },
      { id: 'm2', rank: -2 },
    ]);
    expect(sum([[hit(1, -1), hit(2, -2)]], undefined, 1)).toEqual([{ id: 'm2', rank: -2 }]);
    expect(sum([], ['active'], 5)).toEqual([]);
    // nothing of one sum is left for the next: the same memory, another status, far row numbers
    expect(sum([[hit(3, -9, 'rejected'), hit(70_000, -1)]], ['active'], 5)).toEqual([{ id: 'm70000', rank: -1 }]);
    expect(sum([[hit(3, -9)]], ['active'], 5)).toEqual([{ id: 'm3', rank: -9 }]);
  });

  it('keeps exactly the best k, for any k, like sorting everything', () => {
    let state = 9;
    const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const lists = Array.from({ length: 4 }, () =>
      Array.from({ length: 300 }, () =>
        hit(Math.floor(next() * 500), -Math.floor(next() * 8), next() < 0.2 ? 'rejected' : 'active'),
      ),
    ).map((list) => [...new Map(list.map((h) => [h.seq, h])).values()]);
    const all = sum(lists, ['active'], 10_000);
    expect(all.length).toBeGreaterThan(100);
    for (const k of [1, 5, 60]) expect(sum(lists, ['active'], k)).toEqual(all.slice(0, k));
  });

  it('lists a token matching too many memories as incomplete', () => {
    const many = Array.from({ length: TOKEN_LIST_MAX + 1 }, (_, i) => hit(i, -1));
    expect(tokenList(many).complete).toBe(false);
    expect(tokenList(many.slice(1)).complete).toBe(true);
  });
});

describe('ReadCache token lists', () => {
  const list = (n: number, from = 0) =>
    tokenList(Array.from({ length: n }, (_, i) => ({ seq: from + i, id: `m${from + i}`, status: 'active', rank: -1 })));

  /** a cache whose loader records the keys it was asked for */
  function cache(maxTokenHits: number) {
    const asked: string[] = [];
    const reads = new ReadCache({ maxTokenHits });
    const lists = (tenant: string, keys: string[]) =>
      reads.tokenLists(tenant, keys, async (missing) => {
        asked.push(...missing.map((m) => `${tenant}/${m.key}`));
        return new Map(missing.map((m) => [m.key, list(4)]));
      });
    return { asked, reads, lists };
  }

  it('loads only what it does not hold, and answers in the order asked', async () => {
    const { asked, lists } = cache(1_000);
    await lists('acme', ['a', 'b']);
    const again = await lists('acme', ['b', 'c', 'a']);
    expect(asked).toEqual(['acme/a', 'acme/b', 'acme/c']);
    expect(again.map((l) => l?.seqs.length)).toEqual([4, 4, 4]);
  });

  it('tells the loader how often each missing key was asked for since the last write, and keeps only what it loaded', async () => {
    const reads = new ReadCache();
    const told: string[] = [];
    // a loader that lists a key from its second asking on
    const lists = (keys: string[]) =>
      reads.tokenLists('acme', keys, async (missing) => {
        told.push(...missing.map((m) => `${m.key}:${m.asked}`));
        return new Map(missing.filter((m) => m.asked >= 1).map((m) => [m.key, list(2)]));
      });
    expect(await lists(['a', 'b'])).toEqual([undefined, undefined]);
    expect((await lists(['b', 'c'])).map((l) => l?.seqs.length)).toEqual([2, undefined]);
    await lists(['b', 'c']); // b is held: only c is missing
    reads.invalidateMemory('acme', 'm1'); // a write: lists and the record of what was asked go
    await lists(['b', 'c']);
    expect(told).toEqual(['a:0', 'b:0', 'b:1', 'c:0', 'c:1', 'b:0', 'c:0']);
  });

  it('holds at most maxTokenHits matches over all tenants, dropping the least recently used', async () => {
    const { asked, reads, lists } = cache(10);
    await lists('acme', ['a']);
    await lists('acme', ['b']);
    await lists('other', ['x']); // 12 > 10: acme's oldest list (a) goes
    asked.length = 0;
    await lists('acme', ['b']);
    await lists('other', ['x']);
    expect(asked).toEqual([]);
    await lists('acme', ['a']); // loaded again; now b is acme's oldest and goes
    expect(asked).toEqual(['acme/a']);
    // a write of acme drops its lists and frees their room: other's next list evicts nothing
    reads.invalidateMemory('acme', 'm1');
    await lists('other', ['y']);
    asked.length = 0;
    await lists('other', ['x', 'y']);
    expect(asked).toEqual([]);
  });
});
