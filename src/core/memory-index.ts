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

const K1 = 1.2;
const B = 0.75;

export class MemoryIndex implements Retriever {
  private readonly docs = new Map<string, Doc>();
  private readonly vectors = new Map<string, IndexedVector>();

  constructor(memories: readonly Memory[], vectors: readonly IndexedVector[] = []) {
    for (const memory of memories) {
      const tf = new Map<string, number>();
      const words = terms(searchableText(memory));
      for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
      this.docs.set(key(memory.tenant, memory.id), { memory, tf, length: words.length });
    }
    for (const v of vectors) {
      const doc = [...this.docs.values()].find((d) => d.memory.id === v.id);
      if (doc) this.vectors.set(key(doc.memory.tenant, v.id), v);
    }
  }

  get size(): number {
    return this.docs.size;
  }

  private candidates(tenant: string, options: SearchOptions): Doc[] {
    return [...this.docs.values()].filter(
      (d) =>
        d.memory.tenant === tenant &&
        (options.level === undefined || options.level.includes(d.memory.level)) &&
        (options.status === undefined || options.status.includes(d.memory.status)),
    );
  }

  /** BM25 (k1 1.2, b 0.75) with OR semantics over the query's terms, like FTS5's bm25. */
  async searchLexical(tenant: string, query: string, options: SearchOptions): Promise<ScoredId[]> {
    const queryTerms = [...new Set(terms(query))];
    const docs = this.candidates(tenant, options);
    if (queryTerms.length === 0 || docs.length === 0) return [];
    const avg = docs.reduce((sum, d) => sum + d.length, 0) / docs.length || 1;
    const idf = new Map<string, number>();
    for (const t of queryTerms) {
      const n = docs.filter((d) => d.tf.has(t)).length;
      idf.set(t, Math.log(1 + (docs.length - n + 0.5) / (n + 0.5)));
    }
    const hits: ScoredId[] = [];
    for (const d of docs) {
      let score = 0;
      for (const t of queryTerms) {
        const f = d.tf.get(t);
        if (!f) continue;
        score += (idf.get(t) ?? 0) * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.length) / avg)));
      }
      if (score > 0) hits.push({ id: d.memory.id, score });
    }
    return top(hits, options.limit);
  }

  async searchVector(tenant: string, vector: Float32Array, model: string, options: SearchOptions): Promise<ScoredId[]> {
    const hits: ScoredId[] = [];
    for (const d of this.candidates(tenant, options)) {
      const v = this.vectors.get(key(tenant, d.memory.id));
      if (v && v.model === model) hits.push({ id: d.memory.id, score: cosine(vector, v.vector) });
    }
    return top(hits, options.limit);
  }

  async getMemories(tenant: string, ids: string[]): Promise<Memory[]> {
    return ids.map((id) => this.docs.get(key(tenant, id))?.memory).filter((m): m is Memory => m !== undefined);
  }
}

function key(tenant: string, id: string): string {
  return `${tenant}\n${id}`;
}

function top(hits: ScoredId[], limit: number): ScoredId[] {
  return hits.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id)).slice(0, limit);
}
