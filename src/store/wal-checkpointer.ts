/**
 * Checkpoints a pool's write-ahead log from a connection of its own, on a timer: SQLite's
 * automatic checkpoint would otherwise run inside the commit that crosses its threshold, copying
 * the WAL into the database file and syncing it before that commit returns (on a burst of webhook
 * deliveries, tens of milliseconds added to one acknowledgement). A PASSIVE checkpoint waits for
 * nobody: readers and writers go on meanwhile, and frames still in use are copied next time.
 * The pool's own connection sets `wal_autocheckpoint = 0`; the WAL is folded back here.
 */
import type { Logger } from '../services/ports.js';
import { describeError } from '../core/errors.js';
import { SqliteConnection } from './sqlite-connection.js';

export class WalCheckpointer {
  private connection: Promise<SqliteConnection> | undefined;
  private running: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly path: string,
    private readonly logger: Logger,
    everyMs: number,
  ) {
    this.timer = setInterval(() => void this.checkpoint(), everyMs);
    this.timer.unref();
  }

  /** one PASSIVE checkpoint (skipped while the previous one still runs); errors are logged, never thrown */
  checkpoint(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.running ??= this.open()
      .then((db) => db.get('PRAGMA wal_checkpoint(PASSIVE)'))
      .then(
        () => undefined,
        (error: unknown) => this.logger.warn('WAL checkpoint failed', { pool: this.path, error: describeError(error) }),
      )
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /** stops the timer and closes the connection (the pool's last connection folds the WAL back on close) */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.running;
    const db = await this.connection?.catch(() => undefined);
    await db?.close();
  }

  private open(): Promise<SqliteConnection> {
    this.connection ??= SqliteConnection.open(this.path).then(
      (db) => {
        db.setBusyTimeout(1_000);
        return db;
      },
      (error: unknown) => {
        this.connection = undefined; // try again next time
        throw error;
      },
    );
    return this.connection;
  }
}
