/**
 * Upkeep of a PostgreSQL pool's full-text index that the server's autovacuum may not do in time,
 * run in the background on connections of their own: the planner's statistics of `memories`,
 * and the merge of the GIN index's pending list. Answers are the same either way; only their
 * cost changes.
 */
import type pg from 'pg';
import type { Logger } from '../../ports/index.js';

/** memories is analyzed again once it holds this many times the rows its last ANALYZE counted… */
export const ANALYZE_GROWTH = 1.2;
/** …plus this many (a new, never analyzed table: once it holds more) */
export const ANALYZE_MIN_ROWS = 100;
/** the full-text index's pending list is merged into the index after this many memory writes */
export const GIN_CLEAN_WRITES = 100;

export class PostgresUpkeep {
  /** the ANALYZE of memories under way (see analyzeWhenGrown) */
  private analyzing: Promise<void> | undefined;
  /** the merge of the full-text index's pending list under way (see cleanWhenWritten) */
  private cleaning: Promise<void> | undefined;
  /** memory writes since the last merge of the pending list; undefined once the server refused one */
  private writesSinceClean: number | undefined = 0;

  /** `readOnly`: a store that only reads changes nothing, statistics included */
  constructor(
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
    private readonly readOnly: boolean,
  ) {}

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
  analyzeWhenGrown(rows: number): void {
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
  cleanWhenWritten(): void {
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

  /** waits for the upkeep under way (before the pool is closed) */
  async settled(): Promise<void> {
    await this.analyzing;
    await this.cleaning;
  }
}
