/**
 * The connection handle every role of a store shares, as the roles whose SQL both engines agree on
 * (store/sql/) use it. Their statements are written once, PostgreSQL-style (`$1`, `$2`, … a number
 * may repeat); the SQLite handle binds them as `?1`, `?2`. What the engines say differently is in
 * the handle's dialect.
 */
export type Row = Record<string, unknown>;
export type SqlParam = string | number | bigint | null | Buffer | Uint8Array;

export interface SqlDialect {
  /** appended to the subquery that picks the next due job (PostgreSQL: rows another claimer holds are skipped) */
  lockNextJob: string;
  /** makes ORDER BY of a text column compare bytes */
  byteOrder: string;
  /** rows per INSERT of enqueueJobs */
  jobRowsPerInsert: number;
  /** pad an INSERT of jobs to a power of two rows (repeats of its last job), so a few statements serve every batch */
  padJobRows: boolean;
}

export interface SqlHandle {
  readonly dialect: SqlDialect;
  /** a read: the rows */
  all(sql: string, params?: SqlParam[]): Promise<Row[]>;
  /** a write of one statement (SQLite: in turn with every other writer, or inside the current transaction): rows changed */
  run(sql: string, params?: SqlParam[]): Promise<number>;
  /** a write of one statement whose RETURNING rows are wanted */
  returning(sql: string, params?: SqlParam[]): Promise<Row[]>;
  /** runs fn atomically; nested calls join the outer transaction */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
}
