/**
 * The default Store: one SQLite file (WAL, busy timeout, foreign keys), FTS5 full-text search
 * (bm25 fetches the candidates, core/lexical-rank.ts orders them), vectors as Float32 BLOBs searched through an in-memory index.
 *
 * One connection per store. Writes are serialized in-process (a promise queue) so concurrent async
 * callers never interleave statements inside each other's transaction; reads are not queued.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { StoreError } from '../core/errors.js';
import type { Memory, MemoryLevel, MemoryStatus, Provenance } from '../core/types.js';
import type { Logger } from '../ports/index.js';
import { silentLogger } from '../ports/index.js';
import { fts5Query, lexicalSearch } from './fts-query.js';
import { candidateFetch, rankLexically } from '../core/lexical-rank.js';
import {
  isSampled,
  MEMORY_COLUMNS,
  memoryToValues,
  provenanceRow,
  sampleWith,
  withFullProvenance,
  rowToMemory,
  statsFrom,
} from './rows.js';
import {
  assertKnownVersion,
  olderSchemaError,
  oldestReadableVersion,
  ownedSqliteTables,
  runMigrations,
  SCHEMA_VERSION,
} from './migrations.js';
import { SqliteConnection } from './sqlite-connection.js';
import { SqliteHandle } from './sqlite/handle.js';
import { ComposedStore } from './composed-store.js';
import { SqlJobQueue } from './sql/jobs.js';
import { SqlStateStore } from './sql/state.js';
import { SqlAuditLog } from './sql/audit.js';
import { SqlUsageLog } from './sql/usage.js';
import { SqlFixLedger } from './sql/fixes.js';
import { WalCheckpointer } from './wal-checkpointer.js';
import { TermStats } from './term-stats.js';
import { rankByTerms, TokenTerms, type TermRow } from './token-terms.js';
import type { SqlValue } from './sqlite-connection.js';
import type { MemoryFilter, PoolStats, ReadOptions, ScoredId, SearchOptions, Store } from './store.js';
import { ReadCache } from './read-cache.js';
import { tagCharSql, tagsFromChars, VECTOR_PAGE_ROWS, VectorCache, vectorToBytes } from './vector-cache.js';
import type { StoredCodes, VectorSink } from './vector-cache.js';
import { encodeVector } from '../core/vector-index.js';

export interface SqliteStoreOptions {
  logger?: Logger;
  /** checkpoint the WAL from a second connection on a timer (default true for a pool file) */
  backgroundCheckpoint?: boolean;
  /** how often that checkpoint runs (default 1 s) */
  checkpointEveryMs?: number;
  /** how long a write waits for another process's lock before StoreError('locked'); default 5000 */
  busyTimeoutMs?: number;
  /**
   * open an existing pool without ever writing to it (the file must exist; nothing is created,
   * migrated or checkpointed): for commands that only read. Call verifySchema() instead of migrate().
   */
  readOnly?: boolean;
}

/** one FTS5 table per memory level (a search of insights never scores trajectories) */
const FTS_TABLES: Record<MemoryLevel, string> = {
  insight: 'fts_insight',
  workflow: 'fts_workflow',
  summary: 'fts_summary',
  trajectory: 'fts_trajectory',
};
/** bm25 column weights: title, description, content, tags */
const BM25_WEIGHTS = '4.0, 2.0, 1.0, 2.0';
/** the tables the current schema version must have */
const REQUIRED_TABLES = new Set([
  'memories',
  'memory_sources',
  'memory_provenance',
  'vectors',
  'vector_codes',
  'fixes',
  'jobs',
  'state',
  'audit',
  'usage',
  ...Object.values(FTS_TABLES),
]);

/** the memory upsert; `keep` columns are left as they are on an existing row */
function upsertMemory(keep: readonly string[]): string {
  return `INSERT INTO memories (${MEMORY_COLUMNS.join(', ')}) VALUES (${MEMORY_COLUMNS.map(() => '?').join(', ')})
  ON CONFLICT (tenant, id) DO UPDATE SET ${MEMORY_COLUMNS.filter(
    (c) => c !== 'tenant' && c !== 'id' && !keep.includes(c),
  )
    .map((c) => `${c} = excluded.${c}`)
    .join(', ')}
  RETURNING seq`;
}
/** a memory with complete provenance: every column */
const UPSERT_MEMORY = upsertMemory([]);
/** a memory read with a sample of its provenance: the stored provenance, sample and count stay */
const UPSERT_MEMORY_KEEP_SOURCES = upsertMemory(['provenance', 'provenance_count']);

export class SqliteStore extends ComposedStore implements Store {
  private readonly vectors: VectorCache;
  /** each query token's bm25 terms (searches outside a transaction), dropped whenever `reads` is */
  private readonly tokenTerms = new TokenTerms((level, tokens, cap) => this.loadTokenTerms(level, tokens, cap));
  /** parsed memories and recent full-text results for recall, kept in step by the writes below */
  private readonly reads = new ReadCache({ onChange: () => this.tokenTerms.clear() });
  /** PRAGMA data_version last seen: it changes when another connection (process) commits */
  private dataVersion: number | undefined;
  private versionCheck: Promise<void> | undefined;
  /** checkpoints the WAL from a second connection, off every commit's path (file pools only) */
  private checkpointer: WalCheckpointer | undefined;
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

  private readonly db: SqliteConnection;
  readonly path: string;

  private constructor(
    private readonly handle: SqliteHandle,
    private readonly logger: Logger,
  ) {
    super({
      jobs: new SqlJobQueue(handle),
      state: new SqlStateStore(handle),
      audit: new SqlAuditLog(handle),
      usage: new SqlUsageLog(handle),
      fixes: new SqlFixLedger(handle),
    });
    this.db = handle.db;
    this.path = handle.path;
    handle.onRollback(() => {
      this.vectors.clear();
      this.reads.clear();
    });
    this.vectors = new VectorCache(
      (tenant, model, sink) => this.loadVectors(tenant, model, sink),
      (tenant, model, ids) => this.readVectors(tenant, model, ids),
    );
  }

  /**
   * Opens (creating the file and its folder, unless read-only) a pool. A file holding tables of
   * another program is refused before anything is written to it. Call migrate() (or, read-only,
   * verifySchema()) before use.
   */
  static async open(path: string, options: SqliteStoreOptions = {}): Promise<SqliteStore> {
    const isFile = path !== ':memory:' && !path.startsWith('file:');
    const readOnly = options.readOnly === true;
    if (isFile && readOnly && !existsSync(path)) {
      throw new StoreError(`there is no pool at ${path} (a command that only reads never creates one)`, 'not-found');
    }
    if (isFile && !readOnly) {
      try {
        mkdirSync(dirname(path), { recursive: true });
      } catch (error) {
        throw new StoreError(`cannot create the folder of the pool ${path}: ${(error as Error).message}`, 'io');
      }
    }
    const db = await SqliteConnection.open(path, { readOnly });
    try {
      db.setBusyTimeout(options.busyTimeoutMs ?? 5000);
      // secure_delete: a forgotten memory's text is overwritten, not left in free pages (docs/security.md)
      await db.exec('PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL; PRAGMA secure_delete = ON;');
      // (exec first: a file that is no database fails here with a clear error, not in a prepared statement)
      await db.exec('SELECT 1 FROM sqlite_master LIMIT 1');
      await refuseForeignTables(db, path);
      // (the first write to the file: the journal mode is recorded in its header)
      if (!readOnly) await db.exec('PRAGMA journal_mode = WAL;');
    } catch (error) {
      await db.close().catch(() => undefined);
      throw error;
    }
    const logger = options.logger ?? silentLogger;
    const store = new SqliteStore(new SqliteHandle(db, path, logger), logger);
    if (isFile && !readOnly && options.backgroundCheckpoint !== false) {
      // a commit that crosses SQLite's auto-checkpoint threshold would copy the whole WAL into the
      // database and fsync it before answering (tens of ms on a webhook burst): checkpoints run
      // from a second connection on a timer instead, without blocking readers or writers
      await db.exec('PRAGMA wal_autocheckpoint = 0;');
      store.checkpointer = new WalCheckpointer(path, logger, options.checkpointEveryMs ?? 1_000);
    }
    return store;
  }

  async migrate(): Promise<void> {
    if ((await this.schemaVersion()) !== SCHEMA_VERSION) await this.applyMigrations();
    await this.checkTables();
  }

  async verifySchema(): Promise<void> {
    const version = await this.schemaVersion();
    assertKnownVersion(version, this.path);
    if (version === 0)
      throw new StoreError(`there is no pool in ${this.path} yet (it holds no pool tables)`, 'not-found');
    if (version < oldestReadableVersion('sqlite')) throw olderSchemaError(this.path, version);
    await this.checkTables();
  }

  /** a pool that claims the current version but lacks its tables (hand-edited, a development build) is refused */
  private async checkTables(): Promise<void> {
    const rows = await this.db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'");
    const present = new Set(rows.map((r) => r.name));
    const missing = [...REQUIRED_TABLES].filter((t) => !present.has(t));
    if (missing.length > 0) {
      throw new StoreError(
        `the pool ${this.path} is incomplete (missing ${missing.join(', ')}); move it away and learn again, or import an export`,
        'corrupt',
      );
    }
  }

  private async applyMigrations(): Promise<void> {
    await this.transaction(() =>
      runMigrations(
        {
          dialect: 'sqlite',
          location: this.path,
          readVersion: async () => {
            await this.db.exec(
              'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)',
            );
            return this.schemaVersion();
          },
          apply: async (sql, version, data) => {
            await this.db.exec(sql);
            await data?.(this.db);
            await this.db.run('INSERT INTO schema_version (version, applied_at) VALUES (?, ?)', [
              version,
              new Date().toISOString(),
            ]);
          },
        },
        this.logger,
      ),
    );
  }

  async close(): Promise<void> {
    await this.handle.drain();
    await this.checkpointer?.close();
    await this.db.close();
  }

  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.handle.transaction(fn);
  }

  /**
   * One transaction for every writer of the file (BEGIN IMMEDIATE serializes all tenants at
   * once); caches are checked against other processes' commits once the lock is held.
   */
  async tenantTransaction<T>(_tenant: string, fn: () => Promise<T>): Promise<T> {
    return this.transaction(async () => {
      await this.syncWithOtherWriters(true);
      return fn();
    });
  }

  // memories

  async putMemory(memory: Memory): Promise<void> {
    // triggers keep the full-text tables in step; the store keeps memory_provenance and memory_sources
    if (isSampled(memory)) {
      await this.handle.write(() => this.db.get(UPSERT_MEMORY_KEEP_SOURCES, memoryToValues(memory)));
    } else {
      await this.transaction(async () => {
        const row = await this.db.get<{ seq: number }>(UPSERT_MEMORY, memoryToValues(memory));
        await this.replaceProvenance(Number(row?.seq), memory.provenance);
      });
    }
    this.reads.invalidateMemory(memory.tenant, memory.id);
    this.termStats.noteWrite();
    this.vectors.updateMeta(memory.tenant, memory.id, { level: memory.level, status: memory.status });
  }

  async appendProvenance(tenant: string, id: string, entry: Provenance): Promise<boolean> {
    const added = await this.transaction(async () => {
      const row = await this.db.get<{ seq: number; provenance: string; provenance_count: number }>(
        'SELECT seq, provenance, provenance_count FROM memories WHERE tenant = ? AND id = ?',
        [tenant, id],
      );
      if (!row) throw new StoreError(`there is no memory "${id}" in the pool of ${tenant}`, 'not-found');
      const next = await this.db.get<{ pos: number | null; dup: number }>(
        `SELECT (SELECT MAX(pos) FROM memory_provenance WHERE seq = ?) AS pos,
                EXISTS (SELECT 1 FROM memory_provenance WHERE seq = ? AND repo = ? AND ref = ?) AS dup`,
        [row.seq, row.seq, entry.repo.toLowerCase(), entry.ref],
      );
      if (next?.dup) return false;
      const [pos, repo, ref, json] = provenanceRow(entry, next?.pos == null ? 0 : next.pos + 1);
      await this.db.run('INSERT INTO memory_provenance (seq, pos, repo, ref, entry) VALUES (?, ?, ?, ?, ?)', [
        row.seq,
        pos,
        repo,
        ref,
        json,
      ]);
      await this.db.run('INSERT OR IGNORE INTO memory_sources (seq, repo) VALUES (?, ?)', [row.seq, repo]);
      const sample = sampleWith(JSON.parse(row.provenance) as Provenance[], entry);
      await this.db.run('UPDATE memories SET provenance = ?, provenance_count = ? WHERE seq = ?', [
        JSON.stringify(sample),
        row.provenance_count + 1,
        row.seq,
      ]);
      return true;
    });
    if (added) this.reads.invalidateMemory(tenant, id);
    return added;
  }

  /** a memory's provenance rows (and the repositories it is filtered by) become exactly `entries` */
  private async replaceProvenance(seq: number, entries: Provenance[]): Promise<void> {
    await this.db.run('DELETE FROM memory_provenance WHERE seq = ?', [seq]);
    await this.db.run('DELETE FROM memory_sources WHERE seq = ?', [seq]);
    if (entries.length === 0) return;
    // one statement for any number of entries: the array is unpacked by SQLite
    const rows = entries.map((entry, i) => provenanceRow(entry, i));
    await this.db.run(
      `INSERT INTO memory_provenance (seq, pos, repo, ref, entry)
       SELECT ?, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]')
       FROM json_each(?)`,
      [seq, JSON.stringify(rows)],
    );
    await this.db.run(
      "INSERT OR IGNORE INTO memory_sources (seq, repo) SELECT DISTINCT ?, json_extract(value, '$[1]') FROM json_each(?)",
      [seq, JSON.stringify(rows)],
    );
  }

  /** memories from their rows, with complete provenance */
  private full(rows: Record<string, unknown>[]): Promise<Memory[]> {
    return withFullProvenance(rows, (seqs) =>
      this.db.all<{ seq: number; entry: string }>(
        'SELECT seq, entry FROM memory_provenance WHERE seq IN (SELECT value FROM json_each(?)) ORDER BY seq, pos',
        [JSON.stringify(seqs.map(Number))],
      ),
    );
  }

  async getMemory(tenant: string, id: string, options: ReadOptions = {}): Promise<Memory | undefined> {
    const row = await this.db.get('SELECT * FROM memories WHERE tenant = ? AND id = ?', [tenant, id]);
    if (!row) return undefined;
    if (options.provenance === 'sample') return rowToMemory(row);
    return (await this.full([row]))[0];
  }

  async getMemories(tenant: string, ids: string[], options: ReadOptions = {}): Promise<Memory[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.all(
      'SELECT * FROM memories WHERE tenant = ? AND id IN (SELECT value FROM json_each(?))',
      [tenant, JSON.stringify(ids)],
    );
    const memories = options.provenance === 'sample' ? rows.map((row) => rowToMemory(row)) : await this.full(rows);
    const byId = new Map(memories.map((memory) => [memory.id, memory]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async poolGeneration(tenant: string): Promise<string> {
    await this.syncWithOtherWriters();
    return String(this.reads.generation(tenant));
  }

  async readMemories(tenant: string, ids: string[]): Promise<readonly Memory[]> {
    if (ids.length === 0) return [];
    await this.syncWithOtherWriters();
    return this.reads.memories(tenant, ids, (missing) => this.getMemories(tenant, missing, { provenance: 'sample' }));
  }

  async listMemories(tenant: string, filter: MemoryFilter = {}): Promise<Memory[]> {
    const { where, params } = filterSql(tenant, filter);
    const rows = await this.db.all(
      `SELECT m.* FROM memories m WHERE ${where} ORDER BY m.updated_at DESC, m.id LIMIT ? OFFSET ?`,
      [...params, filter.limit ?? -1, filter.offset ?? 0],
    );
    return this.full(rows);
  }

  async countMemories(tenant: string, filter: MemoryFilter = {}): Promise<number> {
    const { where, params } = filterSql(tenant, filter);
    const row = await this.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM memories m WHERE ${where}`, params);
    return row?.n ?? 0;
  }

  async deleteMemory(tenant: string, id: string): Promise<boolean> {
    // triggers and foreign keys remove its full-text entry, sources and vectors
    const result = await this.handle.write(() =>
      this.db.run('DELETE FROM memories WHERE tenant = ? AND id = ?', [tenant, id]),
    );
    if (result.changes === 0) return false;
    this.reads.invalidateMemory(tenant, id);
    this.termStats.noteWrite();
    this.vectors.remove(tenant, id);
    return true;
  }

  /** FTS5 keeps deleted tokens in its segments until they are merged; then the WAL is truncated. */
  async purgeDeleted(): Promise<void> {
    await this.handle.serialized(async () => {
      for (const table of Object.values(FTS_TABLES))
        await this.db.exec(`INSERT INTO ${table}(${table}) VALUES('optimize')`);
      await this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    });
  }

  async listTenants(): Promise<string[]> {
    const rows = await this.db.all<{ tenant: string }>(
      `SELECT tenant FROM memories UNION SELECT tenant FROM fixes UNION SELECT tenant FROM audit UNION SELECT tenant FROM usage
       ORDER BY tenant`,
    );
    return rows.map((r) => r.tenant);
  }

  // retrieval

  async searchLexical(tenant: string, query: string, options: SearchOptions): Promise<ScoredId[]> {
    const search = lexicalSearch(query, options);
    if (!search) return [];
    const { tokens, levels, key } = search;
    // inside a transaction (a create-or-merge decision) the answer is read, never cached
    if (this.handle.inTransaction) return this.searchTokens(tenant, query, tokens, levels, options);
    await this.syncWithOtherWriters();
    return this.reads.search(tenant, key, () => this.searchTokens(tenant, query, tokens, levels, options));
  }

  /** FTS5 fetches the candidates (by its bm25), the shared formula orders them (core/lexical-rank.ts) */
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
      const terms = cached ? await this.tokenTerms.terms(level, searched) : undefined;
      if (terms) hits.push(...rankByTerms(terms, tenant, fetch.status, fetch.limit));
      else hits.push(...(await this.searchFts(tenant, level, searched, fetch)));
    }
    if (levels.length > 1) hits.sort((a, b) => a.rank - b.rank);
    const ids = hits.slice(0, fetch.limit).map((hit) => hit.id);
    const read = (missing: string[]) => this.getMemories(tenant, missing, { provenance: 'sample' });
    const candidates = cached ? await this.reads.memories(tenant, ids, read) : await read(ids);
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

  /** every token's matching rows in this level, each with its one-token bm25 (TokenTerms), in one statement */
  private async loadTokenTerms(level: string, tokens: string[], cap: number): Promise<TermRow[][]> {
    const table = ftsTable(level as MemoryLevel);
    const selects = tokens.map(
      (_, i) => `SELECT * FROM (SELECT ${i} AS t, m.seq AS seq, m.id AS id, m.tenant AS tenant, m.status AS status,
        bm25(${table}, ${BM25_WEIGHTS}) AS rank
        FROM ${table} CROSS JOIN memories m INDEXED BY memories_cover ON m.seq = ${table}.rowid
        WHERE ${table} MATCH ? ORDER BY ${table}.rowid LIMIT ?)`,
    );
    const rows = await this.db.all<TermRow & { t: number }>(
      selects.join(' UNION ALL '),
      tokens.flatMap((token) => [fts5Query([token]), cap]),
    );
    const lists: TermRow[][] = tokens.map(() => []);
    for (const { t, ...row } of rows) lists[t]?.push(row);
    return lists;
  }

  async putVector(tenant: string, id: string, vector: Float32Array, model: string): Promise<void> {
    // one writer at a time (the write queue), so nothing changes between the lookup and the inserts;
    // the vector and its code (what the vector index loads) are written together
    const row = await this.transaction(async () => {
      const memory = await this.db.get<{ seq: number; level: MemoryLevel; status: MemoryStatus }>(
        'SELECT seq, level, status FROM memories WHERE tenant = ? AND id = ?',
        [tenant, id],
      );
      if (!memory) throw new StoreError(`no memory ${id} in ${tenant} to attach a vector to`, 'not-found');
      await this.db.run(
        `INSERT INTO vectors (seq, model, dims, data) VALUES (?, ?, ?, ?)
         ON CONFLICT (seq, model) DO UPDATE SET dims = excluded.dims, data = excluded.data`,
        [memory.seq, model, vector.length, vectorToBytes(vector)],
      );
      await this.db.run(
        `INSERT INTO vector_codes (seq, model, code) VALUES (?, ?, ?)
         ON CONFLICT (seq, model) DO UPDATE SET code = excluded.code`,
        [memory.seq, model, Buffer.from(encodeVector(vector))],
      );
      return memory;
    });
    this.vectors.upsertVector(tenant, model, id, vector, { level: row.level, status: row.status });
    this.reads.invalidateMemory(tenant, id);
  }

  async searchVector(tenant: string, vector: Float32Array, model: string, options: SearchOptions): Promise<ScoredId[]> {
    await this.syncWithOtherWriters();
    return this.vectors.search(tenant, model, vector, options);
  }

  async listIdsWithoutVector(tenant: string, model: string, levels: MemoryLevel[]): Promise<string[]> {
    const rows = await this.db.all<{ id: string }>(
      `SELECT m.id FROM memories m WHERE m.tenant = ? AND m.level IN (SELECT value FROM json_each(?))
         AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.seq = m.seq AND v.model = ?) ORDER BY m.seq`,
      [tenant, JSON.stringify(levels), model],
    );
    return rows.map((r) => r.id);
  }

  /**
   * Every vector code of the tenant and model (see VectorLoader), in pages by seq: each page is one
   * row of aggregates (the page's ids, levels and statuses as JSON arrays, its codes concatenated
   * into one blob), so reading 100,000 codes makes ~50 rows, not 100,000 row objects.
   */
  private async loadVectors(tenant: string, model: string, sink: VectorSink): Promise<void> {
    const first = await this.db.get<{ n: number }>(
      `SELECT length(c.code) AS n FROM vector_codes c CROSS JOIN memories m INDEXED BY memories_cover ON m.seq = c.seq
       WHERE m.tenant = ? AND c.model = ? LIMIT 1`,
      [tenant, model],
    );
    const stride = first?.n ?? 0;
    if (stride <= 4) return;
    type PageRow = { n: number; last: number | null; ids: string; tags: string; codes: Buffer };
    // CROSS JOIN: walk the codes in key order (each page a range of the primary key); joined the
    // other way round, SQLite sorted every page from the tenant's whole index (quadratic). Every
    // aggregate sees the rows in the same order, so ids[i], tag i and code i are one row's.
    const pageSql = (aggregate: boolean) => {
      const rows = `SELECT c.seq, m.id, ${tagCharSql('m.level', 'm.status')} AS tag, c.code
         FROM vector_codes c CROSS JOIN memories m INDEXED BY memories_cover ON m.seq = c.seq
         WHERE m.tenant = ? AND c.model = ? AND c.seq > ? AND length(c.code) = ? ORDER BY c.seq LIMIT ?`;
      return aggregate
        ? `SELECT COUNT(*) AS n, MAX(p.seq) AS last, json_group_array(p.id) AS ids, group_concat(p.tag, '') AS tags,
             CAST(group_concat(p.code, '') AS BLOB) AS codes FROM (${rows}) p`
        : rows;
    };
    const page = (after: number): Promise<PageRow | undefined> =>
      this.db.get<PageRow>(pageSql(true), [tenant, model, after, stride, VECTOR_PAGE_ROWS]);
    const add = async (row: PageRow, after: number): Promise<void> => {
      const codes: StoredCodes = {
        ids: JSON.parse(row.ids) as string[],
        tags: tagsFromChars(row.tags),
        dims: stride - 4,
        codes: row.codes,
      };
      if (sink.addCodes(codes)) return;
      // (never seen) the concatenation did not give n codes: the same page row by row
      type CodeRow = { id: string; tag: string; code: Buffer };
      const rows = await this.db.all<CodeRow>(pageSql(false), [tenant, model, after, stride, VECTOR_PAGE_ROWS]);
      for (const r of rows) sink.addCodes({ ids: [r.id], tags: tagsFromChars(r.tag), dims: stride - 4, codes: r.code });
    };
    // pipelined: the next page is read (on SQLite's thread) while this one is copied into the index
    let after = -1;
    let next: Promise<PageRow | undefined> | undefined = page(after);
    while (next) {
      const row: PageRow | undefined = await next;
      if (!row || !row.n || row.last === null) return;
      const from = after;
      after = row.last;
      next = row.n === VECTOR_PAGE_ROWS ? page(after) : undefined;
      next?.catch(() => undefined);
      await add(row, from);
    }
  }

  /** the stored Float32 vectors of these ids (see VectorReader): what a search re-scores exactly */
  private async readVectors(tenant: string, model: string, ids: string[]): Promise<Map<string, Uint8Array>> {
    const rows = await this.db.all<{ id: string; data: Buffer }>(
      `SELECT m.id, v.data FROM memories m CROSS JOIN vectors v ON v.seq = m.seq AND v.model = ?
       WHERE m.tenant = ? AND m.id IN (SELECT value FROM json_each(?))`,
      [model, tenant, JSON.stringify(ids)],
    );
    return new Map(rows.map((r) => [r.id, r.data]));
  }

  async stats(tenant: string): Promise<PoolStats> {
    const groups = await this.db.all<{ level: string; status: string; n: number }>(
      'SELECT level, status, COUNT(*) AS n FROM memories WHERE tenant = ? GROUP BY level, status',
      [tenant],
    );
    const repos = await this.db.get<{ n: number }>(
      'SELECT COUNT(DISTINCT s.repo) AS n FROM memory_sources s JOIN memories m ON m.seq = s.seq WHERE m.tenant = ?',
      [tenant],
    );
    const fixes = await this.db.get<{ n: number; f: number }>(
      'SELECT COUNT(*) AS n, COUNT(fallback) AS f FROM fixes WHERE tenant = ?',
      [tenant],
    );
    return statsFrom(groups, repos?.n ?? 0, fixes?.n ?? 0, fixes?.f ?? 0);
  }

  // internals

  /**
   * Another process (the CLI beside the App) may have written the pool since the caches were
   * filled: SQLite's data_version changes when another connection commits, and then every cache
   * is dropped. Concurrent callers share one check.
   */
  private syncWithOtherWriters(fresh = false): Promise<void> {
    // a fresh check (under the write lock) never joins one that may have started before the lock
    if (fresh) this.versionCheck = undefined;
    this.versionCheck ??= this.db
      .get<{ data_version: number }>('PRAGMA data_version')
      .then((row) => {
        const version = row?.data_version;
        if (this.dataVersion !== undefined && version !== this.dataVersion) {
          this.reads.clear();
          this.vectors.clear();
        }
        this.dataVersion = version;
      })
      .finally(() => {
        this.versionCheck = undefined;
      });
    return this.versionCheck;
  }

  private async schemaVersion(): Promise<number> {
    const table = await this.db.get(
      "SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'",
    );
    if (!table) return 0;
    const row = await this.db.get<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_version');
    return row?.v ?? 0;
  }
}

/**
 * Refuses a database holding tables memory-transfer does not own (another program's file given as
 * the pool): it only reads the schema, so the file is left byte for byte as it was.
 */
async function refuseForeignTables(db: SqliteConnection, path: string): Promise<void> {
  const rows = await db.all<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
  );
  const owned = ownedSqliteTables();
  const foreign = rows.map((r) => r.name).filter((name) => !owned.has(name.toLowerCase()));
  if (foreign.length === 0) return;
  // a pool written by a newer version may hold tables this one does not know: migrate() refuses it as newer
  const names = new Set(rows.map((r) => r.name.toLowerCase()));
  if (names.has('memories') && names.has('schema_version')) {
    const newest = await db.get<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_version');
    if ((newest?.v ?? 0) > SCHEMA_VERSION) return;
  }
  const shown =
    foreign.length > 5 ? `${foreign.slice(0, 5).join(', ')} and ${foreign.length - 5} more` : foreign.join(', ');
  throw new StoreError(
    `${path} is not a memory-transfer pool: it holds tables of another program (${shown}); nothing was written to it, choose another file for the pool`,
    'foreign',
  );
}

/** the FTS5 table of a level (a fixed name, never text from outside) */
function ftsTable(level: string): string {
  const table = FTS_TABLES[level as MemoryLevel];
  if (!table) throw new StoreError(`unknown memory level: ${JSON.stringify(level)}`, 'conflict');
  return table;
}

/** the WHERE clause (over alias m) and its parameters for a MemoryFilter */
function filterSql(tenant: string, filter: MemoryFilter): { where: string; params: SqlValue[] } {
  let where = 'm.tenant = ?';
  const params: SqlValue[] = [tenant];
  if (filter.status) {
    where += ' AND m.status IN (SELECT value FROM json_each(?))';
    params.push(JSON.stringify(filter.status));
  }
  if (filter.level) {
    where += ' AND m.level IN (SELECT value FROM json_each(?))';
    params.push(JSON.stringify(filter.level));
  }
  if (filter.repo !== undefined) {
    where += ' AND m.seq IN (SELECT seq FROM memory_sources WHERE repo = ?)';
    params.push(filter.repo.toLowerCase());
  }
  return { where, params };
}
