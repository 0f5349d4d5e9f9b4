/**
 * learn-steady: does learning keep its rate as the pool grows? Learns realistic, varied fixes
 * (12 repositories, a long-tailed vocabulary of ~30,000 words, titles and bodies that differ from
 * fix to fix, so that the catalog lessons merge the way real histories do: a few insights collect
 * thousands of sources) into one SQLite pool file, in chunks, through the learn service the CLI
 * and the App use (rules abstractor, redaction, the tenant transaction). Prints fixes/s per chunk
 * beside the first chunk's (the floor, measured on an empty pool in the same run) and the memory
 * the process holds after each chunk.
 *
 * Targets (issue 13): the rate at 10k learned fixes ≥ 0.8 × the first chunk's; peak memory not
 * growing with the pool. With BENCH_POSTGRES=postgres://… the same fixes are learned again into a
 * PostgreSQL schema of their own (dropped afterwards). BENCH_STEADY_FIXES and BENCH_STEADY_CHUNK
 * change the sizes (default 11,000 in chunks of 1,000); BENCH_STEADY_SQLITE=0 learns into PostgreSQL only.
 * With BENCH_STEADY_GIT=path=owner/name[,…] (local clones; the bench fetches nothing) the fixes are
 * real: mined from those histories as `learn --git` mines them, all of them, oldest first across
 * the repositories, learned as one organization (BENCH_STEADY_FIXES then caps their number).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createRulesAbstractor } from '../../src/abstraction/rules-abstractor.js';
import type { Fix, Visibility } from '../../src/core/types.js';
import { createRedactor } from '../../src/security/redact.js';
import { learnFixes } from '../../src/services/learn.js';
import { silentLogger, systemClock } from '../../src/ports/index.js';
import { mineGitFixes } from '../../src/sources/git.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { localClones } from './local-clones.js';
import { BUG_SUBJECTS, longTailVocabulary, pick, random, zipf } from './seeded.js';

const TOTAL = Number(process.env.BENCH_STEADY_FIXES ?? 11_000);
const CHUNK = Number(process.env.BENCH_STEADY_CHUNK ?? 1_000);
const TENANT = 'bench';

const REPOS = [
  'api',
  'web',
  'billing',
  'cli',
  'docs-site',
  'auth',
  'queue',
  'search',
  'mobile',
  'infra',
  'sdk-js',
  'sdk-py',
].map((name) => `${TENANT}/${name}`);
const LANGUAGES = ['TypeScript', 'Python', 'Go', 'Rust', 'Java', 'Ruby'];
const EXTENSIONS: Record<string, string> = {
  TypeScript: 'ts',
  Python: 'py',
  Go: 'go',
  Rust: 'rs',
  Java: 'java',
  Ruby: 'rb',
};
const VISIBILITIES: Visibility[] = ['public', 'internal', 'private'];

const TITLES: ((thing: string, word: string) => string)[] = [
  (t) => `Fix crash when the ${t} is empty`,
  (t, w) => `fix: handle a missing ${t} in ${w}`,
  (t) => `Fix wrong ${t} in UTC+13 time zones`,
  (t, w) => `Fix race between ${t} refresh and ${w} shutdown`,
  (t) => `Fix regression in ${t} parsing`,
  (t, w) => `Fix memory leak in the ${w} ${t} listener`,
  (t) => `Throw a clear error when the ${t} is malformed`,
  (t) => `fix: ${t} broken on Windows paths`,
  (t, w) => `Retry ${w} requests when the ${t} times out`,
  (t) => `Escape the ${t} before it reaches the shell`,
  (t, w) => `Keep ${t} order stable when ${w} sorts`,
  (t) => `Reject a negative ${t}`,
];

/** `count` fixes, deterministic, each different in its title, body, files and repository */
export function generateFixes(count: number): Fix[] {
  const next = random(1313);
  const words = longTailVocabulary(next);
  const fixes: Fix[] = [];
  for (let i = 0; i < count; i++) {
    const repo = pick(REPOS, next);
    const language = pick(LANGUAGES, next);
    const thing = next() < 0.5 ? pick(BUG_SUBJECTS, next) : `${zipf(words, next)} ${zipf(words, next)}`;
    const word = zipf(words, next);
    const body = Array.from({ length: 8 + Math.floor(next() * 14) }, () => zipf(words, next)).join(' ');
    const file = `${zipf(words, next)}/${zipf(words, next)}.${EXTENSIONS[language]}`;
    const tested = next() < 0.85;
    fixes.push({
      tenant: TENANT,
      repo,
      visibility: pick(VISIBILITIES, next),
      sourceKind: 'pull_request',
      ref: String(1000 + i),
      url: `https://github.com/${repo}/pull/${1000 + i}`,
      title: pick(TITLES, next)(thing, word),
      problem: `Users reported that the ${thing} misbehaved: ${body}.`,
      change: `changed ${file}`,
      files: tested ? [`src/${file}`, `test/${file.replace(/\.(\w+)$/, '.test.$1')}`] : [`src/${file}`],
      testsChanged: tested,
      signals:
        next() < 0.3 ? [{ kind: 'check-red-green', check: 'unit', name: 'test', excerpt: `${word} failed` }] : [],
      authors: [`dev${Math.floor(next() * 40)}`],
      trusted: true,
      language,
      date: new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString(),
      labels: ['bug'],
    });
  }
  return fixes;
}

/**
 * learns the fixes into `store` in chunks; figures prefixed with `label`. With `pages`, also what
 * each thousand cost the database in pages (a count the machine's load does not move)
 */
async function learnInChunks(
  store: Store,
  label: string,
  fixes: Fix[],
  pages?: () => Promise<number>,
): Promise<Record<string, string | number>> {
  const deps = {
    store,
    abstractor: createRulesAbstractor(),
    redactor: createRedactor(),
    logger: silentLogger,
    clock: systemClock,
  };
  const figures: Record<string, string | number> = {};
  const rates: number[] = [];
  const rss: number[] = [];
  const heap: number[] = [];
  const perFix: string[] = [];
  for (let start = 0; start < fixes.length; start += CHUNK) {
    const chunk = fixes.slice(start, start + CHUNK);
    const pagesBefore = await pages?.();
    const started = performance.now();
    await learnFixes(deps, chunk);
    const seconds = (performance.now() - started) / 1000;
    if (pages) perFix.push((((await pages()) - (pagesBefore ?? 0)) / chunk.length).toFixed(0));
    rates.push(chunk.length / seconds);
    rss.push(process.memoryUsage().rss / 1024 / 1024);
    // with `node --expose-gc` (NODE_OPTIONS), the live heap after a full collection: what the process keeps
    const gc = (globalThis as { gc?: () => void }).gc;
    if (gc) gc();
    heap.push(gc ? process.memoryUsage().heapUsed / 1024 / 1024 : Number.NaN);
    const floor = rates[0] as number;
    const rate = rates[rates.length - 1] as number;
    const live = heap[heap.length - 1] as number;
    figures[`${label}fixes ${start + 1}–${start + chunk.length} (fixes/s, × first chunk, RSS MB, heap MB after GC)`] =
      `${rate.toFixed(0)}  ${(rate / floor).toFixed(2)}×  ${rss[rss.length - 1]?.toFixed(0)}  ${Number.isNaN(live) ? '-' : live.toFixed(0)}`;
  }
  const insights = await store.listMemories(TENANT, { level: ['insight'] });
  const largest = Math.max(...insights.map((m) => m.provenance.length));
  const stats = await store.stats(TENANT);
  const floor = rates[0] as number;
  const at10k = rates[Math.min(rates.length, Math.ceil(10_000 / CHUNK)) - 1] as number;
  const last = rates[rates.length - 1] as number;
  figures[`${label}memories / insights`] = `${stats.memories} / ${insights.length}`;
  figures[`${label}largest insight (sources)`] = largest;
  figures[`${label}rate at 10k ÷ first chunk (target ≥ 0.80)`] = (at10k / floor).toFixed(2);
  if (pages)
    figures[`${label}pages read per fix (shared buffers, tables, indexes, TOAST), by thousand`] = perFix.join(' ');
  figures[`${label}last chunk ÷ first chunk`] = (last / floor).toFixed(2);
  figures[`${label}RSS after the first chunk → after the last (MB)`] =
    `${rss[0]?.toFixed(0)} → ${rss[rss.length - 1]?.toFixed(0)}`;
  return figures;
}

/** The fixes of local clones, mined as `learn --git` mines them, oldest first across the repositories. */
async function gitHistoryFixes(spec: string): Promise<Fix[]> {
  const fixes: Fix[] = [];
  for (const { path, name } of localClones('BENCH_STEADY_GIT', spec)) {
    for await (const fix of await mineGitFixes({ dir: path, repo: name, tenant: TENANT })) fixes.push(fix);
  }
  fixes.sort((a, b) => a.date.localeCompare(b.date));
  return fixes.slice(0, TOTAL);
}

export async function run(): Promise<Record<string, string | number>> {
  const git = process.env.BENCH_STEADY_GIT;
  const fixes = git ? await gitHistoryFixes(git) : generateFixes(TOTAL);
  const tmp = await mkdtemp(join(tmpdir(), 'mt-bench-steady-'));
  const db = join(tmp, 'pool.db');
  let figures: Record<string, string | number> = {};
  const store = process.env.BENCH_STEADY_SQLITE === '0' ? undefined : await openStore(db);
  if (store)
    try {
      figures = await learnInChunks(store, '', fixes);
      const wal = (await stat(`${db}-wal`).catch(() => undefined))?.size ?? 0;
      const size = (await stat(db)).size + wal;
      figures['peak RSS of the process (MB)'] = (process.resourceUsage().maxRSS / 1024).toFixed(0);
      figures['pool size (MB)'] =
        `${(size / 1024 / 1024).toFixed(1)} (of it the WAL: ${(wal / 1024 / 1024).toFixed(1)})`;
    } finally {
      await store.close();
    }
  await rm(tmp, { recursive: true, force: true });
  // the same on PostgreSQL, in a schema of its own that is dropped afterwards
  const url = process.env.BENCH_POSTGRES;
  if (url) {
    const schema = `mt_bench_steady_${randomBytes(4).toString('hex')}`;
    const pgStore = await openStore(`${url}${url.includes('?') ? '&' : '?'}schema=${schema}`, silentLogger, {
      listen: false,
    });
    try {
      const stats = new pg.Client({ connectionString: url });
      await stats.connect();
      // the schema's page reads; a backend reports its counts within a second of its work
      const pages = async () => {
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        const rows = await stats.query(
          `SELECT SUM(COALESCE(heap_blks_hit, 0) + COALESCE(heap_blks_read, 0) + COALESCE(idx_blks_hit, 0)
             + COALESCE(idx_blks_read, 0) + COALESCE(toast_blks_hit, 0) + COALESCE(toast_blks_read, 0)
             + COALESCE(tidx_blks_hit, 0) + COALESCE(tidx_blks_read, 0))::float8 AS n
           FROM pg_statio_user_tables WHERE schemaname = $1`,
          [schema],
        );
        return Number(rows.rows[0]?.n ?? 0);
      };
      try {
        Object.assign(figures, await learnInChunks(pgStore, 'PostgreSQL: ', fixes, pages));
      } finally {
        await stats.end();
      }
    } finally {
      await pgStore.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  }
  return figures;
}
