/**
 * The PostgreSQL Store, for teams that run the App at scale: same contract as the SQLite store.
 * Full text through a generated, weighted tsvector column (GIN index): ts_rank fetches the
 * candidates (ts_rank_cd, cover density, cost twice the time), core/lexical-rank.ts orders them;
 * jobs claimed with FOR UPDATE SKIP LOCKED; vectors as bytea searched through the in-memory index
 * (pgvector is not required). Option `schema` isolates a pool inside a database (tests use it).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { InputError, StoreError } from '../core/errors.js';
import type { Memory, MemoryLevel, MemoryStatus, Provenance } from '../core/types.js';
import type { Logger } from '../ports/index.js';
import { silentLogger } from '../ports/index.js';
import { candidateFetch, rankLexically } from '../core/lexical-rank.js';
import { lexicalSearch, tsQuery } from './fts-query.js';
import { assertKnownVersion, olderSchemaError, oldestReadableVersion, runMigrations } from './migrations.js';
import {
  isSampled,
  MEMORY_COLUMNS,
  memoryRepos,
  memoryToValues,
  provenanceRow,
  sampleWith,
  withFullProvenance,
  rowToMemory,
  statsFrom,
  tagsText,
} from './rows.js';
import { ReadCache } from './read-cache.js';
import { TermStats } from './term-stats.js';
import type { MemoryFilter, PoolStats, ReadOptions, ScoredId, SearchOptions, Store } from './store.js';
import { bytesToVector, VECTOR_PAGE_ROWS, VectorCache, vectorToBytes } from './vector-cache.js';
import type { VectorSink } from './vector-cache.js';
import { CHANGE_CHANNEL, CHANGE_NOTIFY_SQL, ChangeListener } from './pg-change-listener.js';
import { PostgresHandle } from './postgres/handle.js';
import { ComposedStore } from './composed-store.js';
import { SqlJobQueue } from './sql/jobs.js';
import { SqlStateStore } from './sql/state.js';
import { SqlAuditLog } from './sql/audit.js';
import { SqlUsageLog } from './sql/usage.js';
import { SqlFixLedger } from './sql/fixes.js';

export interface PostgresStoreOptions {
  logger?: Logger;
  /** schema holding the pool's tables, created if missing; default "public" */
  schema?: string;
  /** connections in the pool; default 10 */
  maxConnections?: number;
  /**
   * how long a full-text result is reused while change notifications are not heard (listen off,
   * or its connection lost); default SEARCH_TTL_MS
   */
  searchTtlMs?: number;
  /**
   * hear other replicas' writes (LISTEN/NOTIFY, pg-change-listener.ts) and keep memories,
   * full-text results and recall answers cached while they are heard; default true
   */
  listen?: boolean;
  /** first delay before the listener reconnects; default 1,000 ms */
  listenRetryMs?: number;
  /** for commands that only read: the schema is not created (call verifySchema(), not migrate()) */
  readOnly?: boolean;
}

type Row = Record<string, unknown>;

const COLUMNS = [...MEMORY_COLUMNS, 'tags_text'];
/**
 * the memory upsert; `keep` columns are left as they are on an existing row. `inserted`: the row
 * is new (a row inserted by this statement has no xmax; an updated one has the updating transaction's)
 */
function upsertMemory(keep: readonly string[]): string {
  return `INSERT INTO memories (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})
  ON CONFLICT (tenant, id) DO UPDATE SET ${COLUMNS.filter((c) => c !== 'tenant' && c !== 'id' && !keep.includes(c))
    .map((c) => `${c} = excluded.${c}`)
    .join(', ')}
  RETURNING seq, (xmax = 0) AS inserted`;
}
/** a memory with complete provenance: every column */
const UPSERT_MEMORY = upsertMemory([]);
/** a memory read with a sample of its provenance: the stored provenance, sample and count stay */
const UPSERT_MEMORY_KEEP_SOURCES = upsertMemory(['provenance', 'provenance_count']);
/** the columns a memory is read from (seq: its provenance rows) */
const READ_COLUMNS = ['seq', ...MEMORY_COLUMNS].join(', ');

/**
 * How long a full-text result is reused while other replicas' writes are not heard (see
 * PostgresStoreOptions.listen). This process's own memory writes drop the results at once; another
 * replica's show within this time. Only candidates come from it: recall re-reads every candidate
 * (uncached, while not listening) before filtering, so a forgotten, rejected or narrowed insight
 * never shows.
 */
export const SEARCH_TTL_MS = 10_000;

/** memories is analyzed again once it holds this many times the rows its last ANALYZE counted… */
export const ANALYZE_GROWTH = 1.2;
/** …plus this many (a new, never analyzed table: once it holds more) */
export const ANALYZE_MIN_ROWS = 100;
/** the full-text index's pending list is merged into the index after this many memory writes */
export const GIN_CLEAN_WRITES = 100;

/** the location without its password, for messages */
function safeLocation(location: string): string {
  return location.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}

export class PostgresStore extends ComposedStore implements Store {
  private readonly vectors: VectorCache;
  /**
   * parsed memories and recent full-text results: this process's writes drop what they touch at
   * once, other replicas' writes when their notification arrives; while notifications are not
   * heard, only full-text results are kept, for searchTtlMs
   */
  private readonly reads: ReadCache;
  /** other replicas' writes, heard (undefined when the listen option is off) */
  private listener: ChangeListener | undefined;
  /** refreshes of the vector index after other replicas' writes, one at a time, in arrival order */
  private vectorRefresh: Promise<void> = Promise.resolve();
  /** per tenant, the write mark this process's last tenant transaction left (see tenantTransaction) */
  private readonly writeMarks = new Map<string, string>();
  /** the ANALYZE of memories under way (see analyzeWhenGrown) */
  private analyzing: Promise<void> | undefined;
  /** the merge of the full-text index's pending list under way (see cleanWhenWritten) */
  private cleaning: Promise<void> | undefined;
  /** memory writes since the last merge of the pending list; undefined once the server refused one */
  private writesSinceClean: number | undefined = 0;
  /** which query tokens to search (document frequencies, cached) */
  private readonly termStats = new TermStats({
    levelRows: async () => {
      const rows = await this.query('SELECT level, COUNT(*)::int AS n FROM memories GROUP BY level');
      const counts = new Map(rows.map((r) => [String(r.level), Number(r.n)]));
      this.analyzeWhenGrown([...counts.values()].reduce((a, b) => a + b, 0));
      return counts;
    },
    tokenRows: async (level, tokens, cap) => {
      if (tokens.length === 0) return [];
      // one statement for every token, on the connection in use (the transaction's, when inside
      // one: never two queries at once on it), each count stopping at the cap. The tsquery is a
      // parameter of the subquery, so the plan is a GIN lookup per token whatever the token: with
      // a literal, a common token could make the planner scan the level and read every row's
      // TOASTed tsvector instead.
      const rows = await this.query(
        `SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM memories WHERE level = $1 AND fts @@ to_tsquery('english', u.q)
           LIMIT $3) s)::int AS n
         FROM unnest($2::text[]) WITH ORDINALITY AS u (q, i) ORDER BY u.i`,
        [level, tokens.map((token) => tsQuery([token])), cap],
      );
      return rows.map((r) => Number(r.n));
    },
  });

  private readonly pool: pg.Pool;
  readonly location: string;

  private constructor(
    private readonly handle: PostgresHandle,
    private readonly schema: string,
    private readonly logger: Logger,
    searchTtlMs: number,
    private readonly readOnly: boolean,
  ) {
    super({
      jobs: new SqlJobQueue(handle),
      state: new SqlStateStore(handle),
      audit: new SqlAuditLog(handle),
      usage: new SqlUsageLog(handle),
      fixes: new SqlFixLedger(handle),
    });
    this.pool = handle.pool;
    this.location = handle.location;
    handle.onRollback(() => this.vectors.clear());
    // searches that ran meanwhile on other connections did not see the transaction's writes
    handle.onWritten(() => this.reads.clear());
    this.vectors = new VectorCache(
      (tenant, model, sink) => this.loadVectors(tenant, model, sink),
      (tenant, model, ids) => this.readVectors(tenant, model, ids),
    );
    this.reads = new ReadCache({ searchTtlMs: () => (this.listener?.listening ? Infinity : searchTtlMs) });
  }

  /** Hears other replicas' writes from now on (see PostgresStoreOptions.listen). */
  private listen(location: string, retryMs: number | undefined): Promise<void> {
    this.listener = new ChangeListener({
      location,
      schema: this.schema,
      logger: this.logger,
      ...(retryMs !== undefined ? { retryMs } : {}),
      onChange: (tenant, id) => {
        this.reads.invalidateMemory(tenant, id);
        this.refreshVector(tenant, id);
      },
      notify: async (payload) => {
        await this.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, payload]);
      },
      // what changed while not listening is unknown: drop everything
      onListening: () => this.forgetCaches(),
      onLost: () => this.forgetCaches(),
    });
    return this.listener.start();
  }

  /**
   * Refreshes the planner's statistics of `memories` once the table holds `rows` > 1.2 × what its
   * last ANALYZE counted (+ ANALYZE_MIN_ROWS), in the background, on a connection of its own.
   * Without statistics (a new pool, or a server with autovacuum off or behind a bulk learn) the
   * planner estimates a full-text match as common and reads every memory of the level through the
   * (tenant, status, level) index, ranking each: a search's cost then grows with the pool. With
   * them, a search of rare tokens reads only their matches from the GIN index. Where autovacuum
   * keeps up, pg_class.reltuples stays within a tenth of the truth and this never runs. Answers
   * are the same either way (ORDER BY score, id); only the plan changes.
   */
  private analyzeWhenGrown(rows: number): void {
    if (this.readOnly || this.analyzing || this.pool.ended) return;
    this.analyzing = (async () => {
      const result = await this.pool.query(
        "SELECT reltuples::float8 AS n FROM pg_class WHERE oid = 'memories'::regclass",
      );
      const counted = Math.max(0, Number(result.rows[0]?.n ?? 0));
      if (rows > counted * ANALYZE_GROWTH + ANALYZE_MIN_ROWS) await this.pool.query('ANALYZE memories');
    })()
      .catch((error: unknown) =>
        this.logger.warn('could not refresh the statistics of the memories table', { error: String(error) }),
      )
      .finally(() => {
        this.analyzing = undefined;
      });
  }

  /**
   * Merges the pending list of the full-text index into the index (`gin_clean_pending_list`) once
   * this process has written GIN_CLEAN_WRITES memories since the last merge, in the background, on
   * a connection of its own. A GIN index with fastupdate (the default) appends new entries to a
   * pending list that every full-text lookup reads in full, until it holds gin_pending_list_limit
   * (4 MB by default) or a vacuum merges it. Under a steady learn on a server whose
   * autovacuum is off or behind, each search and each term count then read hundreds of pages of it
   * (7 ms for a word no memory holds, 0.05 ms once merged). Answers are the same either way.
   */
  private cleanWhenWritten(): void {
    if (this.writesSinceClean === undefined || this.readOnly) return;
    this.writesSinceClean += 1;
    if (this.writesSinceClean < GIN_CLEAN_WRITES || this.cleaning || this.pool.ended) return;
    this.writesSinceClean = 0;
    this.cleaning = this.pool
      .query("SELECT gin_clean_pending_list('memories_fts'::regclass)")
      .then(
        () => undefined,
        (error: unknown) => {
          // a role that does not own the index may not merge it: the server's vacuums do, from now on
          if ((error as { code?: string } | null)?.code === '42501') this.writesSinceClean = undefined;
          this.logger.warn('could not merge the pending entries of the full-text index', { error: String(error) });
        },
      )
      .finally(() => {
        this.cleaning = undefined;
      });
  }

  private forgetCaches(): void {
    this.reads.clear();
    this.vectors.clear();
  }

  /** Brings the loaded vector index in step with another replica's write of one memory. */
  private refreshVector(tenant: string, id: string): void {
    if (!this.vectors.loaded(tenant)) return;
    this.vectorRefresh = this.vectorRefresh
      .then(async () => {
        const rows = await this.query(
          `SELECT m.level, m.status, v.model, v.data FROM memories m LEFT JOIN vectors v ON v.seq = m.seq
           WHERE m.tenant = $1 AND m.id = $2`,
          [tenant, id],
        );
        const first = rows[0];
        if (!first) return this.vectors.remove(tenant, id);
        const meta = { level: first.level as MemoryLevel, status: first.status as MemoryStatus };
        this.vectors.updateMeta(tenant, id, meta);
        for (const row of rows) {
          if (row.model !== null)
            this.vectors.upsertVector(tenant, String(row.model), id, bytesToVector(row.data as Buffer), meta);
        }
      })
      .catch((error: unknown) => {
        // the index may now miss this change: reload it on the next search
        this.logger.warn('could not refresh a vector after another replica wrote it', { error: String(error) });
        this.vectors.clear();
      });
  }

  static async open(location: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const schema = options.schema ?? 'public';
    if (!/^[a-z_][a-z0-9_]{0,62}$/i.test(schema))
      throw new InputError(`invalid PostgreSQL schema name: ${JSON.stringify(schema)}`);
    const pool = new pg.Pool({
      connectionString: location,
      max: options.maxConnections ?? 10,
      // SSD-era page cost, so the planner uses the full-text GIN index rather than scanning every row
      options: `-c search_path="${schema}" -c random_page_cost=1.1`,
    });
    // an idle client that loses its connection must not crash the process
    pool.on('error', (error) =>
      (options.logger ?? silentLogger).warn('PostgreSQL connection error', { error: error.message }),
    );
    const store = new PostgresStore(
      new PostgresHandle(pool, safeLocation(location)),
      schema,
      options.logger ?? silentLogger,
      options.searchTtlMs ?? SEARCH_TTL_MS,
      options.readOnly ?? false,
    );
    try {
      if (!options.readOnly) await store.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw error;
    }
    if (options.listen ?? true) await store.listen(location, options.listenRetryMs);
    return store;
  }

  async migrate(): Promise<void> {
    await this.transaction(async () => {
      // one migrator at a time per schema
      await this.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`memory-transfer:${this.schema}`]);
      await runMigrations(
        {
          dialect: 'postgres',
          location: this.location,
          readVersion: async () => {
            await this.query(
              'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)',
            );
            const rows = await this.query('SELECT MAX(version) AS v FROM schema_version');
            return Number(rows[0]?.v ?? 0);
          },
          apply: async (sql, version) => {
            await this.query(sql);
            await this.query('INSERT INTO schema_version (version, applied_at) VALUES ($1, $2)', [
              version,
              new Date().toISOString(),
            ]);
          },
        },
        this.logger,
      );
      await this.query(CHANGE_NOTIFY_SQL);
    });
  }

  async verifySchema(): Promise<void> {
    const table = await this.query("SELECT to_regclass('schema_version') IS NOT NULL AS present");
    const rows = table[0]?.present ? await this.query('SELECT MAX(version) AS v FROM schema_version') : [];
    const version = Number(rows[0]?.v ?? 0);
    assertKnownVersion(version, this.location);
    if (version === 0)
      throw new StoreError(`there is no pool in ${this.location} (schema ${this.schema}) yet`, 'not-found');
    if (version < oldestReadableVersion('postgres')) throw olderSchemaError(this.location, version);
  }

  async close(): Promise<void> {
    await this.listener?.stop();
    await this.analyzing;
    await this.cleaning;
    if (this.pool.ended) return;
    await this.pool.end();
  }

  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.handle.transaction(fn);
  }

  /**
   * A transaction holding the tenant's advisory lock (released by COMMIT or ROLLBACK): writers of
   * one tenant take turns across every replica; under READ COMMITTED each statement after the
   * lock sees what the previous holder committed. The vector index is kept exact too: each holder
   * leaves a new write mark in `state`; a mark this process did not leave means another replica
   * learned meanwhile, and the index is reloaded before it is searched.
   */
  async tenantTransaction<T>(tenant: string, fn: () => Promise<T>): Promise<T> {
    return this.transaction(async () => {
      const key = tenant.toLowerCase();
      await this.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`memory-transfer:${this.schema}:tenant:${key}`]);
      const markKey = `tenant-writes:${key}`;
      const rows = await this.query('SELECT value FROM state WHERE key = $1', [markKey]);
      const mark = rows[0] ? String(rows[0].value) : undefined;
      if (mark !== this.writeMarks.get(key)) this.vectors.clear();
      const next = randomUUID();
      await this.setState(markKey, next);
      this.writeMarks.set(key, next);
      return fn();
    });
  }

  // memories

  async putMemory(memory: Memory): Promise<void> {
    const values = [...memoryToValues(memory), tagsText(memory.tags)];
    if (isSampled(memory)) {
      await this.query(UPSERT_MEMORY_KEEP_SOURCES, values);
    } else {
      await this.transaction(async () => {
        const rows = await this.query(UPSERT_MEMORY, values);
        const seq = rows[0]?.seq as string;
        // a new row has no provenance or sources yet: nothing to delete (two round trips fewer)
        if (rows[0]?.inserted !== true) {
          await this.query('DELETE FROM memory_provenance WHERE seq = $1', [seq]);
          await this.query('DELETE FROM memory_sources WHERE seq = $1', [seq]);
        }
        if (memory.provenance.length > 0) {
          const rows = memory.provenance.map((entry, i) => provenanceRow(entry, i));
          await this.query(
            `INSERT INTO memory_provenance (seq, pos, repo, ref, entry)
             SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[])`,
            [seq, rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2]), rows.map((r) => r[3])],
          );
        }
        await this.query(
          'INSERT INTO memory_sources (seq, repo) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING',
          [seq, memoryRepos(memory)],
        );
      });
    }
    this.noteMemoryWrite(memory.tenant, memory.id);
    this.vectors.updateMeta(memory.tenant, memory.id, { level: memory.level, status: memory.status });
  }

  async appendProvenance(tenant: string, id: string, entry: Provenance): Promise<boolean> {
    const added = await this.transaction(async () => {
      // the row lock orders concurrent appends to one memory
      const rows = await this.query(
        'SELECT seq, provenance, provenance_count FROM memories WHERE tenant = $1 AND id = $2 FOR UPDATE',
        [tenant, id],
      );
      const row = rows[0];
      if (!row) throw new StoreError(`there is no memory "${id}" in the pool of ${tenant}`, 'not-found');
      const next = await this.query(
        `SELECT (SELECT MAX(pos) FROM memory_provenance WHERE seq = $1) AS pos,
                EXISTS (SELECT 1 FROM memory_provenance WHERE seq = $1 AND repo = $2 AND ref = $3) AS dup`,
        [row.seq, entry.repo.toLowerCase(), entry.ref],
      );
      if (next[0]?.dup === true) return false;
      const last = next[0]?.pos;
      const [pos, repo, ref, json] = provenanceRow(entry, last == null ? 0 : Number(last) + 1);
      await this.query('INSERT INTO memory_provenance (seq, pos, repo, ref, entry) VALUES ($1, $2, $3, $4, $5)', [
        row.seq,
        pos,
        repo,
        ref,
        json,
      ]);
      await this.query('INSERT INTO memory_sources (seq, repo) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
        row.seq,
        repo,
      ]);
      const sample = sampleWith(JSON.parse(String(row.provenance)) as Provenance[], entry);
      await this.query('UPDATE memories SET provenance = $1, provenance_count = $2 WHERE seq = $3', [
        JSON.stringify(sample),
        Number(row.provenance_count) + 1,
        row.seq,
      ]);
      return true;
    });
    // no text changed: the term counts stand (as in SQLite, which counts the same writes)
    if (added) this.noteMemoryWrite(tenant, id, false);
    return added;
  }

  /** memories from their rows, with complete provenance */
  private full(rows: Row[]): Promise<Memory[]> {
    return withFullProvenance(rows, async (seqs) =>
      (
        await this.query('SELECT seq, entry FROM memory_provenance WHERE seq = ANY($1::bigint[]) ORDER BY seq, pos', [
          seqs,
        ])
      ).map((r) => ({ seq: r.seq, entry: String(r.entry) })),
    );
  }

  async getMemory(tenant: string, id: string, options: ReadOptions = {}): Promise<Memory | undefined> {
    const rows = await this.query(`SELECT ${READ_COLUMNS} FROM memories WHERE tenant = $1 AND id = $2`, [tenant, id]);
    if (!rows[0]) return undefined;
    if (options.provenance === 'sample') return rowToMemory(rows[0]);
    return (await this.full(rows))[0];
  }

  async getMemories(tenant: string, ids: string[], options: ReadOptions = {}): Promise<Memory[]> {
    if (ids.length === 0) return [];
    const rows = await this.query(`SELECT ${READ_COLUMNS} FROM memories WHERE tenant = $1 AND id = ANY($2::text[])`, [
      tenant,
      ids,
    ]);
    const memories = options.provenance === 'sample' ? rows.map((row) => rowToMemory(row)) : await this.full(rows);
    const byId = new Map(memories.map((memory) => [memory.id, memory]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** Cached while other replicas' writes are heard; outside transactions (their writes are not everyone's). */
  async readMemories(tenant: string, ids: string[]): Promise<readonly Memory[]> {
    const sample = { provenance: 'sample' } as const;
    if (!this.listener?.listening || this.handle.inTransaction) return this.getMemories(tenant, ids, sample);
    return this.reads.memories(tenant, ids, (missing) => this.getMemories(tenant, missing, sample));
  }

  /** Exact while other replicas' writes are heard; undefined (nothing may be cached) otherwise. */
  async poolGeneration(tenant: string): Promise<string | undefined> {
    return this.listener?.listening ? String(this.reads.generation(tenant)) : undefined;
  }

  async listMemories(tenant: string, filter: MemoryFilter = {}): Promise<Memory[]> {
    const { where, params } = filterSql(tenant, filter);
    params.push(filter.limit ?? null, filter.offset ?? 0);
    const rows = await this.query(
      `SELECT m.seq, ${MEMORY_COLUMNS.map((c) => `m.${c}`).join(', ')} FROM memories m WHERE ${where}
       ORDER BY m.updated_at DESC, m.id LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    return this.full(rows);
  }

  async countMemories(tenant: string, filter: MemoryFilter = {}): Promise<number> {
    const { where, params } = filterSql(tenant, filter);
    const rows = await this.query(`SELECT COUNT(*)::int AS n FROM memories m WHERE ${where}`, params);
    return Number(rows[0]?.n ?? 0);
  }

  async deleteMemory(tenant: string, id: string): Promise<boolean> {
    const rows = await this.query('DELETE FROM memories WHERE tenant = $1 AND id = $2 RETURNING seq', [tenant, id]);
    if (rows.length === 0) return false;
    this.noteMemoryWrite(tenant, id);
    this.vectors.remove(tenant, id);
    return true;
  }

  /** after a memory row was written; `text` false: its text is unchanged (term counts stand) */
  private noteMemoryWrite(tenant: string, id: string, text = true): void {
    this.handle.noteWrite();
    if (text) this.termStats.noteWrite();
    this.cleanWhenWritten();
    this.reads.invalidateMemory(tenant, id);
  }

  async listTenants(): Promise<string[]> {
    const rows = await this.query(
      `SELECT tenant FROM memories UNION SELECT tenant FROM fixes UNION SELECT tenant FROM audit UNION SELECT tenant FROM usage
       ORDER BY tenant`,
    );
    return rows.map((r) => String(r.tenant));
  }

  // retrieval

  async searchLexical(tenant: string, query: string, options: SearchOptions): Promise<ScoredId[]> {
    const search = lexicalSearch(query, options);
    if (!search) return [];
    const { tokens, levels, key } = search;
    // inside a transaction (a create-or-merge decision) the answer is read, never cached
    if (this.handle.inTransaction) return this.searchTokens(tenant, query, tokens, levels, options);
    return this.reads.search(tenant, key, () => this.searchTokens(tenant, query, tokens, levels, options));
  }

  /** the tsvector index fetches the candidates (by ts_rank), the shared formula orders them (core/lexical-rank.ts) */
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
      const rows = await this.query(sql, params);
      hits.push(...rows.map((r) => ({ id: String(r.id), score: Number(r.score) })));
    }
    if (levels.length > 1) hits.sort((a, b) => b.score - a.score);
    const candidates = await this.readMemories(
      tenant,
      hits.slice(0, fetch).map((hit) => hit.id),
    );
    return rankLexically(query, candidates, options.limit);
  }

  async putVector(tenant: string, id: string, vector: Float32Array, model: string): Promise<void> {
    const rows = await this.query(
      `INSERT INTO vectors (seq, model, dims, data)
       SELECT seq, $3, $4, $5 FROM memories WHERE tenant = $1 AND id = $2
       ON CONFLICT (seq, model) DO UPDATE SET dims = excluded.dims, data = excluded.data
       RETURNING (SELECT level FROM memories WHERE tenant = $1 AND id = $2) AS level,
                 (SELECT status FROM memories WHERE tenant = $1 AND id = $2) AS status`,
      [tenant, id, model, vector.length, vectorToBytes(vector)],
    );
    const row = rows[0];
    if (!row) throw new StoreError(`no memory ${id} in ${tenant} to attach a vector to`, 'not-found');
    this.vectors.upsertVector(tenant, model, id, vector, {
      level: row.level as MemoryLevel,
      status: row.status as MemoryStatus,
    });
    this.reads.invalidateMemory(tenant, id);
  }

  searchVector(tenant: string, vector: Float32Array, model: string, options: SearchOptions): Promise<ScoredId[]> {
    return this.vectors.search(tenant, model, vector, options);
  }

  async listIdsWithoutVector(tenant: string, model: string, levels: MemoryLevel[]): Promise<string[]> {
    const rows = await this.query(
      `SELECT m.id FROM memories m WHERE m.tenant = $1 AND m.level = ANY($2::text[])
         AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.seq = m.seq AND v.model = $3) ORDER BY m.seq`,
      [tenant, levels, model],
    );
    return rows.map((r) => String(r.id));
  }

  /** the stored Float32 vectors of these ids (see VectorReader): what a search re-scores exactly */
  private async readVectors(tenant: string, model: string, ids: string[]): Promise<Map<string, Uint8Array>> {
    const rows = await this.query(
      `SELECT m.id, v.data FROM memories m JOIN vectors v ON v.seq = m.seq AND v.model = $2
       WHERE m.tenant = $1 AND m.id = ANY($3::text[])`,
      [tenant, model, ids],
    );
    return new Map(rows.map((r) => [String(r.id), r.data as Buffer]));
  }

  /** every vector of the tenant and model, in pages by seq (see VectorLoader; the index encodes each) */
  private async loadVectors(tenant: string, model: string, sink: VectorSink): Promise<void> {
    const page = (after: string): Promise<Row[]> =>
      this.query(
        `SELECT v.seq, m.id, m.level, m.status, v.data FROM vectors v JOIN memories m ON m.seq = v.seq
         WHERE m.tenant = $1 AND v.model = $2 AND v.seq > $3 ORDER BY v.seq LIMIT $4`,
        [tenant, model, after, VECTOR_PAGE_ROWS],
      );
    // pipelined: the next page is read while this one is encoded into the index
    let next: Promise<Row[]> | undefined = page('-1');
    next.catch(() => undefined);
    while (next) {
      const rows: Row[] = await next;
      const last = rows[rows.length - 1];
      next = rows.length === VECTOR_PAGE_ROWS && last ? page(String(last.seq)) : undefined;
      next?.catch(() => undefined);
      for (const r of rows) {
        sink.add({
          id: String(r.id),
          level: r.level as MemoryLevel,
          status: r.status as MemoryStatus,
          data: r.data as Buffer,
        });
      }
    }
  }

  async stats(tenant: string): Promise<PoolStats> {
    const groups = await this.query(
      'SELECT level, status, COUNT(*)::int AS n FROM memories WHERE tenant = $1 GROUP BY level, status',
      [tenant],
    );
    const repos = await this.query(
      'SELECT COUNT(DISTINCT s.repo)::int AS n FROM memory_sources s JOIN memories m ON m.seq = s.seq WHERE m.tenant = $1',
      [tenant],
    );
    const fixes = await this.query(
      'SELECT COUNT(*)::int AS n, COUNT(fallback)::int AS f FROM fixes WHERE tenant = $1',
      [tenant],
    );
    return statsFrom(
      groups.map((g) => ({ level: String(g.level), status: String(g.status), n: Number(g.n) })),
      Number(repos[0]?.n ?? 0),
      Number(fixes[0]?.n ?? 0),
      Number(fixes[0]?.f ?? 0),
    );
  }

  /** runs on the transaction's connection when inside one, else on any pooled connection */
  private query(sql: string, params: unknown[] = []): Promise<Row[]> {
    return this.handle.query(sql, params);
  }
}

/** the WHERE clause (over alias m) and its parameters for a MemoryFilter */
function filterSql(tenant: string, filter: MemoryFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [tenant];
  let where = 'm.tenant = $1';
  if (filter.status) {
    params.push(filter.status);
    where += ` AND m.status = ANY($${params.length}::text[])`;
  }
  if (filter.level) {
    params.push(filter.level);
    where += ` AND m.level = ANY($${params.length}::text[])`;
  }
  if (filter.repo !== undefined) {
    params.push(filter.repo.toLowerCase());
    where += ` AND m.seq IN (SELECT seq FROM memory_sources WHERE repo = $${params.length})`;
  }
  return { where, params };
}
