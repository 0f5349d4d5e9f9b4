/**
 * The one lexical ranking, whichever store: each store fetches its full-text candidates with its
 * own engine (FTS5, a tsvector index), wider than it answers, and this formula orders them, so the
 * same pool gives the same order in SQLite and in PostgreSQL.
 *
 * BM25 (k1 1.2, b 0.75) over the terms `terms` makes (the tokenizer of recall's coverage and of the
 * in-memory index), with the statistics of the candidates that hold a query term: a term's document
 * frequency is the number of them holding it (every memory holding a searched term is a candidate
 * while the fetch is not cut), the document count and average length are theirs. An engine's own
 * stemming or stop words decide only which memories are fetched, never their order; a candidate
 * holding no query term is dropped.
 */
import { terms } from '../text.js';
import type { Memory } from '../types.js';

const K1 = 1.2;
const B = 0.75;

/** How many candidates a store fetches for a search of `limit`: the formula orders them, the best `limit` are kept. */
export function candidateFetch(limit: number): number {
  return limit * 2;
}

/** A memory's term counts and length in terms. */
interface TermProfile {
  counts: Map<string, number>;
  length: number;
}

/** per memory object: a store's cached objects are tokenized once (their text never changes in place) */
const profiles = new WeakMap<object, TermProfile>();

/** how much one occurrence of a term counts in each field (FTS5's bm25 weights as the stores had them) */
const FIELD_WEIGHTS = { title: 4, description: 2, content: 1, tags: 2 } as const;

function profileOf(memory: Pick<Memory, 'title' | 'description' | 'content' | 'tags'>): TermProfile {
  let profile = profiles.get(memory);
  if (!profile) {
    const counts = new Map<string, number>();
    let length = 0;
    const fields = { ...memory, tags: memory.tags.join(' ') };
    for (const field of ['title', 'description', 'content', 'tags'] as const) {
      const words = terms(fields[field]);
      const weight = FIELD_WEIGHTS[field];
      for (const word of words) counts.set(word, (counts.get(word) ?? 0) + weight);
      length += words.length;
    }
    profile = { counts, length };
    profiles.set(memory, profile);
  }
  return profile;
}

export interface LexicalHit {
  id: string;
  /** BM25: higher is better, always > 0 */
  score: number;
}

/**
 * The candidates that hold any term of the query, best first by BM25 over the candidates'
 * statistics, ties by id (never by an engine's order); at most `limit`.
 */
export function rankLexically(
  query: string,
  candidates: readonly Pick<Memory, 'id' | 'title' | 'description' | 'content' | 'tags'>[],
  limit: number,
): LexicalHit[] {
  const queryTerms = [...new Set(terms(query))];
  if (queryTerms.length === 0 || candidates.length === 0 || limit <= 0) return [];
  // the statistics are those of the candidates holding a query term: what an engine fetched for a
  // reading of its own (another stemming) changes nothing
  const matching: (typeof candidates)[number][] = [];
  const docs: TermProfile[] = [];
  for (const candidate of candidates) {
    const profile = profileOf(candidate);
    if (!queryTerms.some((term) => profile.counts.has(term))) continue;
    matching.push(candidate);
    docs.push(profile);
  }
  let total = 0;
  for (const doc of docs) total += doc.length;
  const averageLength = total / docs.length || 1;
  const n = docs.length;
  const scores = new Float64Array(n);
  for (const term of queryTerms) {
    let df = 0;
    for (const doc of docs) if (doc.counts.has(term)) df += 1;
    if (df === 0) continue;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    docs.forEach((doc, i) => {
      const tf = doc.counts.get(term);
      if (tf === undefined) return;
      const norm = K1 * (1 - B + (B * doc.length) / averageLength);
      scores[i] = (scores[i] as number) + (idf * tf * (K1 + 1)) / (tf + norm);
    });
  }
  const order = docs.map((_, i) => i);
  const idOf = (i: number) => (matching[i] as Memory).id;
  order.sort((a, b) => (scores[b] as number) - (scores[a] as number) || (idOf(a) < idOf(b) ? -1 : 1));
  return order.slice(0, limit).map((i) => ({ id: idOf(i), score: scores[i] as number }));
}
