/**
 * What a PostgreSQL store caches in this process, and how it hears other replicas' writes
 * (LISTEN/NOTIFY, pg-change-listener.ts) to keep it in step: parsed memories and recent full-text
 * results, and the vector index.
 */
import type { MemoryLevel, MemoryStatus } from '../../core/types.js';
import type { Logger } from '../../ports/index.js';
import { CHANGE_CHANNEL, ChangeListener } from '../pg-change-listener.js';
import { ReadCache } from '../read-cache.js';
import { bytesToVector, VectorCache } from '../vector-cache.js';
import type { PostgresHandle } from './handle.js';
import { loadVectors, readVectors } from './vectors.js';

/**
 * How long a full-text result is reused while other replicas' writes are not heard (see
 * PostgresStoreOptions.listen). This process's own memory writes drop the results at once; another
 * replica's show within this time. Only candidates come from it: recall re-reads every candidate
 * (uncached, while not listening) before filtering, so a forgotten, rejected or narrowed insight
 * never shows.
 */
export const SEARCH_TTL_MS = 10_000;

export class PostgresCaches {
  /**
   * parsed memories and recent full-text results: this process's writes drop what they touch at
   * once, other replicas' writes when their notification arrives; while notifications are not
   * heard, only full-text results are kept, for searchTtlMs
   */
  readonly reads: ReadCache;
  /** every tenant's vector index (per model), loaded on its first search */
  readonly vectors: VectorCache;
  /** other replicas' writes, heard (undefined when the listen option is off) */
  private listener: ChangeListener | undefined;
  /** refreshes of the vector index after other replicas' writes, one at a time, in arrival order */
  private vectorRefresh: Promise<void> = Promise.resolve();

  constructor(
    private readonly handle: PostgresHandle,
    private readonly logger: Logger,
    searchTtlMs: number,
  ) {
    this.vectors = new VectorCache(
      (tenant, model, sink) => loadVectors(handle, tenant, model, sink),
      (tenant, model, ids) => readVectors(handle, tenant, model, ids),
    );
    this.reads = new ReadCache({ searchTtlMs: () => (this.listening ? Infinity : searchTtlMs) });
    handle.onRollback(() => this.vectors.clear());
    // searches that ran meanwhile on other connections did not see the transaction's writes
    handle.onWritten(() => this.reads.clear());
  }

  /** whether other replicas' writes are heard now */
  get listening(): boolean {
    return this.listener?.listening === true;
  }

  /** Hears other replicas' writes from now on (see PostgresStoreOptions.listen). */
  listen(location: string, schema: string, retryMs: number | undefined): Promise<void> {
    this.listener = new ChangeListener({
      location,
      schema,
      logger: this.logger,
      ...(retryMs !== undefined ? { retryMs } : {}),
      onChange: (tenant, id) => {
        this.reads.invalidateMemory(tenant, id);
        this.refreshVector(tenant, id);
      },
      notify: async (payload) => {
        await this.handle.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, payload]);
      },
      // what changed while not listening is unknown: drop everything
      onListening: () => this.forget(),
      onLost: () => this.forget(),
    });
    return this.listener.start();
  }

  /** stops hearing other replicas' writes */
  async stop(): Promise<void> {
    await this.listener?.stop();
  }

  /** drops everything cached */
  forget(): void {
    this.reads.clear();
    this.vectors.clear();
  }

  /** Brings the loaded vector index in step with another replica's write of one memory. */
  private refreshVector(tenant: string, id: string): void {
    if (!this.vectors.loaded(tenant)) return;
    this.vectorRefresh = this.vectorRefresh
      .then(async () => {
        const rows = await this.handle.query(
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
}
