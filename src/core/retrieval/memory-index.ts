/**
 * A pure in-memory retriever over a list of memories: BM25 in JS over an inverted index (typed
 * posting arrays, reused scratch space, top-k selection) for lexical search, and exact cosine
 * over the vectors of the query's model, with the same interface as the store's two search
 * methods. The Action's pool-file mode ranks with the same recall code as the App, without SQLite.
 */
import { cosine, terms } from '../text.js';
import { TopK } from './top-k.js';
import type { Memory, MemoryLevel, MemoryStatus } from '../types.js';

/** A search hit. */
export interface ScoredId {
  id: string;
  /** higher is better; lexical: the BM25 of core/retrieval/lexical-rank.ts (positive), vector: cosine similarity */
  score: number;
}

/** What a search asks for: the levels and statuses it may return, and how many. */
export interface SearchOptions {
  level?: MemoryLevel[];
  status?: MemoryStatus[];
  limit: number;
}

/** How much provenance a read brings (stores keep it in its own table; docs/storage.md). */
export interface ReadOptions {
  /**
   * 'full' (default): every provenance entry. 'sample': the memory row's bounded sample and
   * `provenanceCount` (what recall and learning need; reading it costs the same at any pool size).
   */
  provenance?: 'full' | 'sample';
}

/** What recall needs to find and load candidates: a Store, or a MemoryIndex. */
export interface Retriever {
  searchLexical(tenant: string, query: string, options: SearchOptions): Promise<ScoredId[]>;
  searchVector(tenant: string, vector: Float32Array, model: string, options: SearchOptions): Promise<ScoredId[]>;
  getMemories(tenant: string, ids: string[], options?: ReadOptions): Promise<Memory[]>;
  /**
   * Optional: like getMemories with `provenance: 'sample'` (a store may return complete
   * provenance), but the objects may be shared with other callers (a cache) and
   * are frozen: read them, copy before changing or handing them out.
   */
  readMemories?(tenant: string, ids: string[]): Promise<readonly Memory[]>;
  /**
   * Optional: whether the searchable text of the memory of this id holds the term (a term as
   * `terms` makes them), read from the index instead of tokenizing the text again; undefined
   * when the retriever does not know the memory.
   */
  hasTerm?(tenant: string, id: string, term: string): boolean | undefined;
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

/**
 * A memory as the index needs it to find it: what search filters on, and the memory itself,
 * which may be read only when it is asked for (a pool file's line is parsed again on first use).
 */
export interface IndexEntry {
  id: string;
  tenant: string;
  level: MemoryLevel;
  status: MemoryStatus;
  memory(): Memory;
}

interface Doc {
  entry: IndexEntry;
  /** level and status: what the search filters look at */
  filterKey: string;
}

interface Posting {
  /** positions of the documents containing the term, in the tenant's list */
  docs: Int32Array;
  /** BM25's term-frequency part in each of them: tf · (K1 + 1) / (tf + the document's norm) */
  weights: Float64Array;
}

/** A term's documents (positions, ascending) and how often it occurs in each, before BM25 weighting. */
export interface TermCounts {
  docs: ArrayLike<number>;
  tfs: ArrayLike<number>;
}

/**
 * The lexical statistics of a list of memories, computed once (by `export --for-action`, written
 * into the pool file) instead of tokenizing every text at each start: each memory's number of
 * terms, in list order, and the counts of a term, looked up by the term (decoded on first use).
 * They must be those `lexicalCounts` computes for the very same list: the caller checks that
 * (the pool file's digest of its memory lines, src/core/retrieval/pool-file.ts).
 */
export interface LexicalStats {
  lengths: ArrayLike<number>;
  /** the term's counts, or undefined when no memory contains it */
  counts(term: string): TermCounts | undefined;
}

interface TenantIndex {
  docs: Map<string, number>;
  list: Doc[];
  /** term → its weighted posting (null: in no memory), filled on first use */
  postings: Map<string, Posting | null>;
  stats?: LexicalStats;
  /** K1 · (1 − B + B · length / average length), per document */
  norms: Float64Array;
  /** the vectors of each embedding model, with the position of their memory */
  vectors: Map<string, { doc: number; vector: Float32Array }[]>;
  /** per-query scratch space (a search runs to completion without yielding, so one suffices) */
  scores: Float64Array;
  seen: Uint8Array;
}

const K1 = 1.2;
const B = 0.75;
/** Terms this common add almost nothing to any score; skipping them keeps big pools fast. */
const MIN_IDF = 0.01;

/**
 * The lexical statistics of memories (all of one tenant, in this order): what a MemoryIndex
 * computes when it is given none, and what `export --for-action` writes (encoded) into the file.
 */
export function lexicalCounts(memories: readonly Memory[]): {
  lengths: number[];
  terms: Map<string, { docs: number[]; tfs: number[] }>;
} {
  const lengths: number[] = [];
  const lists = new Map<string, { docs: number[]; tfs: number[] }>();
  const tf = new Map<string, number>();
  for (let n = 0; n < memories.length; n += 1) {
    const words = terms(searchableText(memories[n] as Memory));
    tf.clear();
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    lengths.push(words.length);
    for (const [term, f] of tf) {
      const list = lists.get(term);
      if (list) {
        list.docs.push(n);
        list.tfs.push(f);
      } else lists.set(term, { docs: [n], tfs: [f] });
    }
  }
  return { lengths, terms: lists };
}

export class MemoryIndex implements Retriever {
  private readonly tenants = new Map<string, TenantIndex>();

  /**
   * @param stats the lexical statistics of `memories` computed ahead (one tenant only); without
   *   them every text is tokenized here
   */
  constructor(memories: readonly Memory[], vectors: readonly IndexedVector[] = [], stats?: LexicalStats) {
    this.add(
      memories.map((memory) => ({
        id: memory.id,
        tenant: memory.tenant,
        level: memory.level,
        status: memory.status,
        memory: () => memory,
      })),
      vectors,
      stats,
    );
  }

  /**
   * An index over entries whose memories are read when first asked for: with `stats`, building
   * it reads none of them (recall then reads its few dozen candidates); without, all are read
   * and tokenized.
   */
  static ofEntries(entries: readonly IndexEntry[], stats?: LexicalStats): MemoryIndex {
    const index = new MemoryIndex([]);
    index.add(entries, [], stats);
    return index;
  }

  private add(entries: readonly IndexEntry[], vectors: readonly IndexedVector[], stats?: LexicalStats): void {
    const byTenant = new Map<string, IndexEntry[]>();
    for (const entry of entries) {
      const index = this.tenantIndex(entry.tenant);
      index.docs.set(entry.id, index.list.length);
      index.list.push({ entry, filterKey: `${entry.level}|${entry.status}` });
      let list = byTenant.get(entry.tenant);
      if (!list) byTenant.set(entry.tenant, (list = []));
      list.push(entry);
    }
    if (stats && byTenant.size > 1) throw new Error('MemoryIndex: precomputed statistics cover one tenant only');
    for (const [tenant, list] of byTenant) {
      const index = this.tenants.get(tenant) as TenantIndex;
      let lengths: ArrayLike<number>;
      if (stats) {
        if (stats.lengths.length !== list.length)
          throw new Error('MemoryIndex: precomputed statistics of another list of memories');
        index.stats = stats;
        lengths = stats.lengths;
      } else {
        const counted = lexicalCounts(list.map((entry) => entry.memory()));
        lengths = counted.lengths;
        index.stats = { lengths, counts: (term) => counted.terms.get(term) };
      }
      let total = 0;
      for (let i = 0; i < lengths.length; i += 1) total += lengths[i] as number;
      const avg = total / lengths.length || 1;
      index.norms = Float64Array.from(lengths, (length) => K1 * (1 - B + (B * length) / avg));
      index.scores = new Float64Array(index.list.length);
      index.seen = new Uint8Array(index.list.length);
    }
    // a vector belongs to the memory of that id (ids are unique within a pool; the last one counts)
    const latest = new Map(vectors.map((v) => [v.id, v]));
    for (const v of latest.values()) {
      for (const index of this.tenants.values()) {
        const doc = index.docs.get(v.id);
        if (doc === undefined) continue;
        let list = index.vectors.get(v.model);
        if (!list) index.vectors.set(v.model, (list = []));
        list.push({ doc, vector: v.vector });
      }
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
        postings: new Map(),
        norms: new Float64Array(0),
        vectors: new Map(),
        scores: new Float64Array(0),
        seen: new Uint8Array(0),
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
    const { scores, seen } = index;
    const touched: number[] = [];
    for (const term of queryTerms) {
      const posting = postingOf(index, term);
      if (!posting) continue;
      const idf = Math.log(1 + (n - posting.docs.length + 0.5) / (posting.docs.length + 0.5));
      if (idf < MIN_IDF) continue; // in (nearly) every memory: cannot change the order
      const { docs, weights } = posting;
      for (let i = 0; i < docs.length; i += 1) {
        const d = docs[i] as number;
        if (seen[d] === 0) {
          seen[d] = 1;
          touched.push(d);
        }
        scores[d] = (scores[d] as number) + idf * (weights[i] as number);
      }
    }
    const allowed = filterOf(options);
    const idOf = (d: number) => (index.list[d] as Doc).entry.id;
    // best score first, ties by id (the order of `top`)
    const best = new TopK(options.limit, (a, b) => {
      const sa = scores[a] as number;
      const sb = scores[b] as number;
      return sa !== sb ? sa > sb : byId(idOf(a), idOf(b)) < 0;
    });
    for (const d of touched) {
      seen[d] = 0; // the scratch space is clean again for the next search
      if (best.wouldKeep(d) && allowed(index.list[d] as Doc)) best.offer(d);
    }
    const hits = best.sorted().map((d) => ({ id: idOf(d), score: scores[d] as number }));
    for (const d of touched) scores[d] = 0;
    return hits;
  }

  hasTerm(tenant: string, id: string, term: string): boolean | undefined {
    const index = this.tenants.get(tenant);
    const doc = index?.docs.get(id);
    if (!index || doc === undefined) return undefined;
    const docs = postingOf(index, term)?.docs;
    if (!docs) return false;
    // the positions are ascending: binary search
    let low = 0;
    let high = docs.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const at = docs[middle] as number;
      if (at === doc) return true;
      if (at < doc) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }

  async searchVector(tenant: string, vector: Float32Array, model: string, options: SearchOptions): Promise<ScoredId[]> {
    const index = this.tenants.get(tenant);
    const vectors = index?.vectors.get(model);
    if (!index || !vectors || options.limit <= 0) return [];
    const allowed = filterOf(options);
    const hits: ScoredId[] = [];
    for (const v of vectors) {
      const doc = index.list[v.doc] as Doc;
      if (allowed(doc)) hits.push({ id: doc.entry.id, score: cosine(vector, v.vector) });
    }
    return top(hits, options.limit);
  }

  async getMemories(tenant: string, ids: string[]): Promise<Memory[]> {
    const index = this.tenants.get(tenant);
    if (!index) return [];
    return ids
      .map((id) => {
        const at = index.docs.get(id);
        return at === undefined ? undefined : index.list[at]?.entry.memory();
      })
      .filter((m): m is Memory => m !== undefined);
  }
}

/** A term's weighted posting, computed from its counts on first use. */
function postingOf(index: TenantIndex, term: string): Posting | null {
  let posting = index.postings.get(term);
  if (posting === undefined) {
    const counts = index.stats?.counts(term);
    if (counts) {
      const { norms } = index;
      const { docs, tfs } = counts;
      const weights = new Float64Array(docs.length);
      for (let i = 0; i < docs.length; i += 1) {
        const f = tfs[i] as number;
        weights[i] = (f * (K1 + 1)) / (f + (norms[docs[i] as number] as number));
      }
      posting = { docs: Int32Array.from(docs), weights };
    } else posting = null;
    index.postings.set(term, posting);
  }
  return posting;
}

/** The level and status filter of a search, memoized per level|status pair. */
function filterOf(options: SearchOptions): (doc: Doc) => boolean {
  const memo = new Map<string, boolean>();
  return (doc) => {
    let ok = memo.get(doc.filterKey);
    if (ok === undefined) {
      ok =
        (options.level === undefined || options.level.includes(doc.entry.level)) &&
        (options.status === undefined || options.status.includes(doc.entry.status));
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
