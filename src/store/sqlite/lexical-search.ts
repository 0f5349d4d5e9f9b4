/**
 * Full-text search in a SQLite pool: one FTS5 table per memory level. FTS5 (bm25) fetches the
 * candidates, or, outside a transaction, the cached bm25 terms of each query token do
 * (token-terms.ts); core/retrieval/lexical-rank.ts orders them, the same in every store.
 */
import { StoreError } from '../../core/errors.js';
import { candidateFetch, rankLexically } from '../../core/retrieval/lexical-rank.js';
import type { Memory, MemoryLevel } from '../../core/types.js';
import { fts5Query, lexicalSearch } from '../fts-query.js';
import type { SqliteConnection, SqlValue } from '../sqlite-connection.js';
import type { ScoredId, SearchOptions } from '../store.js';
import { TermStats } from '../term-stats.js';
import { rankByTerms, type TermRow } from '../token-terms.js';
import type { SqliteCaches } from './caches.js';
import type { SqliteHandle } from './handle.js';

/** one FTS5 table per memory level (a search of insights never scores trajectories) */
export const FTS_TABLES: Record<MemoryLevel, string> = {
  insight: 'fts_insight',
  workflow: 'fts_workflow',
  summary: 'fts_summary',
  trajectory: 'fts_trajectory',
};
/** bm25 column weights: title, description, content, tags */
const BM25_WEIGHTS = '4.0, 2.0, 1.0, 2.0';

export class SqliteLexicalSearch {
  private readonly db: SqliteConnection;
  /** which query tokens to search (document frequencies, cached) */
  private readonly termStats = new TermStats({
    levelRows: async () => {
      const rows = await this.db.all<{ level: string; n: number }>(
        'SELECT level, COUNT(*) AS n FROM memories GROUP BY level',
      );
      return new Map(rows.map((r) => [r.level, r.n]));
    },
    tokenRows: async (level, tokens, cap) => {
      if (tokens.length === 0) return [];
      const table = ftsTable(level);
      // one statement for every token (one round trip), each count stopping at the cap
      const columns = tokens.map(
        (_, i) => `(SELECT COUNT(*) FROM (SELECT 1 FROM ${table} WHERE ${table} MATCH ? LIMIT ?)) AS c${i}`,
      );
      const row = await this.db.get<Record<string, number>>(
        `SELECT ${columns.join(', ')}`,
        tokens.flatMap((token) => [fts5Query([token]), cap]),
      );
      return tokens.map((_, i) => Number(row?.[`c${i}`] ?? 0));
    },
  });

  /** `read`: the memories of these ids with a sample of their provenance (the candidates) */
  constructor(
    private readonly handle: SqliteHandle,
    private readonly caches: SqliteCaches,
    private readonly read: (tenant: string, ids: string[]) => Promise<Memory[]>,
  ) {
    this.db = handle.db;
  }

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
    await this.caches.syncWithOtherWriters();
    return this.caches.reads.search(tenant, key, () => this.searchTokens(tenant, query, tokens, levels, options));
  }

  /** FTS5 fetches the candidates (by its bm25), the shared formula orders them (core/retrieval/lexical-rank.ts) */
  private async searchTokens(
    tenant: string,
    query: string,
    tokens: string[],
    levels: MemoryLevel[],
    options: SearchOptions,
  ): Promise<ScoredId[]> {
    const fetch = { ...options, limit: candidateFetch(options.limit) };
    const hits: { id: string; rank: number }[] = [];
    const cached = !this.handle.inTransaction;
    for (const level of levels) {
      const searched = await this.termStats.selective(level, tokens);
      const terms = cached ? await this.caches.tokenTerms.terms(level, searched) : undefined;
      if (terms) hits.push(...rankByTerms(terms, tenant, fetch.status, fetch.limit));
      else hits.push(...(await this.searchFts(tenant, level, searched, fetch)));
    }
    if (levels.length > 1) hits.sort((a, b) => a.rank - b.rank);
    const ids = hits.slice(0, fetch.limit).map((hit) => hit.id);
    const read = (missing: string[]) => this.read(tenant, missing);
    const candidates = cached ? await this.caches.reads.memories(tenant, ids, read) : await read(ids);
    return rankLexically(query, candidates, options.limit);
  }

  /** one level's full-text search, ranked by FTS5 */
  private searchFts(
    tenant: string,
    level: MemoryLevel,
    searched: string[],
    options: SearchOptions,
  ): Promise<{ id: string; rank: number }[]> {
    const table = ftsTable(level);
    const params: SqlValue[] = [fts5Query(searched), tenant];
    // The full-text match drives the query (CROSS JOIN fixes the order); each match is filtered
    // through the narrow covering index, never the wide memories rows.
    let sql = `SELECT m.id AS id, bm25(${table}, ${BM25_WEIGHTS}) AS rank
      FROM ${table} CROSS JOIN memories m INDEXED BY memories_cover ON m.seq = ${table}.rowid
      WHERE ${table} MATCH ? AND m.tenant = ?`;
    if (options.status) {
      sql += ' AND m.status IN (SELECT value FROM json_each(?))';
      params.push(JSON.stringify(options.status));
    }
    sql += ' ORDER BY rank LIMIT ?';
    params.push(options.limit);
    return this.db.all<{ id: string; rank: number }>(sql, params);
  }
}

/** every token's matching rows in this level, each with its one-token bm25 (TokenTerms), in one statement */
export async function loadTokenTerms(
  db: SqliteConnection,
  level: string,
  tokens: string[],
  cap: number,
): Promise<TermRow[][]> {
  const table = ftsTable(level as MemoryLevel);
  const selects = tokens.map(
    (_, i) => `SELECT * FROM (SELECT ${i} AS t, m.seq AS seq, m.id AS id, m.tenant AS tenant, m.status AS status,
      bm25(${table}, ${BM25_WEIGHTS}) AS rank
      FROM ${table} CROSS JOIN memories m INDEXED BY memories_cover ON m.seq = ${table}.rowid
      WHERE ${table} MATCH ? ORDER BY ${table}.rowid LIMIT ?)`,
  );
  const rows = await db.all<TermRow & { t: number }>(
    selects.join(' UNION ALL '),
    tokens.flatMap((token) => [fts5Query([token]), cap]),
  );
  const lists: TermRow[][] = tokens.map(() => []);
  for (const { t, ...row } of rows) lists[t]?.push(row);
  return lists;
}

/** the FTS5 table of a level (a fixed name, never text from outside) */
function ftsTable(level: string): string {
  const table = FTS_TABLES[level as MemoryLevel];
  if (!table) throw new StoreError(`unknown memory level: ${JSON.stringify(level)}`, 'conflict');
  return table;
}
