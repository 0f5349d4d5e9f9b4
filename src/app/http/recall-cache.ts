/**
 * The recall API's result cache: identical concurrent recalls share one computation (a CI matrix
 * starts many jobs with the same task at once), and a small LRU keeps recent results.
 *
 * Correctness rests on the key and the generation. The key holds everything the result depends
 * on: the tenant, the requester (repository id and name, visibility: what it may see), the task and
 * the options. The generation is the store's pool generation for the tenant, which every write
 * changes: a result is only served under the generation it was computed in, so it is never
 * stale, and never shown to a requester other than the one it was computed for. Entries also
 * expire after `ttlMs` (the recency prior moves with the clock).
 */
import type { Clock } from '../../ports/index.js';

export interface RecallCacheOptions {
  /** entries kept (default 1,000) */
  max?: number;
  /** an entry is recomputed after this long even when nothing was written (default 60 s) */
  ttlMs?: number;
  clock: Clock;
}

interface Entry<T> {
  generation: string;
  at: number;
  value: Promise<T>;
}

export interface RecallCache<T> {
  /** the value for key under this generation: cached, already being computed, or computed now */
  get(key: string, generation: string, compute: () => Promise<T>): Promise<T>;
  readonly size: number;
}

export function createRecallCache<T>(options: RecallCacheOptions): RecallCache<T> {
  const max = options.max ?? 1_000;
  const ttl = options.ttlMs ?? 60_000;
  const entries = new Map<string, Entry<T>>();
  return {
    get size() {
      return entries.size;
    },
    get(key, generation, compute) {
      const now = options.clock.now().getTime();
      const known = entries.get(key);
      entries.delete(key);
      if (known && known.generation === generation && now - known.at < ttl) {
        entries.set(key, known); // most recently used last
        return known.value;
      }
      // in flight or settled: either way shared; a failure is not kept
      const entry: Entry<T> = { generation, at: now, value: compute() };
      entries.set(key, entry);
      entry.value.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      while (entries.size > max) entries.delete(entries.keys().next().value as string);
      return entry.value;
    },
  };
}

/** The cache key of one recall: every input its result depends on, unambiguously encoded. */
export function recallCacheKey(parts: {
  tenant: string;
  repoId: number | undefined;
  repo: string;
  visibility: string | undefined;
  task: string;
  k: number;
  level: string;
  minScore: number | undefined;
}): string {
  return JSON.stringify([
    parts.tenant,
    parts.repoId ?? null,
    parts.repo,
    parts.visibility ?? null,
    parts.task,
    parts.k,
    parts.level,
    parts.minScore ?? null,
  ]);
}
