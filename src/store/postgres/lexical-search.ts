/**
 * Full-text search in a PostgreSQL pool: a generated, weighted tsvector column (GIN index).
 * ts_rank fetches the candidates (ts_rank_cd, cover density, cost twice the time);
 * core/retrieval/lexical-rank.ts orders them, the same in every store.
 */
import { candidateFetch, rankLexically } from '../../core/retrieval/lexical-rank.js';
import type { Memory, MemoryLevel } from '../../core/types.js';
import { lexicalSearch, tsQuery } from '../fts-query.js';
import type { ScoredId, SearchOptions } from '../store.js';
import { TermStats } from '../term-stats.js';
import type { PostgresCaches } from './caches.js';
import type { PostgresHandle } from './handle.js';
import type { PostgresUpkeep } from './upkeep.js';

export class PostgresLexicalSearch {
  /** which query tokens to search (document frequencies, cached) */
  private readonly termStats = new TermStats({
    levelRows: async () => {
      const rows = await this.handle.query('SELECT level, COUNT(*)::int AS n FROM memories GROUP BY level');
      const counts = new Map(rows.map((r) => [String(r.level), Number(r.n)]));
      this.upkeep.analyzeWhenGrown([...counts.values()].reduce((a, b) => a + b, 0));
      return counts;
    },
    tokenRows: async (level, tokens, cap) => {
      if (tokens.length === 0) return [];
      // one statement for every token, on the connection in use (the transaction's, when inside
      // one: never two queries at once on it), each count stopping at the cap. The tsquery is a
      // parameter of the subquery, so the plan is a GIN lookup per token whatever the token: with
      // a literal, a common token could make the planner scan the level and read every row's
      // TOASTed tsvector instead.
      const rows = await this.handle.query(
        `SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM memories WHERE level = $1 AND fts @@ to_tsquery('english', u.q)
           LIMIT $3) s)::int AS n
         FROM unnest($2::text[]) WITH ORDINALITY AS u (q, i) ORDER BY u.i`,
        [level, tokens.map((token) => tsQuery([token])), cap],
      );
      return rows.map((r) => Number(r.n));
    },
  });

  /** `read`: the candidates of these ids (cached while other replicas' writes are heard) */
  constructor(
    private readonly handle: PostgresHandle,
    private readonly caches: PostgresCaches,
    private readonly upkeep: PostgresUpkeep,
    private readonly read: (tenant: string, ids: string[]) => Promise<readonly Memory[]>,
  ) {}

  /** a memory's text was written or deleted: the term counts may have changed */
  noteWrite(): void {
    this.termStats.noteWrite();
  }

  async search(tenant: string, query: string, options: SearchOptions): Promise<ScoredId[]> {
    const search = lexicalSearch(query, options);
    if (!search) return [];
    const { tokens, levels, key } = search;
    // inside a transaction (a create-or-merge decision) the answer is read, never cached
    if (this.handle.inTransaction) return this.searchTokens(tenant, query, tokens, levels, options);
    return this.caches.reads.search(tenant, key, () => this.searchTokens(tenant, query, tokens, levels, options));
  }

  /** the tsvector index fetches the candidates (by ts_rank), the shared formula orders them (core/retrieval/lexical-rank.ts) */
  private async searchTokens(
    tenant: string,
    query: string,
    tokens: string[],
    levels: MemoryLevel[],
    options: SearchOptions,
  ): Promise<ScoredId[]> {
    const fetch = candidateFetch(options.limit);
    const hits: ScoredId[] = [];
    for (const level of levels) {
      const expression = tsQuery(await this.termStats.selective(level, tokens));
      if (!expression) continue;
      const params: unknown[] = [expression, tenant, level];
      let sql = `SELECT m.id, ts_rank(m.fts, q) AS score FROM memories m, to_tsquery('english', $1) q
        WHERE m.tenant = $2 AND m.level = $3 AND m.fts @@ q`;
      if (options.status) {
        params.push(options.status);
        sql += ` AND m.status = ANY($${params.length}::text[])`;
      }
      params.push(fetch);
      sql += ` ORDER BY score DESC, m.id LIMIT $${params.length}`;
      const rows = await this.handle.query(sql, params);
      hits.push(...rows.map((r) => ({ id: String(r.id), score: Number(r.score) })));
    }
    if (levels.length > 1) hits.sort((a, b) => b.score - a.score);
    const candidates = await this.read(
      tenant,
      hits.slice(0, fetch).map((hit) => hit.id),
    );
    return rankLexically(query, candidates, options.limit);
  }
}
