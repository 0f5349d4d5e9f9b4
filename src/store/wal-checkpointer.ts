/**
 * Checkpoints a pool's write-ahead log from a connection of its own, on a timer: SQLite's
 * automatic checkpoint would otherwise run inside the commit that crosses its threshold, copying
 * the WAL into the database file and syncing it before that commit returns (on a burst of webhook
 * deliveries, tens of milliseconds added to one acknowledgement). A PASSIVE checkpoint waits for
 * nobody: readers and writers go on meanwhile, and frames still in use are copied next time.
 * The pool's own connection sets `wal_autocheckpoint = 0`; the WAL is folded back here.
 *
 * Under writes that never pause (a long learn), a PASSIVE checkpoint never catches up with the
 * last commit, so SQLite never starts the log over and it grows by every commit's pages (2.2 GB
 * over 11,000 learned fixes, with learning slowing as it grew). Once the log holds `restartFrames`
 * frames, the checkpoint that follows the PASSIVE one is a TRUNCATE: it waits (at most
 * RESTART_WAIT_MS) for the commit in progress, copies the few frames written since, and empties
 * the log; writers wait for it that long at most.
 *
 * A done job's raw delivery is cleared from its row (it may hold a secret: a token in a branch
 * name), but the log keeps the frames it was written in until they are overwritten, maybe dozens
 * of deliveries later. `truncateSoon()` (the store calls it when a job is done) makes the next
 * checkpoint a TRUNCATE as well, tried again on every tick until it succeeds: the log is emptied
 * within about one tick of the job's end, and the database file holds only the cleared row.
 */
import type { Logger } from '../ports/index.js';
import { describeError } from '../core/errors.js';
import { SqliteConnection } from './sqlite-connection.js';

/** frames (pages) in the log beyond which a checkpoint also empties it: 8,192 × 4 KiB = 32 MiB */
export const RESTART_FRAMES = 8_192;
/** how long that checkpoint waits for a writer or reader before giving up until next time */
const RESTART_WAIT_MS = 200;
/** the checkpoint connection's busy timeout otherwise */
const BUSY_MS = 1_000;

export class WalCheckpointer {
  private connection: Promise<SqliteConnection> | undefined;
  private running: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;
  private closed = false;
  /** a job's cleared delivery may still be in the log: empty it at the next checkpoint */
  private truncateDue = false;

  constructor(
    private readonly path: string,
    private readonly logger: Logger,
    everyMs: number,
    private readonly restartFrames = RESTART_FRAMES,
  ) {
    this.timer = setInterval(() => void this.checkpoint(), everyMs);
    this.timer.unref();
  }

  /** the log holds text that was cleared from the database: the next checkpoint empties it */
  truncateSoon(): void {
    this.truncateDue = true;
  }

  /**
   * one PASSIVE checkpoint, then a TRUNCATE one when the log has grown past `restartFrames` or
   * holds cleared text (skipped while the previous one still runs); errors are logged, never thrown
   */
  checkpoint(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.running ??= this.open()
      .then(async (db) => {
        const passive = await db.get<{ log: number }>('PRAGMA wal_checkpoint(PASSIVE)');
        if ((passive?.log ?? 0) < this.restartFrames && !this.truncateDue) return;
        // a job done from now on may have written after this checkpoint: it asks again
        const due = this.truncateDue;
        this.truncateDue = false;
        db.setBusyTimeout(RESTART_WAIT_MS);
        try {
          // busy (a long reader, another process's writer): not an error, tried again next time
          const truncated = await db.get<{ busy: number }>('PRAGMA wal_checkpoint(TRUNCATE)');
          if (truncated?.busy !== 0) this.truncateDue ||= due;
        } catch (error) {
          this.truncateDue ||= due;
          throw error;
        } finally {
          db.setBusyTimeout(BUSY_MS);
        }
      })
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
        db.setBusyTimeout(BUSY_MS);
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
