/**
 * What the SQLite roles cache beside the one connection, kept in step by the writes of the roles:
 * parsed memories and recent full-text results, each query token's bm25 terms, and the vector
 * index. A rolled-back transaction, or a commit by another process (the CLI beside the App),
 * drops them all.
 */
import { ReadCache } from '../read-cache.js';
import { TokenTerms } from '../token-terms.js';
import { VectorCache } from '../vector-cache.js';
import type { SqliteHandle } from './handle.js';
import { loadTokenTerms } from './lexical-search.js';
import { loadVectors, readVectors } from './vectors.js';

export class SqliteCaches {
  /** each query token's bm25 terms (searches outside a transaction), dropped whenever `reads` is */
  readonly tokenTerms: TokenTerms;
  /** parsed memories and recent full-text results for recall */
  readonly reads: ReadCache;
  /** every tenant's vector index (per model), loaded on its first search */
  readonly vectors: VectorCache;
  /** PRAGMA data_version last seen: it changes when another connection (process) commits */
  private dataVersion: number | undefined;
  private versionCheck: Promise<void> | undefined;

  constructor(private readonly handle: SqliteHandle) {
    const db = handle.db;
    this.tokenTerms = new TokenTerms((level, tokens, cap) => loadTokenTerms(db, level, tokens, cap));
    this.reads = new ReadCache({ onChange: () => this.tokenTerms.clear() });
    this.vectors = new VectorCache(
      (tenant, model, sink) => loadVectors(db, tenant, model, sink),
      (tenant, model, ids) => readVectors(db, tenant, model, ids),
    );
    handle.onRollback(() => this.clear());
  }

  /**
   * Another process may have written the pool since the caches were filled: SQLite's
   * data_version changes when another connection commits, and then every cache is dropped.
   * Concurrent callers share one check; a `fresh` one (under the write lock) never joins one that
   * may have started before the lock.
   */
  syncWithOtherWriters(fresh = false): Promise<void> {
    if (fresh) this.versionCheck = undefined;
    this.versionCheck ??= this.handle.db
      .get<{ data_version: number }>('PRAGMA data_version')
      .then((row) => {
        const version = row?.data_version;
        if (this.dataVersion !== undefined && version !== this.dataVersion) this.clear();
        this.dataVersion = version;
      })
      .finally(() => {
        this.versionCheck = undefined;
      });
    return this.versionCheck;
  }

  private clear(): void {
    this.vectors.clear();
    this.reads.clear();
  }
}
