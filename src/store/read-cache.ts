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
import type { TokenList } from './token-lists.js';

export interface ReadCacheOptions {
  /** parsed memories kept (oldest dropped first; default 50,000) */
  maxMemories?: number;
  /** full-text results kept per tenant (default 512) */
  maxSearches?: number;
  /** per-token matches kept, all tenants together, counted in matches (default 200,000; token-lists.ts) */
  maxTokenHits?: number;
  /**
   * how long a full-text result may be reused (default: until the tenant's next write). For a store
   * that cannot see other processes' writes (PostgreSQL replicas not hearing notifications): their
   * writes show after this. A function is asked at every lookup (the answer may change).
   */
  searchTtlMs?: number | (() => number);
  /** the clock of searchTtlMs (default Date.now) */
  now?: () => number;
}

interface TenantCache {
  /** changes on every invalidation; values are never reused (one counter for the whole cache) */
  generation: number;
  memories: Map<string, Memory>;
  searches: Map<string, { hits: ScoredId[]; at: number }>;
  /** per-token matches under a store-chosen key (level and token), least recently used first */
  tokens: Map<string, TokenList>;
  tokenHits: number;
  /** how many times each token key was asked for since the tenant's last write */
  asked: Map<string, number>;
}

/** token keys remembered as asked for, per tenant, before the record starts again */
const MAX_ASKED = 20_000;

export class ReadCache {
  private tenants = new Map<string, TenantCache>();
  private memoryCount = 0;
  private generations = 0;
  private readonly maxMemories: number;
  private readonly maxSearches: number;
  private readonly maxTokenHits: number;
  /** matches held in every tenant's token lists */
  private tokenHitCount = 0;
  private readonly searchTtlMs: () => number;
  private readonly now: () => number;

  constructor(options: ReadCacheOptions = {}) {
    this.maxMemories = options.maxMemories ?? 50_000;
    this.maxSearches = options.maxSearches ?? 512;
    this.maxTokenHits = options.maxTokenHits ?? 200_000;
    const ttl = options.searchTtlMs ?? Infinity;
    this.searchTtlMs = typeof ttl === 'number' ? () => ttl : ttl;
    this.now = options.now ?? Date.now;
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
   * The matches of each token key, in the order asked: the cached ones, and those `load` chose to
   * load (in one call; it is told how many times each missing key was asked for before since the
   * tenant's last write); undefined for the rest. Kept until the tenant's next write, the least recently used
   * dropped past maxTokenHits (all tenants together).
   */
  async tokenLists(
    tenant: string,
    keys: readonly string[],
    load: (missing: { key: string; asked: number }[]) => Promise<Map<string, TokenList>>,
  ): Promise<(TokenList | undefined)[]> {
    const cache = this.tenant(tenant);
    const generation = cache.generation;
    const missing = keys
      .filter((key) => !cache.tokens.has(key))
      .map((key) => ({ key, asked: cache.asked.get(key) ?? 0 }));
    if (cache.asked.size > MAX_ASKED) cache.asked.clear();
    for (const { key, asked } of missing) cache.asked.set(key, asked + 1);
    const loaded = missing.length > 0 ? await load(missing) : new Map<string, TokenList>();
    const current = this.tenants.get(tenant) === cache && cache.generation === generation;
    return keys.map((key) => {
      const fresh = loaded.get(key);
      if (fresh) {
        if (current) this.rememberTokens(cache, key, fresh);
        return fresh;
      }
      const known = cache.tokens.get(key);
      // most recently used last
      if (known && cache.tokens.delete(key)) cache.tokens.set(key, known);
      return known;
    });
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
    const cache = this.tenants.get(tenant);
    if (!cache) return;
    cache.generation = ++this.generations;
    if (cache.memories.delete(id)) this.memoryCount -= 1;
    cache.searches = new Map();
    cache.tokens = new Map();
    cache.asked = new Map();
    this.tokenHitCount -= cache.tokenHits;
    cache.tokenHits = 0;
  }

  /** forgets everything (a rolled-back transaction, another process wrote the pool) */
  clear(): void {
    for (const cache of this.tenants.values()) cache.generation = ++this.generations;
    this.tenants = new Map();
    this.memoryCount = 0;
    this.tokenHitCount = 0;
  }

  private tenant(tenant: string): TenantCache {
    let cache = this.tenants.get(tenant);
    if (!cache) {
      cache = {
        generation: ++this.generations,
        memories: new Map(),
        searches: new Map(),
        tokens: new Map(),
        tokenHits: 0,
        asked: new Map(),
      };
      this.tenants.set(tenant, cache);
    }
    return cache;
  }

  private rememberTokens(cache: TenantCache, key: string, list: TokenList): void {
    const change = list.seqs.length - (cache.tokens.get(key)?.seqs.length ?? 0);
    cache.tokenHits += change;
    this.tokenHitCount += change;
    cache.tokens.delete(key);
    cache.tokens.set(key, list);
    // past the bound: this tenant's least recently used lists go first (never the one just added), then other tenants'
    while (this.tokenHitCount > this.maxTokenHits) {
      const victim =
        cache.tokens.size > 1 ? cache : [...this.tenants.values()].find((c) => c !== cache && c.tokens.size > 0);
      if (!victim) break;
      const oldest = victim.tokens.keys().next().value as string;
      const hits = victim.tokens.get(oldest)?.seqs.length ?? 0;
      victim.tokens.delete(oldest);
      victim.tokenHits -= hits;
      this.tokenHitCount -= hits;
    }
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
