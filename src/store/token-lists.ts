/**
 * Full-text search from per-token result lists (SQLite's recall hot path).
 *
 * FTS5's bm25() of an OR query is a sum over its tokens: for each token, idf × the token's
 * (column-weighted) term-frequency part, added in the query's token order and negated. So the
 * rank of a document under "a OR b OR c" equals the sum of its ranks under "a", "b" and "c" alone,
 * added in that order, to the last bit. A store can therefore keep each token's matches (with
 * their single-token rank) and answer any query made of known tokens by adding lists in memory:
 * distinct tasks share most of their words, so most searches never reach the full-text engine.
 */

import { TopK } from '../core/top-k.js';

/** One document matching one token: its single-token bm25 rank (negative; lower is better). */
export interface TokenHit {
  seq: number;
  id: string;
  status: string;
  rank: number;
}

/**
 * A token's matches, column by column (position i of each column is one memory), or
 * `complete: false` (and no matches) when it matches more than a list may hold.
 */
export interface TokenList {
  complete: boolean;
  seqs: Int32Array;
  ids: string[];
  statuses: string[];
  ranks: Float64Array;
}

/**
 * A token matching more of a tenant's memories than this is not listed: a search with it goes to
 * the engine. Listing costs about 3 µs a match at 10k memories and 8 µs at 100k (a bigger file),
 * so a longer list costs more than the OR queries it saves before the next write drops it.
 */
export const TOKEN_LIST_MAX = 1_000;

/**
 * Listing a token's matches costs one to three times what one OR query spends on them. So, as in
 * renting before buying, a token matching more than LIST_AT_FIRST_SIGHT memories is listed only
 * from its third search on since the tenant's last write (LIST_FROM_SEARCH), and a search lists
 * its missing tokens only when it can list them all; otherwise it asks FTS5 the OR query, as
 * without lists. A word seen once or twice never costs more than before; a word the pool's tasks
 * share is listed, and costs nothing from then on.
 */
export const LIST_AT_FIRST_SIGHT = 200;
export const LIST_FROM_SEARCH = 3;

/** A token's list from its matches; incomplete (and empty) past TOKEN_LIST_MAX. */
export function tokenList(hits: readonly TokenHit[]): TokenList {
  const complete = hits.length <= TOKEN_LIST_MAX;
  if (!complete) hits = [];
  return {
    complete,
    seqs: Int32Array.from(hits, (h) => h.seq),
    ids: hits.map((h) => h.id),
    statuses: hits.map((h) => h.status),
    ranks: Float64Array.from(hits, (h) => h.rank),
  };
}

/** Scratch space by row number, reused by every sum (a sum runs to completion without yielding). */
let ranks = new Float64Array(1024);
/** 0: not seen in this sum, 1: seen and kept, 2: seen and filtered out by status */
let states = new Uint8Array(1024);
const ids: (string | undefined)[] = [];

function makeRoom(seq: number): void {
  if (seq < states.length) return;
  let size = states.length;
  while (size <= seq) size *= 2;
  const grownRanks = new Float64Array(size);
  grownRanks.set(ranks);
  const grownStates = new Uint8Array(size);
  grownStates.set(states);
  ranks = grownRanks;
  states = grownStates;
}

/**
 * The best `limit` documents of the OR query made of these tokens' lists (in the query's token
 * order), keeping only the given statuses: ranks summed as FTS5 sums them, best first, ties by
 * row order.
 */
export function sumTokenLists(
  lists: readonly TokenList[],
  statuses: readonly string[] | undefined,
  limit: number,
): { id: string; rank: number }[] {
  const touched: number[] = [];
  for (const list of lists) {
    const { seqs } = list;
    for (let i = 0; i < seqs.length; i += 1) {
      const seq = seqs[i] as number;
      makeRoom(seq);
      const state = states[seq];
      if (state === 1) ranks[seq] = (ranks[seq] as number) + (list.ranks[i] as number);
      else if (state === 0) {
        touched.push(seq);
        const kept = statuses === undefined || statuses.includes(list.statuses[i] as string);
        states[seq] = kept ? 1 : 2;
        ranks[seq] = list.ranks[i] as number;
        ids[seq] = list.ids[i];
      }
    }
  }
  const best = new TopK(limit, (a, b) => {
    const ra = ranks[a] as number;
    const rb = ranks[b] as number;
    return ra !== rb ? ra < rb : a < b;
  });
  for (const seq of touched) if (states[seq] === 1) best.offer(seq);
  const result = best.sorted().map((seq) => ({ id: ids[seq] as string, rank: ranks[seq] as number }));
  for (const seq of touched) {
    states[seq] = 0;
    ids[seq] = undefined;
  }
  return result;
}
