/**
 * recall: pools of 10k and 100k synthetic but realistic insights (routine templates × domain
 * phrases, with words of the long-tailed 30,000-word vocabulary learn-steady uses, 512-dimension
 * vectors) in SQLite; p50/p95 of recall (lexical + vector, the engine's full ranking) over a few
 * hundred task texts (a subject and a body of long-tail words, as an issue reads), pool size on
 * disk per insight, peak RSS. The floor of each recall figure: the bare full-text query on the
 * same pool file, from a connection of its own (every token of the task OR-ed, bm25, top k; no
 * token selection, no vectors, no reads, no ranking), timed over the same tasks: recall p95 ÷ bare
 * p95, target ≤ 1.5.
 * Pools are cached in .bench/ (rebuilt when missing); BENCH_RECALL_SIZES=10000,100000 by default.
 * Also pool-file mode (the Action without a server): the same recall over a MemoryIndex of the
 * pool's memories, lexical only (a pool file has no vectors), at the sizes in
 * BENCH_POOL_FILE_SIZES (default 10000). With BENCH_POSTGRES=postgres://… (a database of its own:
 * it is filled with the bench's pool), recall at 10k on PostgreSQL too.
 */
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { memoryId } from '../../src/core/ids.js';
import { fts5Query, queryTokens, tsQuery } from '../../src/store/fts-query.js';
import { SqliteConnection } from '../../src/store/sqlite-connection.js';
import { MemoryIndex } from '../../src/core/retrieval/memory-index.js';
import { ROUTINE_KINDS, ROUTINE_VOCABULARY, routineTag } from '../../src/core/knowledge/routines.js';
import type { Memory } from '../../src/core/types.js';
import { recall } from '../../src/services/recall.js';
import { silentLogger, systemClock } from '../../src/ports/index.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { createHashEmbedder } from './hash-embedder.js';
import { BUG_SUBJECTS, longTailVocabulary, pick, random, zipfWords } from './seeded.js';

const SIZES = (process.env.BENCH_RECALL_SIZES ?? '10000,100000').split(',').map(Number);
const POOL_FILE_SIZES = new Set((process.env.BENCH_POOL_FILE_SIZES ?? '10000').split(',').map(Number));
const QUERIES = 300;
const WARMUP = 20;
const TENANT = 'bench';
const POOL_VERSION = 2;
/** the long-tailed vocabulary of learn-steady (same seed, same words) */
const WORDS = longTailVocabulary(random(1313));

const SUBJECTS = [
  ...BUG_SUBJECTS,
  'webhook payload',
  'migration script',
  'search query',
  'upload size',
  'user name',
  'feature flag',
  'queue message',
  'price rounding',
  'log line',
  'job schedule',
];
const CONTEXTS = [
  'in the API',
  'in the billing worker',
  'in the CLI',
  'in the web client',
  'during startup',
  'on shutdown',
  'under load',
  'in CI',
  'on Windows',
  'after an upgrade',
  'in the importer',
  'in the scheduler',
];
const VERBS = ['Test', 'Check', 'Verify', 'Exercise', 'Pin', 'Reproduce'];
const LANGS = ['typescript', 'python', 'go', 'rust', 'java', 'ruby'];
const TOOLS = ['npm', 'pytest', 'go-test', 'cargo', 'gradle', 'rspec'];

function insight(i: number, next: () => number): Memory {
  const kind = pick(ROUTINE_KINDS, next);
  const words = ROUTINE_VOCABULARY[kind].split(' ');
  const w1 = pick(words, next);
  const w2 = pick(words, next);
  // half the subjects from the list, half two long-tail words (as learn-steady's fixes)
  const subject = next() < 0.5 ? pick(SUBJECTS, next) : zipfWords(WORDS, next, 2);
  const context = pick(CONTEXTS, next);
  const title = `${pick(VERBS, next)} ${w1} handling of the ${subject} ${context}`;
  const description = `When a change touches how the ${subject} is handled ${context}, ${w1} and ${w2} cases break silently unless a test pins them.`;
  const content =
    `Write a failing test that feeds a ${w1} ${subject} before changing the code, then run the affected suite ${context}. ` +
    `Cover ${w2} behaviour and one ordinary value (${zipfWords(WORDS, next, 2 + Math.floor(next() * 5))}), and keep the test beside the code it protects. ` +
    `Such regressions (#${i % 997}) come back when nobody checks ${words.slice(0, 3).join(', ')}.`;
  const now = new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString();
  const repo = `${TENANT}/repo-${i % 40}`;
  return {
    id: memoryId(TENANT, repo, String(i), 'insight'),
    tenant: TENANT,
    level: 'insight',
    title,
    description,
    content,
    body: { level: 'insight', insight: { title, description, content } },
    tags: [routineTag(kind), `lang:${pick(LANGS, next)}`, `tool:${pick(TOOLS, next)}`],
    lesson: null,
    routines: [kind],
    facet: null,
    examples: [],
    evidence: ['tests were added in the same change'],
    provenance: [
      {
        tenant: TENANT,
        repo,
        visibility: 'private',
        sourceKind: 'commit',
        ref: i.toString(16).padStart(40, '0'),
        authors: ['Ada'],
        date: now,
      },
    ],
    visibility: 'private',
    status: 'active',
    votes: { up: Math.floor(next() * 3), down: 0 },
    support: 1 + Math.floor(next() * 4),
    uses: 0,
    outcomes: { success: 0, failure: 0 },
    model: 'rules@1',
    writer: 'rules',
    createdAt: now,
    updatedAt: now,
  };
}

function queries(): string[] {
  const next = random(7);
  return Array.from({ length: QUERIES }, () => {
    const kind = pick(ROUTINE_KINDS, next);
    const word = pick(ROUTINE_VOCABULARY[kind].split(' '), next);
    const subject = next() < 0.5 ? pick(SUBJECTS, next) : zipfWords(WORDS, next, 2);
    const body = zipfWords(WORDS, next, 4 + Math.floor(next() * 12));
    return `${pick(['Fix', 'Crash:', 'Bug:', 'Regression:'], next)} ${word} ${subject} ${pick(CONTEXTS, next)} (#${Math.floor(next() * 5000)}): ${body}`;
  });
}

async function buildPool(file: string, size: number): Promise<number> {
  await rm(file, { force: true });
  await rm(`${file}-wal`, { force: true });
  const started = performance.now();
  const store = await openStore(file);
  const embedder = createHashEmbedder();
  const next = random(size);
  try {
    for (let start = 0; start < size; start += 1000) {
      const batch = Array.from({ length: Math.min(1000, size - start) }, (_, j) => insight(start + j, next));
      const vectors = await embedder.embed(batch.map((m) => `${m.title}\n${m.description}\n${m.content}`));
      await store.transaction(async () => {
        for (const [j, memory] of batch.entries()) {
          await store.putMemory(memory);
          await store.putVector(TENANT, memory.id, vectors[j] as Float32Array, embedder.model);
        }
      });
    }
    await store.setState('bench:pool', `${POOL_VERSION}:${size}`);
  } finally {
    await store.close();
  }
  return (performance.now() - started) / 1000;
}

async function openCached(file: string, size: number): Promise<{ store: Store; built?: number }> {
  try {
    const store = await openStore(file);
    if ((await store.getState('bench:pool')) === `${POOL_VERSION}:${size}`) return { store };
    await store.close();
  } catch {
    // rebuild below
  }
  const built = await buildPool(file, size);
  return { store: await openStore(file), built };
}

/** Wraps the store's methods to add up the time spent in each (the rest of recall is ranking in JS). */
function timeStoreCalls(store: Store, methods: (keyof Store)[]): Map<string, number> {
  const spent = new Map<string, number>();
  const target = store as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const method of methods) {
    const original = target[method]?.bind(store);
    if (!original) continue;
    target[method] = async (...args: unknown[]) => {
      const started = performance.now();
      try {
        return await original(...args);
      } finally {
        spent.set(method, (spent.get(method) ?? 0) + performance.now() - started);
      }
    };
  }
  return spent;
}

/**
 * The floor of recall: the bare full-text query over the same pool, per task (every token OR-ed,
 * ranked, top k), with `search` running one query; p50 / p95 over the tasks after a warm-up.
 */
async function bareFullText(tasks: string[], search: (task: string) => Promise<unknown>): Promise<number[]> {
  for (const task of tasks.slice(0, WARMUP)) await search(task);
  const times: number[] = [];
  for (const task of tasks) {
    const started = performance.now();
    await search(task);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

/** the bare FTS5 query on a pool file, from a read-only connection of its own */
async function bareSqlite(file: string, tasks: string[]): Promise<number[]> {
  const db = await SqliteConnection.open(file, { readOnly: true });
  try {
    return await bareFullText(tasks, (task) =>
      db.all(
        `SELECT rowid, bm25(fts_insight, 4.0, 2.0, 1.0, 2.0) AS rank FROM fts_insight WHERE fts_insight MATCH ?
         ORDER BY rank LIMIT 3`,
        [fts5Query(queryTokens(task))],
      ),
    );
  } finally {
    await db.close();
  }
}

/** the bare tsvector query on a PostgreSQL pool (the GIN index, ts_rank, top k) */
async function barePostgres(url: string, tasks: string[]): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await bareFullText(tasks, (task) =>
      client.query(
        `SELECT id, ts_rank(fts, q) AS score FROM memories, to_tsquery('english', $1) q WHERE fts @@ q
         ORDER BY score DESC LIMIT 3`,
        [tsQuery(queryTokens(task))],
      ),
    );
  } finally {
    await client.end();
  }
}

/** the recall figures' floor, and recall p95 ÷ its p95 */
function againstBare(figures: Record<string, string>, label: string, bare: number[]): void {
  const p95 = Number(figures[`${label}: recall p95 (ms)`]);
  figures[`${label}: floor, the bare full-text query, p50 / p95 (ms)`] =
    `${percentile(bare, 50).toFixed(2)} / ${percentile(bare, 95).toFixed(2)}`;
  figures[`${label}: recall p95 ÷ bare full-text p95 (target ≤ 1.5)`] = (p95 / percentile(bare, 95)).toFixed(2);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** recall over a MemoryIndex of every memory, as the Action's pool-file mode does (no embedder) */
async function poolFileMode(store: Store, label: string, tasks: string[]): Promise<Record<string, string>> {
  const memories = await store.listMemories(TENANT);
  const built = performance.now();
  const index = new MemoryIndex(memories);
  const buildMs = performance.now() - built;
  const deps = { store: index, logger: silentLogger, clock: systemClock };
  const requester = { tenant: TENANT, repo: 'bench/elsewhere', visibility: 'private' as const };
  for (const task of tasks.slice(0, WARMUP)) await recall(deps, requester, task, { k: 3 });
  const times: number[] = [];
  for (const task of tasks) {
    const started = performance.now();
    await recall(deps, requester, task, { k: 3 });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return {
    [`${label} pool-file mode: index built (ms)`]: buildMs.toFixed(0),
    [`${label} pool-file mode: recall p50 (ms)`]: percentile(times, 50).toFixed(2),
    [`${label} pool-file mode: recall p95 (ms)`]: percentile(times, 95).toFixed(2),
  };
}

/** Recall over `store` with the bench's tasks: cold first recall, p50 / p95, time in each store method. */
async function measureRecall(store: Store, label: string, tasks: string[]): Promise<Record<string, string>> {
  const spent = timeStoreCalls(store, ['searchLexical', 'searchVector', 'readMemories', 'getMemories']);
  const deps = { store, embedder: createHashEmbedder(), logger: silentLogger, clock: systemClock };
  const requester = { tenant: TENANT, repo: 'bench/elsewhere', visibility: 'private' as const };
  const coldStart = performance.now();
  await recall(deps, requester, tasks[0] ?? 'x', { k: 3 });
  const cold = performance.now() - coldStart;
  for (const task of tasks.slice(0, WARMUP)) await recall(deps, requester, task, { k: 3 });
  spent.clear();
  const times: number[] = [];
  let hits = 0;
  for (const task of tasks) {
    const started = performance.now();
    const result = await recall(deps, requester, task, { k: 3 });
    times.push(performance.now() - started);
    hits += result.length;
  }
  times.sort((a, b) => a - b);
  const figures: Record<string, string> = {
    [`${label}: first recall, cold (ms)`]: cold.toFixed(1),
    [`${label}: recall p50 (ms)`]: percentile(times, 50).toFixed(2),
    [`${label}: recall p95 (ms)`]: percentile(times, 95).toFixed(2),
  };
  for (const [method, ms] of spent)
    figures[`${label}: store.${method} per query (ms)`] = (ms / tasks.length).toFixed(2);
  figures[`${label}: results per query`] = (hits / tasks.length).toFixed(2);
  return figures;
}

/**
 * The same at 10k on PostgreSQL when BENCH_POSTGRES names a database (it is filled once, then
 * reused). Statistics are refreshed after filling it, as autovacuum does within a minute: right
 * after a bulk load the planner does not know the table and skips the full-text index.
 */
async function postgres(url: string, tasks: string[]): Promise<Record<string, string>> {
  const { store, built } = await openCached(url, 10_000);
  try {
    if (built !== undefined) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query('ANALYZE');
      await client.end();
    }
    const figures = await measureRecall(store, '10k PostgreSQL', tasks);
    againstBare(figures, '10k PostgreSQL', await barePostgres(url, tasks));
    return {
      ...(built !== undefined ? { '10k PostgreSQL: pool built (s)': built.toFixed(1) } : {}),
      ...figures,
    };
  } finally {
    await store.close();
  }
}

export async function run(): Promise<Record<string, string | number>> {
  const dir = join(process.cwd(), '.bench');
  await mkdir(dir, { recursive: true });
  const figures: Record<string, string | number> = {};
  const tasks = queries();
  for (const size of SIZES) {
    const file = join(dir, `recall-${size}.db`);
    const { store, built } = await openCached(file, size);
    const label = size >= 1000 ? `${size / 1000}k` : String(size);
    try {
      if (built !== undefined) figures[`${label}: pool built (s)`] = built.toFixed(1);
      const measured = await measureRecall(store, label, tasks);
      againstBare(measured, label, await bareSqlite(file, tasks));
      Object.assign(figures, measured);
      const size_ = (await stat(file)).size + ((await stat(`${file}-wal`).catch(() => undefined))?.size ?? 0);
      figures[`${label}: disk per insight (KB)`] = (size_ / size / 1024).toFixed(2);
      figures[`${label}: peak RSS so far (MB)`] = (process.resourceUsage().maxRSS / 1024).toFixed(0);
      if (POOL_FILE_SIZES.has(size)) Object.assign(figures, await poolFileMode(store, label, tasks));
    } finally {
      await store.close();
    }
  }
  if (process.env.BENCH_POSTGRES) Object.assign(figures, await postgres(process.env.BENCH_POSTGRES, tasks));
  figures.queries = `${tasks.length} (after ${WARMUP} warm-up), k=3, lexical + 512-dim vectors`;
  figures['note on store.* times'] =
    'wall time per call, summed per query: the lexical searches and the vector search run concurrently, so they overlap (a lexical call also waits while the vector search holds the thread)';
  return figures;
}
