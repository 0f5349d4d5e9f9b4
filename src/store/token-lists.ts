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

/** One document matching one token: its single-token bm25 rank (negative; lower is better). */
export interface TokenHit {
  seq: number;
  id: string;
  status: string;
  rank: number;
}

/** A token's matches, or `complete: false` when it matches more than a list may hold. */
export interface TokenList {
  hits: readonly TokenHit[];
  complete: boolean;
}

/** A token matching more documents than this is not listed: such a query goes to the engine. */
export const TOKEN_LIST_MAX = 2_000;

/**
 * The best `limit` documents of the OR query made of these tokens' lists (in the query's token
 * order), keeping only the given statuses: ranks summed as FTS5 sums them, best first, ties by
 * row order.
 */
export function sumTokenLists(
  lists: readonly (readonly TokenHit[])[],
  statuses: readonly string[] | undefined,
  limit: number,
): { id: string; rank: number }[] {
  const summed = new Map<number, { seq: number; id: string; rank: number }>();
  for (const list of lists) {
    for (const hit of list) {
      if (statuses && !statuses.includes(hit.status)) continue;
      const known = summed.get(hit.seq);
      if (known) known.rank += hit.rank;
      else summed.set(hit.seq, { seq: hit.seq, id: hit.id, rank: hit.rank });
    }
  }
  return [...summed.values()]
    .sort((a, b) => a.rank - b.rank || a.seq - b.seq)
    .slice(0, limit)
    .map(({ id, rank }) => ({ id, rank }));
}
