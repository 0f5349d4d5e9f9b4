/**
 * SQLite and PostgreSQL choose the same query tokens (term-stats.ts) on a pool large enough for the
 * choice to matter, so a search finds the same candidates in both; and PostgreSQL's term counts
 * never run two queries at once on one connection (pg's "already executing a query" warning).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresStore } from '../../src/store/postgres-store.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { SELECTIVE_FROM_ROWS } from '../../src/store/term-stats.js';
import { makeMemory } from './contract.js';

const URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const schema = `mt_test_${randomBytes(6).toString('hex')}`;
const dir = mkdtempSync(join(tmpdir(), 'mt-parity-'));

/** deterministic pseudo-random numbers in [0, 1) */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

// made-up words that neither store's stemmer (Porter, Snowball English) changes: consonant endings
// that are no suffix, so each word is its own term in both
const SYLLABLES = ['bak', 'dun', 'mip', 'rok', 'zug', 'fam', 'tik', 'wol', 'pux', 'gan', 'hov', 'jek'];
const next = seeded(13);
const VOCABULARY = [
  ...new Set(
    Array.from({ length: 4000 }, () => {
      let word = '';
      for (let i = 2 + Math.floor(next() * 2); i > 0; i--) word += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
      return word;
    }),
  ),
];

/** one word, Zipf-like: a few in most memories, a long tail in one or two */
function word(rand: () => number): string {
  const rank = Math.min(VOCABULARY.length - 1, Math.floor(1 / Math.max(rand(), 1e-6)) - 1 + Math.floor(rand() * 3));
  return VOCABULARY[rank] as string;
}
const words = (rand: () => number, n: number) => Array.from({ length: n }, () => word(rand)).join(' ');

/** the same memories for both stores: an insight level above SELECTIVE_FROM_ROWS */
function memories(count: number, seed: number, idFrom = 0) {
  const rand = seeded(seed);
  return Array.from({ length: count }, (_, i) =>
    makeMemory({
      id: `p${String(idFrom + i).padStart(6, '0')}`,
      level: 'insight',
      title: words(rand, 6),
      description: words(rand, 10),
      content: words(rand, 20),
      tags: [],
    }),
  );
}

const queries = (() => {
  const rand = seeded(99);
  return Array.from({ length: 60 }, () => words(rand, 4 + Math.floor(rand() * 16)));
})();

let sqlite: Store;
let postgres: Store;

async function learn(store: Store, batch: ReturnType<typeof memories>): Promise<void> {
  await store.transaction(async () => {
    for (const memory of batch) await store.putMemory(memory);
  });
}

/** every memory a search finds (a limit above any candidate count), as a sorted id list */
async function candidates(store: Store, query: string): Promise<string[]> {
  const hits = await store.searchLexical('acme', query, { limit: 5000, level: ['insight'] });
  return hits.map((h) => h.id).sort();
}

beforeAll(async () => {
  sqlite = await openStore(join(dir, 'pool.db'));
  postgres = await PostgresStore.open(URL, { schema });
  await postgres.migrate();
}, 60_000);

afterAll(async () => {
  await sqlite?.close();
  await postgres?.close();
  rmSync(dir, { recursive: true, force: true });
  const client = new pg.Client(URL);
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

describe('term statistics: SQLite and PostgreSQL', () => {
  it('search the same tokens of a query, so find the same candidates, as the pool grows', async () => {
    const first = memories(SELECTIVE_FROM_ROWS + 600, 1);
    for (const store of [sqlite, postgres]) await learn(store, first);
    const matchAll = (query: string, pool: ReturnType<typeof memories>) => {
      const tokens = new Set(query.split(' '));
      return pool
        .filter((m) => `${m.title} ${m.description} ${m.content}`.split(' ').some((w) => tokens.has(w)))
        .map((m) => m.id)
        .sort();
    };
    let narrowed = 0;
    let found = 0;
    for (const query of queries) {
      const [a, b] = [await candidates(sqlite, query), await candidates(postgres, query)];
      expect(b, query).toEqual(a);
      if (a.length > 0) found++;
      // the choice matters: common tokens were left out
      if (a.length < matchAll(query, first).length) narrowed++;
    }
    expect(found).toBeGreaterThan(queries.length * 0.8);
    expect(narrowed).toBeGreaterThan(queries.length / 2);

    // new memories within the counts' staleness (fewer writes than a tenth of the pool), and more
    // sources for old ones (no text changed, so no write the counts know of): both keep their
    // counts, so both still choose alike
    const few = memories(150, 2, first.length);
    for (const store of [sqlite, postgres]) {
      await learn(store, few);
      for (const memory of first.slice(0, 120)) {
        const source = { ...memory.provenance[0]!, repo: 'acme/web', ref: `${memory.id}-2` };
        expect(await store.appendProvenance('acme', memory.id, source)).toBe(true);
      }
    }
    for (const query of queries)
      expect(await candidates(postgres, query), query).toEqual(await candidates(sqlite, query));

    // the pool grows and changes (new memories, and old ones put again with other words): the
    // counts are taken again, alike
    const more = [...memories(400, 3, first.length + few.length), ...memories(150, 4, 0)];
    for (const store of [sqlite, postgres]) await learn(store, more);
    for (const query of queries)
      expect(await candidates(postgres, query), query).toEqual(await candidates(sqlite, query));
  }, 120_000);

  it('PostgreSQL counts a transaction’s tokens with one query at a time on its connection', async () => {
    const inFlight = new WeakMap<object, number>();
    let overlapped = 0;
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    const query = pg.Client.prototype.query;
    // every query of every client: how many were running on it at once
    pg.Client.prototype.query = function (this: object, ...args: unknown[]) {
      const running = (inFlight.get(this) ?? 0) + 1;
      if (running > 1) overlapped++;
      inFlight.set(this, running);
      const result = (query as (...a: unknown[]) => unknown).apply(this, args);
      const done = () => inFlight.set(this, (inFlight.get(this) ?? 1) - 1);
      if (result instanceof Promise) void result.then(done, done);
      else done();
      return result;
    } as typeof query;
    try {
      // tokens never counted before, searched inside a transaction (as a learn's merge decision)
      const rand = seeded(7);
      await postgres.transaction(async () => {
        for (let i = 0; i < 5; i++) {
          const fresh = Array.from({ length: 12 }, () => `${word(rand)}${'xq'.repeat(i + 1)}`).join(' ');
          await postgres.searchLexical('acme', `${fresh} ${words(rand, 8)}`, { limit: 5, level: ['insight'] });
        }
      });
    } finally {
      pg.Client.prototype.query = query;
      process.off('warning', onWarning);
    }
    expect(overlapped).toBe(0);
    expect(warnings.filter((w) => w.includes('already executing a query'))).toEqual([]);
  });
});
