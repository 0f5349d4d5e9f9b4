/**
 * The recall read path's caches of a store, shared by both stores: parsed memories (frozen, so a
 * caller cannot change the cached copy) and recent full-text results. The store keeps them in step
 * inside the same code paths that write: a memory write or delete invalidates that tenant, a
 * rolled-back transaction or a write by another process clears everything.
 *
 * A load that started before an invalidation never fills the cache with what it read (a
 * generation counter per tenant), so a concurrent write cannot leave a stale entry behind.
 */
import type { Memory } from '../core/types.js';
import type { ScoredId } from './store.js';

export interface ReadCacheOptions {
  /** parsed memories kept (oldest dropped first; default 50,000) */
  maxMemories?: number;
  /** full-text results kept per tenant (default 512) */
  maxSearches?: number;
  /**
   * how long a full-text result may be reused (default: until the tenant's next write). For a store
   * that cannot see other processes' writes (PostgreSQL replicas not hearing notifications): their
   * writes show after this. A function is asked at every lookup (the answer may change).
   */
  searchTtlMs?: number | (() => number);
  /** the clock of searchTtlMs (default Date.now) */
  now?: () => number;
  /** told of every invalidation (any tenant's memory write, a clear): for caches kept beside this one */
  onChange?: () => void;
}

interface TenantCache {
  /** changes on every invalidation; values are never reused (one counter for the whole cache) */
  generation: number;
  memories: Map<string, Memory>;
  searches: Map<string, { hits: ScoredId[]; at: number }>;
}

export class ReadCache {
  private tenants = new Map<string, TenantCache>();
  private memoryCount = 0;
  private generations = 0;
  private readonly maxMemories: number;
  private readonly maxSearches: number;
  private readonly searchTtlMs: () => number;
  private readonly now: () => number;
  private readonly onChange: () => void;

  constructor(options: ReadCacheOptions = {}) {
    this.maxMemories = options.maxMemories ?? 50_000;
    this.maxSearches = options.maxSearches ?? 512;
    const ttl = options.searchTtlMs ?? Infinity;
    this.searchTtlMs = typeof ttl === 'number' ? () => ttl : ttl;
    this.now = options.now ?? Date.now;
    this.onChange = options.onChange ?? (() => undefined);
  }

  /** The memories of these ids that exist, in the order asked, loading the ones not cached. */
  async memories(tenant: string, ids: string[], load: (ids: string[]) => Promise<Memory[]>): Promise<Memory[]> {
    const cache = this.tenant(tenant);
    const generation = cache.generation;
    const missing = ids.filter((id) => !cache.memories.has(id));
    let loaded = new Map<string, Memory>();
    if (missing.length > 0) {
      loaded = new Map((await load(missing)).map((m) => [m.id, deepFreeze(m)]));
      if (this.tenants.get(tenant) === cache && cache.generation === generation) {
        for (const memory of loaded.values()) this.remember(cache, memory);
      }
    }
    return ids.flatMap((id) => cache.memories.get(id) ?? loaded.get(id) ?? []);
  }

  /** A full-text search's result, cached under `key` until the tenant's next write (or searchTtlMs). */
  async search(tenant: string, key: string, run: () => Promise<ScoredId[]>): Promise<ScoredId[]> {
    const cache = this.tenant(tenant);
    const known = cache.searches.get(key);
    const started = this.now();
    if (known && started - known.at <= this.searchTtlMs()) {
      // most recently used last
      cache.searches.delete(key);
      cache.searches.set(key, known);
      return known.hits.map((hit) => ({ ...hit }));
    }
    const generation = cache.generation;
    const hits = await run();
    if (this.tenants.get(tenant) === cache && cache.generation === generation) {
      cache.searches.delete(key);
      cache.searches.set(key, { hits: hits.map((hit) => ({ ...hit })), at: started });
      if (cache.searches.size > this.maxSearches) cache.searches.delete(cache.searches.keys().next().value as string);
    }
    return hits;
  }

  /**
   * The tenant's pool generation: it changes whenever anything recall reads may have changed
   * (a memory or vector write or delete, a rollback, another process's write), so a result computed
   * under one generation is current while the generation is the same.
   */
  generation(tenant: string): number {
    return this.tenant(tenant).generation;
  }

  /** after a write to one memory (or its vector): that memory and the tenant's search results are dropped */
  invalidateMemory(tenant: string, id: string): void {
    this.onChange();
    const cache = this.tenants.get(tenant);
    if (!cache) return;
    cache.generation = ++this.generations;
    if (cache.memories.delete(id)) this.memoryCount -= 1;
    cache.searches = new Map();
  }

  /** forgets everything (a rolled-back transaction, another process wrote the pool) */
  clear(): void {
    this.onChange();
    for (const cache of this.tenants.values()) cache.generation = ++this.generations;
    this.tenants = new Map();
    this.memoryCount = 0;
  }

  private tenant(tenant: string): TenantCache {
    let cache = this.tenants.get(tenant);
    if (!cache) {
      cache = { generation: ++this.generations, memories: new Map(), searches: new Map() };
      this.tenants.set(tenant, cache);
    }
    return cache;
  }

  private remember(cache: TenantCache, memory: Memory): void {
    if (!cache.memories.has(memory.id)) this.memoryCount += 1;
    cache.memories.set(memory.id, memory);
    while (this.memoryCount > this.maxMemories) {
      const oldest = [...this.tenants.values()].find((c) => c.memories.size > 0);
      if (!oldest) break;
      oldest.memories.delete(oldest.memories.keys().next().value as string);
      this.memoryCount -= 1;
    }
  }
}

/** Freezes the object and everything in it (a cached memory is shared by every reader). */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
