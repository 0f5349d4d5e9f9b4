/**
 * Which query tokens a full-text search should use, shared by both stores.
 *
 * A search scores every memory that matches any query token. In a large pool a common token adds
 * many candidates but little score (bm25 gives a token found in over half the memories an idf of
 * ~0), so only the rarest tokens are searched: those that together match at most CANDIDATE_BUDGET
 * memories of the level, and at least the rarest one. Pools (levels) below SELECTIVE_FROM_ROWS
 * search every token. Counts are cached until the pool has changed by a tenth.
 */

/** levels with fewer memories search every query token (cheap anyway) */
export const SELECTIVE_FROM_ROWS = 1000;
/** at most this many (the rarest) tokens of a query are searched */
export const MAX_SEARCH_TOKENS = 12;
/** in a large level, the tokens searched match at most about this many memories */
export const CANDIDATE_BUDGET = 1500;

export interface TermCounter {
  /** how many memories each level holds */
  levelRows(): Promise<Map<string, number>>;
  /**
   * how many memories of the level contain each token, counting no further than `cap`: one
   * statement for all of them, on the connection in use (never concurrent queries on one client)
   */
  tokenRows(level: string, tokens: string[], cap: number): Promise<number[]>;
}

export class TermStats {
  private rows = new Map<string, number>();
  private fresh = false;
  private writes = 0;
  private readonly df = new Map<string, number>();

  constructor(private readonly counter: TermCounter) {}

  /** after a memory was written or deleted (not after a new source for it: no count changes) */
  noteWrite(): void {
    this.writes++;
  }

  /** the tokens to search in this level, rarest first */
  async selective(level: string, tokens: string[]): Promise<string[]> {
    if (tokens.length === 0) return tokens;
    const total = [...this.rows.values()].reduce((a, b) => a + b, 0);
    if (!this.fresh || this.writes > Math.max(200, total / 10)) {
      this.rows = await this.counter.levelRows();
      this.fresh = true;
      this.writes = 0;
      this.df.clear();
    }
    const rows = this.rows.get(level) ?? 0;
    if (rows < SELECTIVE_FROM_ROWS) return tokens;
    const key = (token: string) => `${level}\u0000${token}`;
    const unknown = tokens.filter((t) => !this.df.has(key(t)));
    if (unknown.length > 0) {
      // counting stops past the budget: a token that common is never searched with others anyway
      const counts = await this.counter.tokenRows(level, unknown, CANDIDATE_BUDGET + 1);
      unknown.forEach((token, i) => this.df.set(key(token), counts[i] ?? 0));
    }
    const counted = tokens.map((token) => ({ token, df: this.df.get(key(token)) ?? 0 }));
    counted.sort((a, b) => a.df - b.df);
    const kept: string[] = [];
    let candidates = 0;
    for (const { token, df } of counted) {
      candidates += df;
      if (kept.length > 0 && (df > rows / 2 || candidates > CANDIDATE_BUDGET || kept.length >= MAX_SEARCH_TOKENS))
        break;
      kept.push(token);
    }
    return kept;
  }
}
