/**
 * Exactly-once, lossless learning with any number of writers (docs/security.md, "lost updates").
 * The same 120 fixes (six lessons, twenty repositories each) are learned one after the other and
 * concurrently — several jobs in one process, two CLI processes on one SQLite file, two stores on
 * one PostgreSQL schema — and the whole pool is compared: memories, support, provenance,
 * evidence, votes. A forced interleaving (one writer paused between its read and its write while
 * the other learns) proves the decision is made under the lock.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createRulesAbstractor } from '../../src/abstraction/rules-abstractor.js';
import type { Fix, Memory, Visibility } from '../../src/core/types.js';
import { createRedactor } from '../../src/security/redact.js';
import { vote } from '../../src/services/governance.js';
import { learnFix, type LearnDeps } from '../../src/services/learn.js';
import { silentLogger, type Abstractor } from '../../src/ports/index.js';
import { openStore } from '../../src/store/open-store.js';
import { PostgresStore } from '../../src/store/postgres-store.js';
import type { Store } from '../../src/store/store.js';
import { runCli } from '../helpers/run-cli.js';
import { sampleFix } from '../helpers/sample-fix.js';

const ROOT = resolve(import.meta.dirname, '../..');
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const dir = mkdtempSync(join(tmpdir(), 'mt-learn-race-'));
const schemas: string[] = [];
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (schemas.length === 0) return;
  const client = new pg.Client(PG_URL);
  await client.connect();
  for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});
let n = 0;
const sqlitePath = () => join(dir, `pool-${++n}.db`);
async function pgStore(schema = `mt_test_${randomBytes(6).toString('hex')}`): Promise<Store> {
  if (!schemas.includes(schema)) schemas.push(schema);
  const store = await PostgresStore.open(PG_URL, { schema, listen: false });
  await store.migrate();
  return store;
}

/** six lessons, each taught by twenty repositories (one fix each): 120 fixes */
const LESSONS = [
  { title: 'Crash when the request body is empty', files: ['src/body.ts', 'test/body.test.ts'] },
  { title: 'Timestamps shift by one hour across the daylight saving change', files: ['src/at.ts', 'test/at.test.ts'] },
  { title: 'Race condition: two workers update the same counter concurrently', files: ['src/n.ts', 'test/n.test.ts'] },
  { title: 'Migration fails on a fresh database without the users table', files: ['db/m/002.sql', 'test/m.test.ts'] },
  {
    title: 'Unicode names are truncated in the middle of a multi-byte character',
    files: ['src/u.ts', 'test/u.test.ts'],
  },
  { title: 'Off-by-one error drops the last page of results', files: ['src/page.ts', 'test/page.test.ts'] },
];
const REPOS = 20;
const VISIBILITIES: Visibility[] = ['public', 'internal', 'private'];

function fixes(): Fix[] {
  const all: Fix[] = [];
  // lesson after lesson: the jobs running at the same moment teach the same lesson
  LESSONS.forEach((lesson, l) => {
    for (let r = 0; r < REPOS; r += 1)
      all.push(
        sampleFix({
          repo: `acme/svc-${r}`,
          ref: `#${100 + l}`,
          sourceKind: 'pull_request',
          visibility: VISIBILITIES[r % 3]!,
          authors: [`dev${r}`],
          ...lesson,
        }),
      );
  });
  return all;
}

const clock = { now: () => new Date('2025-01-01T00:00:00Z') };
const rules = createRulesAbstractor();
let calls = 0;
/** the rules, answering after a few milliseconds like a model would, so concurrent jobs interleave */
const slowRules: Abstractor = {
  abstract: async (fix) => {
    await new Promise((resolve) => setTimeout(resolve, calls++ % 4));
    return rules.abstract(fix);
  },
};
const deps = (store: Store): LearnDeps => ({
  store,
  abstractor: slowRules,
  redactor: createRedactor(),
  logger: silentLogger,
  clock,
});

/**
 * The whole pool, independent of which writer happened to create an insight first: every memory
 * without its id, provenance and evidence as sets, plus the fixes recorded as learned.
 */
async function snapshot(store: Store, tenant = 'acme') {
  const memories = await store.listMemories(tenant);
  const normal = (m: Memory) => {
    const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = m;
    return JSON.stringify({
      ...rest,
      tags: [...m.tags].sort(),
      evidence: [...m.evidence].sort(),
      provenance: m.provenance.map((p) => JSON.stringify({ ...p, date: undefined })).sort(),
    });
  };
  const insights = memories.filter((m) => m.level === 'insight');
  return {
    memories: memories.map(normal).sort(),
    supports: insights.map((m) => m.support).sort(),
    fixes: (await store.stats(tenant)).fixes,
  };
}

/** learns every fix with `workers` jobs at once, each taking the next fix (the App's worker) */
async function learnConcurrently(all: Fix[], stores: Store[], workers: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      for (let i = next++; i < all.length; i = next++) await learnFix(deps(stores[w % stores.length]!), all[i]!);
    }),
  );
}

async function learnSequentially(all: Fix[], store: Store): Promise<void> {
  for (const fix of all) await learnFix(deps(store), fix);
}

function expectSixLessons(pool: Awaited<ReturnType<typeof snapshot>>): void {
  expect(pool.supports).toEqual(LESSONS.map(() => REPOS));
  expect(pool.fixes).toBe(LESSONS.length * REPOS);
}

describe('learning with several writers loses nothing', () => {
  it('SQLite: four jobs at once in one process leave the pool that one after the other leaves', async () => {
    const [one, many] = [await openStore(sqlitePath()), await openStore(sqlitePath())];
    try {
      await learnSequentially(fixes(), one);
      await learnConcurrently(fixes(), [many], 4);
      const expected = await snapshot(one);
      expectSixLessons(expected);
      expect(await snapshot(many)).toEqual(expected);
      // and a rerun of the same fixes changes nothing: every one is skipped as learned
      await learnConcurrently(fixes(), [many], 4);
      expect(await snapshot(many)).toEqual(expected);
    } finally {
      await one.close();
      await many.close();
    }
  });

  it('PostgreSQL: two stores on one schema, two jobs each, leave the pool that one store alone leaves', async () => {
    const one = await pgStore();
    const schema = `mt_test_${randomBytes(6).toString('hex')}`;
    const [a, b] = [await pgStore(schema), await pgStore(schema)];
    try {
      await learnSequentially(fixes(), one);
      await learnConcurrently(fixes(), [a, b], 4);
      const expected = await snapshot(one);
      expectSixLessons(expected);
      expect(await snapshot(a)).toEqual(expected);
    } finally {
      await Promise.all([one.close(), a.close(), b.close()]);
    }
  });

  it('two `memory-transfer learn` processes on one SQLite file leave the pool of the same files learned in turn', async () => {
    const records = fixes().map((fix) =>
      JSON.stringify({
        title: fix.title,
        files: fix.files,
        repo: fix.repo,
        ref: fix.ref,
        source_kind: fix.sourceKind,
        visibility: fix.visibility,
        authors: fix.authors,
        date: fix.date,
        language: fix.language,
      }),
    );
    // each file holds two thirds of the fixes: a third is in both (learned once)
    const first = join(dir, 'first.jsonl');
    const second = join(dir, 'second.jsonl');
    writeFileSync(first, records.filter((_, i) => i % 3 !== 2).join('\n'));
    writeFileSync(second, records.filter((_, i) => i % 3 !== 0).join('\n'));

    const inTurn = sqlitePath();
    for (const file of [first, second])
      expect((await runCli(['--db', inTurn, 'learn', '--fixes', file], dir)).code).toBe(0);

    const together = sqlitePath();
    const codes = await Promise.all([first, second].map((file) => learnProcess(together, file)));
    expect(codes).toEqual([0, 0]);

    const [a, b] = [await openStore(inTurn), await openStore(together)];
    try {
      const expected = await snapshot(a);
      expectSixLessons(expected);
      expect(await snapshot(b)).toEqual(expected);
    } finally {
      await a.close();
      await b.close();
    }
  }, 120_000);
});

/** `memory-transfer --db pool learn --fixes file` as its own process (the CLI under tsx) */
function learnProcess(pool: string, file: string): Promise<number | null> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '__tests__/helpers/cli-entry.ts', '--db', pool, 'learn', '--fixes', file],
    { cwd: ROOT, env: { PATH: process.env.PATH }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done) =>
    child.on('exit', (code) => {
      if (code !== 0) process.stderr.write(stderr);
      done(code);
    }),
  );
}

/**
 * Two writers over one store. Writer A stops right after its near-duplicate search and waits
 * until writer B has reached its transaction (B has read nothing yet if the decision is locked;
 * B has already decided if it is not); then both finish.
 */
function pausedWriters(store: Store): { a: Store; b: Store } {
  let arrived!: () => void;
  const bArrived = new Promise<void>((resolve) => (arrived = resolve));
  let paused = false;
  const a = new Proxy(store, {
    get(target, key, receiver) {
      if (key === 'searchLexical')
        return async (...args: Parameters<Store['searchLexical']>) => {
          const hits = await target.searchLexical(...args);
          if (!paused) {
            paused = true;
            await bArrived;
          }
          return hits;
        };
      const value = Reflect.get(target, key, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  const b = new Proxy(store, {
    get(target, key, receiver) {
      if (key === 'transaction' || key === 'tenantTransaction')
        return (...args: unknown[]) => {
          arrived();
          return (target[key] as (...args: unknown[]) => unknown).apply(target, args);
        };
      const value = Reflect.get(target, key, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { a, b };
}

describe('a writer paused between its read and its write', () => {
  const lesson = LESSONS[0]!;
  const fixA = sampleFix({ repo: 'acme/web', ref: '#1', visibility: 'public', ...lesson });
  const fixB = sampleFix({ repo: 'acme/api', ref: '#2', visibility: 'private', ...lesson });

  for (const [name, open] of [
    ['SQLite', () => openStore(sqlitePath())],
    ['PostgreSQL', () => pgStore()],
  ] as const) {
    it(`${name}: the second writer merges into the first one's insight (support 2), never a duplicate`, async () => {
      const store = await open();
      try {
        const { a, b } = pausedWriters(store);
        const [ra, rb] = await Promise.all([learnFix(deps(a), fixA), learnFix(deps(b), fixB)]);
        expect([...ra.merged, ...rb.merged]).toHaveLength(1);
        const insights = await store.listMemories('acme', { level: ['insight'] });
        expect(insights).toHaveLength(1);
        expect(insights[0]).toMatchObject({ support: 2, visibility: 'private' });
        expect(insights[0]!.provenance.map((p) => p.repo).sort()).toEqual(['acme/api', 'acme/web']);
      } finally {
        await store.close();
      }
    });

    it(`${name}: the same fix learned by two writers at once is learned once`, async () => {
      const store = await open();
      try {
        const { a, b } = pausedWriters(store);
        const results = await Promise.all([learnFix(deps(a), fixA), learnFix(deps(b), fixA)]);
        expect(results.filter((r) => r.skipped === 'already-learned')).toHaveLength(1);
        const insights = await store.listMemories('acme', { level: ['insight'] });
        expect(insights.map((m) => m.support)).toEqual([1]);
      } finally {
        await store.close();
      }
    });
  }
});

describe('votes from several replicas at once', () => {
  it('PostgreSQL: 20 people voting at once through two stores on one schema count 20 votes', async () => {
    const schema = `mt_test_${randomBytes(6).toString('hex')}`;
    const [a, b] = [await pgStore(schema), await pgStore(schema)];
    try {
      const learned = await learnFix(deps(a), sampleFix({ repo: 'acme/web', ref: '#1', ...LESSONS[0]! }));
      const insight = (await a.getMemories('acme', learned.created)).find((m) => m.level === 'insight')!;
      expect(insight.id).toBeDefined();
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => vote(i % 2 ? a : b, 'acme', insight.id, 'up', { actor: `user${i}` })),
      );
      expect((await b.getMemory('acme', insight.id))?.votes).toEqual({ up: 20, down: 0 });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
