/**
 * The connection pool of a PostgreSQL store, shared by every role: a statement runs on the
 * transaction's connection when inside one, else on any pooled connection.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import { InputError, StoreError } from '../../core/errors.js';
import type { Row, SqlDialect, SqlHandle, SqlParam } from '../sql/handle.js';

export const POSTGRES_DIALECT: SqlDialect = {
  lockNextJob: ' FOR UPDATE SKIP LOCKED',
  byteOrder: ' COLLATE "C"',
  // 5 parameters each, well under PostgreSQL's 65,535
  jobRowsPerInsert: 500,
  padJobRows: false,
};

export class PostgresHandle implements SqlHandle {
  readonly dialect = POSTGRES_DIALECT;
  private readonly client = new AsyncLocalStorage<pg.PoolClient>();
  /** writes noted so far (see onWritten) */
  private writes = 0;
  private readonly rollbackListeners: (() => void)[] = [];
  private readonly writtenListeners: (() => void)[] = [];

  constructor(
    readonly pool: pg.Pool,
    /** the location without its password, for messages */
    readonly location: string,
  ) {}

  /** tells `listener` of every rolled-back transaction (caches filled by its writes are wrong) */
  onRollback(listener: () => void): void {
    this.rollbackListeners.push(listener);
  }

  /**
   * tells `listener` when a transaction that noted a write (noteWrite) ends, committed or not:
   * results cached meanwhile from other connections did not see its writes
   */
  onWritten(listener: () => void): void {
    this.writtenListeners.push(listener);
  }

  /** whether the caller runs inside a transaction of this handle */
  get inTransaction(): boolean {
    return this.client.getStore() !== undefined;
  }

  /** runs on the transaction's connection when inside one, else on any pooled connection */
  async query(sql: string, params: unknown[] = []): Promise<Row[]> {
    return (await this.execute(sql, params)).rows as Row[];
  }

  all(sql: string, params: SqlParam[] = []): Promise<Row[]> {
    return this.query(sql, params);
  }

  async run(sql: string, params: SqlParam[] = []): Promise<number> {
    return (await this.execute(sql, params)).rowCount ?? 0;
  }

  returning(sql: string, params: SqlParam[] = []): Promise<Row[]> {
    return this.query(sql, params);
  }

  /** a write the caches follow (see onWritten) */
  noteWrite(): void {
    this.writes += 1;
  }

  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.inTransaction) return fn();
    const client = await this.connect();
    const writesBefore = this.writes;
    try {
      await client.query('BEGIN');
      const result = await this.client.run(client, fn);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      for (const listener of this.rollbackListeners) listener();
      throw pgError(error, this.location);
    } finally {
      if (this.writes !== writesBefore) for (const listener of this.writtenListeners) listener();
      client.release();
    }
  }

  private async execute(sql: string, params: unknown[]): Promise<pg.QueryResult> {
    const target: pg.Pool | pg.PoolClient = this.client.getStore() ?? this.pool;
    try {
      return await target.query(sql, params);
    } catch (error) {
      throw pgError(error, this.location);
    }
  }

  private async connect(): Promise<pg.PoolClient> {
    try {
      return await this.pool.connect();
    } catch (error) {
      throw pgError(error, this.location);
    }
  }
}

/** Maps a pg/network error to the StoreError a user can act on; others pass through unchanged. */
export function pgError(error: unknown, location: string): unknown {
  if (error instanceof StoreError || error instanceof InputError) return error;
  const code = (error as { code?: string } | null)?.code;
  if (
    code === 'ECONNREFUSED' ||
    code === 'ENOTFOUND' ||
    code === 'ETIMEDOUT' ||
    code === 'ECONNRESET' ||
    code === '28P01' ||
    code === '3D000'
  ) {
    return new StoreError(`cannot connect to the pool ${location}: ${(error as Error).message}`, 'io');
  }
  if (code === '55P03' || code === '40P01')
    return new StoreError(`the pool ${location} is locked: ${(error as Error).message}`, 'locked');
  return error;
}
