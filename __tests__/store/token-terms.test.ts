/**
 * The SQLite store answers a full-text search of tokens it has seen from each token's cached bm25
 * terms (token-terms.ts): the candidates it fetches, and so its answer, are those FTS5 gives to the
 * last bit, on a pool large enough for the token choice to matter, and it follows every write (this
 * process's, a rollback, another process's).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Memory, MemoryStatus } from '../../src/core/types.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import type { SearchOptions } from '../../src/store/store.js';
import { SELECTIVE_FROM_ROWS } from '../../src/store/term-stats.js';
import { rankByTerms, TokenTerms, type TermRow } from '../../src/store/token-terms.js';
import { makeMemory } from './contract.js';

const dir = mkdtempSync(join(tmpdir(), 'mt-token-terms-'));
const file = join(dir, 'pool.db');
let store: SqliteStore;

/** deterministic pseudo-random numbers in [0, 1) */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const next = seeded(29);
const SYLLABLES = ['bak', 'dun', 'mip', 'rok', 'zug', 'fam', 'tik', 'wol', 'pux', 'gan', 'hov', 'jek'];
const VOCABULARY = [
  ...new Set(
    Array.from({ length: 3000 }, () => {
      let word = '';
      for (let i = 2 + Math.floor(next() * 2); i > 0; i--) word += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
      return word;
    }),
  ),
];
/** Zipf-like: a few words in most memories, a long tail in one or two */
const word = () => VOCABULARY[Math.min(VOCABULARY.length - 1, Math.floor(1 / Math.max(next(), 1e-6)) - 1)] as string;
const words = (n: number) => Array.from({ length: n }, word).join(' ');
const STATUSES: MemoryStatus[] = ['active', 'active', 'active', 'proposed', 'rejected'];

function memory(i: number): Memory {
  return makeMemory({
    tenant: i % 4 === 0 ? 'globex' : 'acme',
    status: STATUSES[i % STATUSES.length],
    // some texts repeat exactly: equal scores, where only the row order decides
    ...(i % 50 === 7
      ? { title: 'Pin the twin case', description: 'twin', content: 'bakdun mipzug' }
      : { title: `Check ${words(3)}`, description: words(6), content: `${words(12)} ${words(3)}` }),
  });
}

const searches: [string, SearchOptions][] = Array.from({ length: 240 }, (_, i) => [
  i % 40 === 0 ? 'bakdun mipzug twin' : words(1 + (i % 9)),
  {
    limit: [3, 10, 60][i % 3] as number,
    ...(i % 2 === 0 ? { status: ['active'] as MemoryStatus[] } : {}),
    ...(i % 5 === 0 ? {} : { level: ['insight' as const] }),
  },
]);

/** FTS5's answer: inside a transaction the store never uses cached terms */
const fts5 = (s: SqliteStore, tenant: string, query: string, options: SearchOptions) =>
  s.transaction(() => s.searchLexical(tenant, query, options));

beforeAll(async () => {
  store = await SqliteStore.open(file);
  await store.migrate();
  await store.transaction(async () => {
    for (let i = 0; i < SELECTIVE_FROM_ROWS * 1.4; i++) await store.putMemory(memory(i));
  });
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('full-text search from cached token terms', () => {
  it("answers FTS5's ids and scores exactly, for every tenant, status filter, level and limit", async () => {
    let answered = 0;
    for (const tenant of ['acme', 'globex']) {
      for (const [query, options] of searches) {
        const expected = await fts5(store, tenant, query, options);
        expect(await store.searchLexical(tenant, query, options)).toEqual(expected);
        if (expected.length > 0) answered += 1;
      }
    }
    // the searches find something (else the comparison would prove nothing)
    expect(answered).toBeGreaterThan(300);
  });

  it("follows this process's writes, rollbacks and another process's commits", async () => {
    const options: SearchOptions = { limit: 10, status: ['active'] };
    const query = 'bakdun mipzug twin';
    const before = await store.searchLexical('acme', query, options);
    expect(before.length).toBeGreaterThan(0);

    // a write of a memory the query does not match moves every FTS5 term (bm25's row count and
    // average length are the whole table's), but no score: the order is the shared formula's, over
    // the candidates' statistics (core/retrieval/lexical-rank.ts)
    const other = makeMemory({ tenant: 'acme', title: 'Unrelated', description: 'nothing', content: 'qqq www' });
    await store.putMemory(other);
    const afterWrite = await store.searchLexical('acme', query, options);
    expect(afterWrite).toEqual(await fts5(store, 'acme', query, options));
    expect(afterWrite).toEqual(before);

    // a new best match appears at once; a deleted one is gone at once
    const strong = { title: 'twin bakdun mipzug', description: 'twin bakdun mipzug', content: 'twin bakdun mipzug' };
    const best = makeMemory({ tenant: 'acme', ...strong });
    await store.putMemory(best);
    expect((await store.searchLexical('acme', query, options))[0]?.id).toBe(best.id);
    await store.deleteMemory('acme', best.id);
    expect((await store.searchLexical('acme', query, options)).map((h) => h.id)).not.toContain(best.id);

    // a rolled-back write leaves nothing behind
    const rolledBack = makeMemory({ tenant: 'acme', ...strong });
    await expect(
      store.transaction(async () => {
        await store.putMemory(rolledBack);
        await store.searchLexical('acme', query, options);
        throw new Error('abandon');
      }),
    ).rejects.toThrow('abandon');
    expect((await store.searchLexical('acme', query, options)).map((h) => h.id)).not.toContain(rolledBack.id);

    // another process (a second connection) writes the same file
    const cli = await SqliteStore.open(file);
    try {
      const theirs = makeMemory({ tenant: 'acme', ...strong });
      await cli.putMemory(theirs);
      const seen = await store.searchLexical('acme', query, options);
      expect(seen[0]?.id).toBe(theirs.id);
      expect(seen).toEqual(await fts5(store, 'acme', query, options));
    } finally {
      await cli.close();
    }
  });
});

describe('TokenTerms', () => {
  const row = (seq: number, rank: number, tenant = 'acme', status = 'active'): TermRow => ({
    seq,
    id: `m${seq}`,
    tenant,
    status,
    rank,
  });

  it('ranks by the sum of each token in order, one tenant and status, ties in row order', () => {
    const lists = [
      [row(1, -2), row(2, -1), row(5, -1.5, 'globex')],
      [row(2, -1), row(3, -2), row(4, -0.5, 'acme', 'rejected')],
    ];
    expect(rankByTerms(lists, 'acme', ['active'], 10)).toEqual([
      { id: 'm1', rank: -2 },
      { id: 'm2', rank: -2 },
      { id: 'm3', rank: -2 },
    ]);
    expect(rankByTerms(lists, 'acme', undefined, 4).map((h) => h.id)).toEqual(['m1', 'm2', 'm3', 'm4']);
    expect(rankByTerms(lists, 'acme', undefined, 1)).toEqual([{ id: 'm1', rank: -2 }]);
  });

  it('keeps at most maxRows rows, never caches a too-common token, and drops a load a write overtook', async () => {
    const loads: string[][] = [];
    let hold: (() => void) | undefined;
    const terms = new TokenTerms(
      async (_level, tokens, cap) => {
        loads.push(tokens);
        if (tokens.includes('slow')) await new Promise<void>((resolve) => (hold = resolve));
        return tokens.map((token) => Array.from({ length: token === 'common' ? cap : 3 }, (_, i) => row(i + 1, -1)));
      },
      { maxRows: 7, maxPerToken: 4 },
    );
    expect(await terms.terms('insight', ['a', 'b'])).toHaveLength(2);
    expect(await terms.terms('insight', ['a', 'b'])).toHaveLength(2);
    expect(loads).toEqual([['a', 'b']]);
    // a third list of 3 rows passes maxRows (7): the least recently used (a) goes
    await terms.terms('insight', ['c']);
    await terms.terms('insight', ['b', 'c']);
    await terms.terms('insight', ['a']);
    expect(loads.slice(1)).toEqual([['c'], ['a']]);
    // a token matching more than maxPerToken rows: the search is left to FTS5, every time
    expect(await terms.terms('insight', ['a', 'common'])).toBeUndefined();
    expect(await terms.terms('insight', ['common'])).toBeUndefined();
    expect(loads.slice(3)).toEqual([['common']]);
    // a write during a load: what the load read is used once, never kept
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    const pending = terms.terms('insight', ['slow']);
    await settle();
    terms.clear();
    hold?.();
    expect(await pending).toHaveLength(1);
    const again = terms.terms('insight', ['slow']);
    await settle();
    hold?.();
    expect(await again).toHaveLength(1);
    expect(loads.slice(4)).toEqual([['slow'], ['slow']]);
  });
});
