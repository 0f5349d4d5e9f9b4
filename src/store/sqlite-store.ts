/**
 * The default Store: one SQLite file (WAL, busy timeout, foreign keys), FTS5 full-text search
 * (bm25 fetches the candidates, core/retrieval/lexical-rank.ts orders them), vectors as Float32 BLOBs
 * searched through an in-memory index.
 *
 * This class is the pool itself (opening, schema, transactions); each role lives in its own module
 * (store/sqlite/, store/sql/), all sharing one connection (sqlite/handle.ts: writes serialized
 * in-process, so concurrent async callers never interleave statements inside each other's
 * transaction; reads are not queued).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { StoreError } from '../core/errors.js';
import type { Logger } from '../ports/index.js';
import { silentLogger } from '../ports/index.js';
import { ComposedStore } from './composed-store.js';
import {
  assertKnownVersion,
  olderSchemaError,
  oldestReadableVersion,
  ownedSqliteTables,
  runMigrations,
  SCHEMA_VERSION,
} from './migrations.js';
import { SqlAuditLog } from './sql/audit.js';
import { SqlFixLedger } from './sql/fixes.js';
import { SqlJobQueue } from './sql/jobs.js';
import { listTenants, poolStats } from './sql/pool-figures.js';
import { SqlStateStore } from './sql/state.js';
import { SqlUsageLog } from './sql/usage.js';
import { SqliteCaches } from './sqlite/caches.js';
import { SqliteHandle } from './sqlite/handle.js';
import { FTS_TABLES } from './sqlite/lexical-search.js';
import { SqliteMemoryStore } from './sqlite/memories.js';
import { SqliteVectorStore } from './sqlite/vectors.js';
import { SqliteConnection } from './sqlite-connection.js';
import type { PoolStats, Store } from './store.js';
import { WalCheckpointer } from './wal-checkpointer.js';

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

export class SqliteStore extends ComposedStore implements Store {
  /** checkpoints the WAL from a second connection, off every commit's path (file pools only) */
  private checkpointer: WalCheckpointer | undefined;
  private readonly db: SqliteConnection;
  readonly path: string;

  private constructor(
    private readonly handle: SqliteHandle,
    private readonly caches: SqliteCaches,
    private readonly logger: Logger,
  ) {
    super({
      memories: new SqliteMemoryStore(handle, caches),
      vectors: new SqliteVectorStore(handle, caches),
      fixes: new SqlFixLedger(handle),
      jobs: new SqlJobQueue(handle),
      state: new SqlStateStore(handle),
      audit: new SqlAuditLog(handle),
      usage: new SqlUsageLog(handle),
    });
    this.db = handle.db;
    this.path = handle.path;
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
    const handle = new SqliteHandle(db, path, logger);
    const store = new SqliteStore(handle, new SqliteCaches(handle), logger);
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
      await this.caches.syncWithOtherWriters(true);
      return fn();
    });
  }

  override async completeJob(id: number, claim?: number): Promise<boolean> {
    const done = await super.completeJob(id, claim);
    // the WAL still holds the frames of the delivery as it was received (docs/security.md, threat 18)
    if (done) this.checkpointer?.truncateSoon();
    return done;
  }

  listTenants(): Promise<string[]> {
    return listTenants(this.handle);
  }

  stats(tenant: string): Promise<PoolStats> {
    return poolStats(this.handle, tenant);
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
