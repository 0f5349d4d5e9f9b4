/**
 * Each query token's bm25 terms, cached, so a full-text search of tokens already seen is summed in
 * memory instead of asking FTS5 again (the recall API's CPU per distinct task: most of it went to
 * FTS5 scoring the same tokens for task after task).
 *
 * FTS5's bm25 of a row is minus the sum, over the query's phrases in order, of each phrase's term
 * (its idf times its weighted-frequency part); a phrase the row lacks adds exactly 0. A one-token
 * query's bm25 is minus that token's term alone, computed from the same table-wide figures (row
 * count, average length, the token's row count). So the sum of the tokens' one-token ranks, in the
 * query's order, is the multi-token query's rank to the last bit; ties keep FTS5's row order.
 *
 * Every term depends on the whole table (any tenant's write moves the row count and average length),
 * so the cache is dropped on any memory write, rollback or other process's commit (the store's read
 * cache tells it: see ReadCache's onChange). It holds at most maxRows rows; a token matching more than
 * maxPerToken rows is never cached, and a search naming one is left to FTS5.
 */

/** one row a token matches, with the token's term as FTS5's one-token bm25 gives it (≤ 0) */
export interface TermRow {
  seq: number;
  id: string;
  tenant: string;
  status: string;
  rank: number;
}

/** reads every row of the level matching each token, at most `cap` per token (one round trip) */
export type TermLoader = (level: string, tokens: string[], cap: number) => Promise<TermRow[][]>;

export interface TokenTermsOptions {
  /** rows kept in all (least recently used tokens dropped first; default 100,000) */
  maxRows?: number;
  /** a token matching more rows than this is never cached (default 5,000) */
  maxPerToken?: number;
}

export class TokenTerms {
  private readonly lists = new Map<string, TermRow[] | 'too-common'>();
  private rows = 0;
  private generation = 0;
  private readonly maxRows: number;
  private readonly maxPerToken: number;

  constructor(
    private readonly load: TermLoader,
    options: TokenTermsOptions = {},
  ) {
    this.maxRows = options.maxRows ?? 100_000;
    this.maxPerToken = options.maxPerToken ?? 5_000;
  }

  /** every token's rows in this level, in the tokens' order; undefined when one is too common to cache */
  async terms(level: string, tokens: string[]): Promise<TermRow[][] | undefined> {
    const key = (token: string) => `${level}\u0000${token}`;
    const missing = tokens.filter((token) => !this.lists.has(key(token)));
    const loaded = new Map<string, TermRow[] | 'too-common'>();
    if (missing.length > 0) {
      const generation = this.generation;
      const lists = await this.load(level, missing, this.maxPerToken + 1);
      missing.forEach((token, i) => {
        const rows = lists[i] ?? [];
        loaded.set(key(token), rows.length > this.maxPerToken ? 'too-common' : rows);
      });
      // a load that began before a write never fills the cache with what it read
      if (generation === this.generation) for (const [k, rows] of loaded) this.remember(k, rows);
    }
    const found: TermRow[][] = [];
    for (const token of tokens) {
      const k = key(token);
      const rows = loaded.get(k) ?? this.touch(k);
      if (rows === undefined || rows === 'too-common') return undefined;
      found.push(rows);
    }
    return found;
  }

  /** after any memory write, a rollback or another process's commit */
  clear(): void {
    this.generation += 1;
    this.lists.clear();
    this.rows = 0;
  }

  private touch(key: string): TermRow[] | 'too-common' | undefined {
    const rows = this.lists.get(key);
    if (rows !== undefined) {
      this.lists.delete(key);
      this.lists.set(key, rows);
    }
    return rows;
  }

  private remember(key: string, rows: TermRow[] | 'too-common'): void {
    const size = rows === 'too-common' ? 0 : rows.length;
    if (size > this.maxRows) return;
    this.lists.set(key, rows);
    this.rows += size;
    while (this.rows > this.maxRows) {
      const [oldest, list] = this.lists.entries().next().value as [string, TermRow[] | 'too-common'];
      this.lists.delete(oldest);
      this.rows -= list === 'too-common' ? 0 : list.length;
    }
  }
}

/**
 * The rows of one tenant (and status, if asked) that match any token, ranked as FTS5 ranks them:
 * each row's rank is the sum of its tokens' ranks in the tokens' order (lowest first), ties in row
 * order; at most `limit`.
 */
export function rankByTerms(
  lists: TermRow[][],
  tenant: string,
  statuses: readonly string[] | undefined,
  limit: number,
): { id: string; rank: number }[] {
  const allowed = statuses ? new Set(statuses) : undefined;
  const ranked = new Map<number, { seq: number; id: string; rank: number }>();
  for (const rows of lists) {
    for (const row of rows) {
      if (row.tenant !== tenant || (allowed && !allowed.has(row.status))) continue;
      const hit = ranked.get(row.seq);
      if (hit) hit.rank += row.rank;
      else ranked.set(row.seq, { seq: row.seq, id: row.id, rank: row.rank });
    }
  }
  return [...ranked.values()]
    .sort((a, b) => a.rank - b.rank || a.seq - b.seq)
    .slice(0, limit)
    .map(({ id, rank }) => ({ id, rank }));
}
