/**
 * A tiny promise wrapper over one `sqlite3` connection: cached prepared statements, and every
 * driver error translated into a StoreError that names the pool file (corrupt, locked, io).
 */
import sqlite3 from 'sqlite3';
import { StoreError } from '../core/errors.js';

export type SqlValue = string | number | bigint | null | Buffer | Uint8Array;
export type Row = Record<string, unknown>;

export interface RunResult {
  changes: number;
  lastID: number;
}

/** Maps a driver error to the StoreError a user can act on; other errors pass through unchanged. */
export function sqliteError(error: unknown, path: string): unknown {
  const code = (error as { code?: string } | null)?.code;
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return new StoreError(`the pool ${path} is locked by another process (timed out waiting for it)`, 'locked');
  }
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return new StoreError(
      `the pool ${path} is not a memory-transfer pool or is corrupt (not a readable SQLite database)`,
      'corrupt',
    );
  }
  if (code === 'SQLITE_CANTOPEN' || code === 'SQLITE_IOERR' || code === 'SQLITE_READONLY' || code === 'SQLITE_FULL') {
    return new StoreError(`the pool ${path} cannot be opened or written (${code})`, 'io');
  }
  return error;
}

export class SqliteConnection {
  private readonly statements = new Map<string, sqlite3.Statement>();

  private constructor(
    private readonly db: sqlite3.Database,
    readonly path: string,
  ) {}

  /** read-only: the file must exist and is never written through this connection */
  static open(path: string, options: { readOnly?: boolean } = {}): Promise<SqliteConnection> {
    const mode = options.readOnly ? sqlite3.OPEN_READONLY : sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE;
    return new Promise((resolve, reject) => {
      const db = new sqlite3.Database(path, mode, (error) => {
        if (error) reject(sqliteError(error, path));
        else resolve(new SqliteConnection(db, path));
      });
    });
  }

  setBusyTimeout(ms: number): void {
    this.db.configure('busyTimeout', ms);
  }

  /** runs one or more statements without parameters (schema, pragmas, BEGIN/COMMIT) */
  exec(sql: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.db.exec(sql, (error) => (error ? reject(sqliteError(error, this.path)) : resolve()));
    });
  }

  run(sql: string, params: SqlValue[] = []): Promise<RunResult> {
    const statement = this.prepare(sql);
    return new Promise((resolve, reject) => {
      statement.run(params, function (this: sqlite3.RunResult, error: Error | null) {
        if (error) reject(error);
        else resolve({ changes: this.changes, lastID: this.lastID });
      });
    }).catch((error: unknown) => {
      this.forget(sql);
      throw sqliteError(error, this.path);
    }) as Promise<RunResult>;
  }

  all<T = Row>(sql: string, params: SqlValue[] = []): Promise<T[]> {
    const statement = this.prepare(sql);
    return new Promise<T[]>((resolve, reject) => {
      statement.all(params, (error: Error | null, rows: T[]) => {
        if (!error) return resolve(rows);
        this.forget(sql);
        reject(sqliteError(error, this.path));
      });
    });
  }

  async get<T = Row>(sql: string, params: SqlValue[] = []): Promise<T | undefined> {
    const rows = await this.all<T>(sql, params);
    return rows[0];
  }

  private closed = false;

  /** closes the connection; closing again does nothing */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const statements = [...this.statements.values()];
    this.statements.clear();
    await Promise.all(statements.map((s) => new Promise<void>((resolve) => s.finalize(() => resolve()))));
    await new Promise<void>((resolve, reject) => {
      this.db.close((error) => (error ? reject(sqliteError(error, this.path)) : resolve()));
    });
  }

  /** drops a cached statement after an error, so a failed preparation is not reused */
  private forget(sql: string): void {
    const statement = this.statements.get(sql);
    this.statements.delete(sql);
    statement?.finalize(() => undefined);
  }

  private prepare(sql: string): sqlite3.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      // errors in preparation surface on the first run/all through their callbacks
      statement = this.db.prepare(sql);
      statement.on('error', () => undefined);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
