/**
 * The PostgreSQL Store, for teams that run the App at scale: same contract as the SQLite store.
 * Full text through a generated, weighted tsvector column (GIN index): ts_rank fetches the
 * candidates, core/retrieval/lexical-rank.ts orders them; jobs claimed with FOR UPDATE SKIP LOCKED; vectors
 * as bytea searched through the in-memory index (pgvector is not required). Option `schema`
 * isolates a pool inside a database (tests use it). Each role lives in its own module
 * (store/postgres/, store/sql/); this class is the pool itself.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { InputError, StoreError } from '../core/errors.js';
import type { Logger } from '../ports/index.js';
import { silentLogger } from '../ports/index.js';
import { ComposedStore } from './composed-store.js';
import { assertKnownVersion, olderSchemaError, oldestReadableVersion, runMigrations } from './migrations.js';
import { CHANGE_NOTIFY_SQL } from './pg-change-listener.js';
import { PostgresCaches, SEARCH_TTL_MS } from './postgres/caches.js';
import { PostgresHandle } from './postgres/handle.js';
import { PostgresMemoryStore } from './postgres/memories.js';
import { PostgresUpkeep } from './postgres/upkeep.js';
import { PostgresVectorStore } from './postgres/vectors.js';
import { SqlAuditLog } from './sql/audit.js';
import { SqlFixLedger } from './sql/fixes.js';
import type { Row } from './sql/handle.js';
import { SqlJobQueue } from './sql/jobs.js';
import { listTenants, poolStats } from './sql/pool-figures.js';
import { SqlStateStore } from './sql/state.js';
import { SqlUsageLog } from './sql/usage.js';
import type { PoolStats, Store } from './store.js';

export { SEARCH_TTL_MS } from './postgres/caches.js';
export { ANALYZE_GROWTH, ANALYZE_MIN_ROWS, GIN_CLEAN_WRITES } from './postgres/upkeep.js';

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

/** the location without its password, for messages */
function safeLocation(location: string): string {
  return location.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}

export class PostgresStore extends ComposedStore implements Store {
  /** per tenant, the write mark this process's last tenant transaction left (see tenantTransaction) */
  private readonly writeMarks = new Map<string, string>();
  private readonly pool: pg.Pool;
  readonly location: string;

  private constructor(
    private readonly handle: PostgresHandle,
    private readonly schema: string,
    private readonly logger: Logger,
    private readonly caches: PostgresCaches,
    private readonly upkeep: PostgresUpkeep,
  ) {
    super({
      memories: new PostgresMemoryStore(handle, caches, upkeep),
      vectors: new PostgresVectorStore(handle, caches),
      fixes: new SqlFixLedger(handle),
      jobs: new SqlJobQueue(handle),
      state: new SqlStateStore(handle),
      audit: new SqlAuditLog(handle),
      usage: new SqlUsageLog(handle),
    });
    this.pool = handle.pool;
    this.location = handle.location;
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
    const logger = options.logger ?? silentLogger;
    const handle = new PostgresHandle(pool, safeLocation(location));
    const store = new PostgresStore(
      handle,
      schema,
      logger,
      new PostgresCaches(handle, logger, options.searchTtlMs ?? SEARCH_TTL_MS),
      new PostgresUpkeep(pool, logger, options.readOnly ?? false),
    );
    try {
      if (!options.readOnly) await store.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw error;
    }
    if (options.listen ?? true) await store.caches.listen(location, schema, options.listenRetryMs);
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
          apply: async (sql, version, data) => {
            await this.query(sql);
            await data?.({
              all: async <T>(statement: string, params?: unknown[]) => (await this.query(statement, params)) as T[],
              run: (statement, params) => this.query(statement, params),
            });
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
    await this.caches.stop();
    await this.upkeep.settled();
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
      if (mark !== this.writeMarks.get(key)) this.caches.vectors.clear();
      const next = randomUUID();
      await this.setState(markKey, next);
      this.writeMarks.set(key, next);
      return fn();
    });
  }

  listTenants(): Promise<string[]> {
    return listTenants(this.handle);
  }

  stats(tenant: string): Promise<PoolStats> {
    return poolStats(this.handle, tenant);
  }

  /** runs on the transaction's connection when inside one, else on any pooled connection */
  private query(sql: string, params: unknown[] = []): Promise<Row[]> {
    return this.handle.query(sql, params);
  }
}
