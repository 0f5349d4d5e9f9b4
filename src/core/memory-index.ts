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
  /** level and status: what the search filters look at */
  filterKey: string;
}

interface Posting {
  /** positions of the documents containing the term, in the tenant's list */
  docs: number[];
  /** the term's frequency in each of them */
  tfs: number[];
}

interface TenantIndex {
  docs: Map<string, number>;
  list: Doc[];
  lengths: number[];
  /** K1 · (1 − B + B · length / average length), per document */
  norms: Float64Array;
  postings: Map<string, Posting>;
  vectors: Map<string, IndexedVector>;
}

const K1 = 1.2;
const B = 0.75;
/** Terms this common add almost nothing to any score; skipping them keeps big pools fast. */
const MIN_IDF = 0.01;

export class MemoryIndex implements Retriever {
  private readonly tenants = new Map<string, TenantIndex>();

  constructor(memories: readonly Memory[], vectors: readonly IndexedVector[] = []) {
    for (const memory of memories) {
      const index = this.tenantIndex(memory.tenant);
      const tf = new Map<string, number>();
      const words = terms(searchableText(memory));
      for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
      const n = index.list.length;
      index.docs.set(memory.id, n);
      index.list.push({ memory, filterKey: `${memory.level}|${memory.status}` });
      index.lengths.push(words.length);
      for (const [term, f] of tf) {
        const posting = index.postings.get(term);
        if (posting) {
          posting.docs.push(n);
          posting.tfs.push(f);
        } else index.postings.set(term, { docs: [n], tfs: [f] });
      }
    }
    for (const index of this.tenants.values()) {
      const avg = index.lengths.reduce((a, b) => a + b, 0) / index.lengths.length || 1;
      index.norms = Float64Array.from(index.lengths, (length) => K1 * (1 - B + (B * length) / avg));
    }
    // a vector belongs to the memory of that id (ids are unique within a pool)
    for (const v of vectors) {
      for (const index of this.tenants.values()) if (index.docs.has(v.id)) index.vectors.set(v.id, v);
    }
  }

  get size(): number {
    let n = 0;
    for (const index of this.tenants.values()) n += index.list.length;
    return n;
  }

  private tenantIndex(tenant: string): TenantIndex {
    let index = this.tenants.get(tenant);
    if (!index) {
      index = {
        docs: new Map(),
        list: [],
        lengths: [],
        norms: new Float64Array(0),
        postings: new Map(),
        vectors: new Map(),
      };
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
    const n = index.list.length;
    const scores = new Float64Array(n);
    const seen = new Uint8Array(n);
    const touched: number[] = [];
    for (const term of queryTerms) {
      const posting = index.postings.get(term);
      if (!posting) continue;
      const idf = Math.log(1 + (n - posting.docs.length + 0.5) / (posting.docs.length + 0.5));
      if (idf < MIN_IDF) continue; // in (nearly) every memory: cannot change the order
      const { docs, tfs } = posting;
      for (let i = 0; i < docs.length; i += 1) {
        const d = docs[i] as number;
        const f = tfs[i] as number;
        if (seen[d] === 0) {
          seen[d] = 1;
          touched.push(d);
        }
        scores[d] = (scores[d] as number) + (idf * (f * (K1 + 1))) / (f + (index.norms[d] as number));
      }
    }
    const allowed = filterOf(options);
    const hits: ScoredId[] = [];
    for (const d of touched) {
      const doc = index.list[d] as Doc;
      if (allowed(doc)) hits.push({ id: doc.memory.id, score: scores[d] as number });
    }
    return top(hits, options.limit);
  }

  async searchVector(tenant: string, vector: Float32Array, model: string, options: SearchOptions): Promise<ScoredId[]> {
    const index = this.tenants.get(tenant);
    if (!index || options.limit <= 0) return [];
    const allowed = filterOf(options);
    const hits: ScoredId[] = [];
    for (const v of index.vectors.values()) {
      const at = index.docs.get(v.id);
      const doc = at === undefined ? undefined : index.list[at];
      if (doc && v.model === model && allowed(doc)) hits.push({ id: v.id, score: cosine(vector, v.vector) });
    }
    return top(hits, options.limit);
  }

  async getMemories(tenant: string, ids: string[]): Promise<Memory[]> {
    const index = this.tenants.get(tenant);
    if (!index) return [];
    return ids
      .map((id) => {
        const at = index.docs.get(id);
        return at === undefined ? undefined : index.list[at]?.memory;
      })
      .filter((m): m is Memory => m !== undefined);
  }
}

/** The level and status filter of a search, memoized per level|status pair. */
function filterOf(options: SearchOptions): (doc: Doc) => boolean {
  const memo = new Map<string, boolean>();
  return (doc) => {
    let ok = memo.get(doc.filterKey);
    if (ok === undefined) {
      ok =
        (options.level === undefined || options.level.includes(doc.memory.level)) &&
        (options.status === undefined || options.status.includes(doc.memory.status));
      memo.set(doc.filterKey, ok);
    }
    return ok;
  };
}

function top(hits: ScoredId[], limit: number): ScoredId[] {
  return hits.sort((a, b) => b.score - a.score || byId(a.id, b.id)).slice(0, limit);
}

/** Plain code-unit order: stable across locales, and fast. */
function byId(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
