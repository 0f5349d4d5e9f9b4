/**
 * A pure in-memory retriever over a list of memories: BM25 in JS for lexical search and cosine
 * for vectors, with the same interface as the store's two search methods. The Action's
 * pool-file mode ranks with the same recall code as the App, without SQLite.
 */
import { cosine, terms } from './text.js';
import type { Memory, MemoryLevel, MemoryStatus } from './types.js';

/** Same shape as the Store port's ScoredId: higher is better. */
export interface ScoredId {
  id: string;
  score: number;
}

/** Same shape as the Store port's SearchOptions. */
export interface SearchOptions {
  level?: MemoryLevel[];
  status?: MemoryStatus[];
  limit: number;
}

/** What recall needs to find and load candidates: a Store, or a MemoryIndex. */
export interface Retriever {
  searchLexical(tenant: string, query: string, options: SearchOptions): Promise<ScoredId[]>;
  searchVector(tenant: string, vector: Float32Array, model: string, options: SearchOptions): Promise<ScoredId[]>;
  getMemories(tenant: string, ids: string[]): Promise<Memory[]>;
}

export interface IndexedVector {
  id: string;
  vector: Float32Array;
  model: string;
}

/** The text of a memory that lexical search sees (the same fields the stores index). */
export function searchableText(memory: Pick<Memory, 'title' | 'description' | 'content' | 'tags'>): string {
  return [memory.title, memory.description, memory.content, memory.tags.join(' ')].join('\n');
}

interface Doc {
  memory: Memory;
  tf: Map<string, number>;
  length: number;
}

interface TenantIndex {
  docs: Map<string, Doc>;
  /** term → documents containing it */
  postings: Map<string, Doc[]>;
  totalLength: number;
  vectors: Map<string, IndexedVector>;
}

const K1 = 1.2;
const B = 0.75;

export class MemoryIndex implements Retriever {
  private readonly tenants = new Map<string, TenantIndex>();

  constructor(memories: readonly Memory[], vectors: readonly IndexedVector[] = []) {
    for (const memory of memories) {
      const index = this.tenantIndex(memory.tenant);
      const tf = new Map<string, number>();
      const words = terms(searchableText(memory));
      for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
      const doc: Doc = { memory, tf, length: words.length };
      index.docs.set(memory.id, doc);
      index.totalLength += words.length;
      for (const term of tf.keys()) {
        const list = index.postings.get(term);
        if (list) list.push(doc);
        else index.postings.set(term, [doc]);
      }
    }
    // a vector belongs to the memory of that id (ids are unique within a pool)
    for (const v of vectors) {
      for (const index of this.tenants.values()) if (index.docs.has(v.id)) index.vectors.set(v.id, v);
    }
  }

  get size(): number {
    let n = 0;
    for (const index of this.tenants.values()) n += index.docs.size;
    return n;
  }

  private tenantIndex(tenant: string): TenantIndex {
    let index = this.tenants.get(tenant);
    if (!index) {
      index = { docs: new Map(), postings: new Map(), totalLength: 0, vectors: new Map() };
      this.tenants.set(tenant, index);
    }
    return index;
  }

  /**
   * BM25 (k1 1.2, b 0.75) with OR semantics over the query's terms, like FTS5's bm25. Statistics
   * are over the tenant's memories; level and status filter the results.
   */
  async searchLexical(tenant: string, query: string, options: SearchOptions): Promise<ScoredId[]> {
    const index = this.tenants.get(tenant);
    const queryTerms = [...new Set(terms(query))];
    if (!index || queryTerms.length === 0 || options.limit <= 0) return [];
    const n = index.docs.size;
    const avg = index.totalLength / n || 1;
    const scores = new Map<Doc, number>();
    for (const term of queryTerms) {
      const docs = index.postings.get(term);
      if (!docs) continue;
      const idf = Math.log(1 + (n - docs.length + 0.5) / (docs.length + 0.5));
      for (const d of docs) {
        if (!accepts(d.memory, options)) continue;
        const f = d.tf.get(term) ?? 0;
        const part = idf * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.length) / avg)));
        scores.set(d, (scores.get(d) ?? 0) + part);
      }
    }
    const hits: ScoredId[] = [];
    for (const [d, score] of scores) if (score > 0) hits.push({ id: d.memory.id, score });
    return top(hits, options.limit);
  }

  async searchVector(tenant: string, vector: Float32Array, model: string, options: SearchOptions): Promise<ScoredId[]> {
    const index = this.tenants.get(tenant);
    if (!index || options.limit <= 0) return [];
    const hits: ScoredId[] = [];
    for (const v of index.vectors.values()) {
      const doc = index.docs.get(v.id);
      if (doc && v.model === model && accepts(doc.memory, options))
        hits.push({ id: v.id, score: cosine(vector, v.vector) });
    }
    return top(hits, options.limit);
  }

  async getMemories(tenant: string, ids: string[]): Promise<Memory[]> {
    const index = this.tenants.get(tenant);
    if (!index) return [];
    return ids.map((id) => index.docs.get(id)?.memory).filter((m): m is Memory => m !== undefined);
  }
}

function accepts(memory: Memory, options: SearchOptions): boolean {
  return (
    (options.level === undefined || options.level.includes(memory.level)) &&
    (options.status === undefined || options.status.includes(memory.status))
  );
}

function top(hits: ScoredId[], limit: number): ScoredId[] {
  return hits.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id)).slice(0, limit);
}
