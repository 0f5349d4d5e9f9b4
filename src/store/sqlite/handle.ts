/**
 * The one connection of a SQLite pool, shared by every role of the store. Writes are serialized
 * in-process (a promise queue) so concurrent async callers never interleave statements inside each
 * other's transaction; reads are not queued.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { StoreError } from '../../core/errors.js';
import type { Logger } from '../../ports/index.js';
import type { SqliteConnection } from '../sqlite-connection.js';
import type { Row, SqlDialect, SqlHandle, SqlParam } from '../sql/handle.js';

export const SQLITE_DIALECT: SqlDialect = {
  lockNextJob: '',
  byteOrder: '',
  // larger statements were slower (rows of 29 KB webhook bodies; docs/quality.md)
  jobRowsPerInsert: 16,
  padJobRows: true,
};

/** tries of BEGIN IMMEDIATE, each waiting up to the busy timeout, before the pool counts as locked */
const BEGIN_ATTEMPTS = 4;

/** `$1` → `?1`: the shared SQL of store/sql/ as SQLite binds it (by number, from an array) */
const numbered = new Map<string, string>();
function sqliteSql(sql: string): string {
  let text = numbered.get(sql);
  if (text === undefined) {
    text = sql.replace(/\$(\d+)/g, '?$1');
    numbered.set(sql, text);
  }
  return text;
}

export class SqliteHandle implements SqlHandle {
  readonly dialect = SQLITE_DIALECT;
  private readonly inTransactionNow = new AsyncLocalStorage<true>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly rollbackListeners: (() => void)[] = [];

  constructor(
    readonly db: SqliteConnection,
    readonly path: string,
    private readonly logger: Logger,
  ) {}

  /** tells `listener` of every rolled-back transaction (caches filled by its writes are wrong) */
  onRollback(listener: () => void): void {
    this.rollbackListeners.push(listener);
  }

  /** whether the caller runs inside a transaction of this handle */
  get inTransaction(): boolean {
    return this.inTransactionNow.getStore() === true;
  }

  all(sql: string, params: SqlParam[] = []): Promise<Row[]> {
    return this.db.all(sqliteSql(sql), params);
  }

  async run(sql: string, params: SqlParam[] = []): Promise<number> {
    return (await this.write(() => this.db.run(sqliteSql(sql), params))).changes;
  }

  returning(sql: string, params: SqlParam[] = []): Promise<Row[]> {
    return this.write(() => this.db.all(sqliteSql(sql), params));
  }

  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.inTransaction) return fn();
    return this.serialized(async () => {
      await this.begin();
      try {
        const result = await this.inTransactionNow.run(true, fn);
        await this.db.exec('COMMIT');
        return result;
      } catch (error) {
        await this.db.exec('ROLLBACK').catch(() => undefined);
        for (const listener of this.rollbackListeners) listener();
        throw error;
      }
    });
  }

  /** a single-statement write: joins the current transaction, or waits its turn in the queue */
  write<T>(fn: () => Promise<T>): Promise<T> {
    return this.inTransaction ? fn() : this.serialized(fn);
  }

  /** runs fn after every write queued before it; the queue never stalls on a failure */
  serialized<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** waits for every queued write (before closing) */
  async drain(): Promise<void> {
    await this.queue;
  }

  /**
   * BEGIN IMMEDIATE takes the write lock at once, so every transaction is serialized with every
   * other writer of the file (this process's are already queued). The busy timeout waits for
   * another process's lock; a transaction still refused after it is tried again a few times
   * (nothing of it ran yet) before StoreError('locked') reaches the caller.
   */
  private async begin(): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.db.exec('BEGIN IMMEDIATE');
        return;
      } catch (error) {
        if (!(error instanceof StoreError && error.code === 'locked') || attempt >= BEGIN_ATTEMPTS) throw error;
        this.logger.warn('the pool is locked by another process; waiting again', { path: this.path, attempt });
      }
    }
  }
}
