/**
 * The Store port: everything the services persist, as a few role interfaces (the pool itself,
 * memories and their search, vectors, the fix ledger, the job queue, key-value state, the audit
 * log, the usage log) and `Store`, their composition. Implemented by sqlite-store.ts (default, one
 * file) and postgres-store.ts, each role in its own module (store/sqlite/, store/postgres/, and
 * store/sql/ for the roles whose SQL both engines share). Both pass the same contract suite
 * (__tests__/store/contract.ts). Every row carries its tenant; no method crosses tenants.
 */
import type { ReadOptions, ScoredId, SearchOptions } from '../core/retrieval/memory-index.js';
import type { AuditEntry, Memory, MemoryLevel, MemoryStatus, Provenance } from '../core/types.js';

// a search's hits and options are defined once, in core: a pool file's index answers the same searches
export type { ReadOptions, ScoredId, SearchOptions } from '../core/retrieval/memory-index.js';

export interface MemoryFilter {
  status?: MemoryStatus[];
  level?: MemoryLevel[];
  /** only memories with a provenance entry in this repository (owner/name) */
  repo?: string;
  limit?: number;
  offset?: number;
}

export interface Job {
  id: number;
  /** natural key: a second enqueue with the same key is ignored */
  key: string;
  kind: string;
  payload: unknown;
  attempts: number;
  /** ISO time before which the job is not claimed */
  runAfter: string;
  lastError?: string;
  /** raw bytes recorded with the job (a webhook delivery's body), as they were given */
  body?: Buffer;
}

/** A job to record: `payload` is stored as JSON, `body` (optional) as raw bytes, never re-encoded. */
export interface NewJob {
  key: string;
  kind: string;
  payload: unknown;
  runAfter?: string;
  body?: Uint8Array;
}

export interface UsageRecord {
  tenant: string;
  memoryId: string;
  repo: string;
  /** the workflow run id, PR number or comment id that used it */
  runRef: string;
  at: string;
}

/** A learned fix: `fallback` says why the rules wrote it when the model was asked and failed. */
export interface LearnedFix {
  fallback?: string;
}

/** One row of the key-value state, with the time it was last written. */
export interface StateEntry {
  key: string;
  value: string;
  updatedAt: string;
}

export interface PoolStats {
  memories: number;
  byLevel: Record<string, number>;
  byStatus: Record<string, number>;
  repos: number;
  fixes: number;
  /** of those fixes, the ones the rules learned because the model failed (a run with a model retries them) */
  fixesByFallback: number;
}

/** The pool itself: its schema, its transactions, what spans every role. */
export interface PoolAdmin {
  /** creates or upgrades the schema; throws StoreError('newer-schema') for a pool written by a newer version */
  migrate(): Promise<void>;
  /**
   * for a store opened read-only: checks the schema is this version's without changing anything;
   * StoreError 'not-found' (no pool yet), 'older-schema' or 'newer-schema'
   */
  verifySchema(): Promise<void>;
  close(): Promise<void>;
  /** runs fn atomically; nested calls join the outer transaction */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * Like transaction, and serialized against every other tenantTransaction of the same tenant, in
   * this process and in any other process on the same pool (SQLite: BEGIN IMMEDIATE, waiting out
   * another process's lock; PostgreSQL: an advisory transaction lock per tenant). Reads inside see
   * every write committed before the lock was taken (no cached search result is used), so a
   * read-modify-write or a create-or-merge decision made inside is never lost. Nested inside a
   * transaction, the lock is taken there and held until the outer transaction ends.
   */
  tenantTransaction<T>(tenant: string, fn: () => Promise<T>): Promise<T>;
  /** every tenant that has data (memories, learned fixes, audit or usage) */
  listTenants(): Promise<string[]>;
  stats(tenant: string): Promise<PoolStats>;
}

/** Memories, their provenance and their full-text search. */
export interface MemoryStore {
  /**
   * inserts or replaces the memory (by tenant+id), keeping the full-text index in step. A memory
   * with complete provenance replaces its provenance rows; a sampled one (read with
   * `provenance: 'sample'`, `provenanceCount` set) leaves the stored provenance, its sample and
   * count as they are (add a source with appendProvenance).
   */
  putMemory(memory: Memory): Promise<void>;
  /** the memory, with complete provenance unless `provenance: 'sample'` */
  getMemory(tenant: string, id: string, options?: ReadOptions): Promise<Memory | undefined>;
  getMemories(tenant: string, ids: string[], options?: ReadOptions): Promise<Memory[]>;
  /**
   * Adds one provenance entry to a stored memory (a merge): one row written, the row's sample and
   * count updated, never the whole list rewritten. False (nothing written) when the memory already
   * has an entry of that repository (any case) and ref; StoreError 'not-found' when there is no
   * such memory. Visibility and support are the caller's (putMemory).
   */
  appendProvenance(tenant: string, id: string, entry: Provenance): Promise<boolean>;
  /**
   * Optional (the recall hot path): like getMemories with `provenance: 'sample'`, but the objects may come from a cache
   * shared with other callers and are frozen; read them, copy before changing or handing them out.
   */
  readMemories?(tenant: string, ids: string[]): Promise<readonly Memory[]>;
  /**
   * Optional: a token that changes whenever anything recall reads for this tenant may have changed
   * (memory and vector writes and deletes, rolled-back transactions, other processes' writes).
   * A recall result computed under a token is current while the token is unchanged (result caches).
   * Undefined when the store cannot tell at the moment (nothing may be cached then).
   */
  poolGeneration?(tenant: string): Promise<string | undefined>;
  listMemories(tenant: string, filter?: MemoryFilter): Promise<Memory[]>;
  countMemories(tenant: string, filter?: MemoryFilter): Promise<number>;
  /** removes the memory, its full-text entry and its vector; false when it did not exist */
  deleteMemory(tenant: string, id: string): Promise<boolean>;
  /**
   * Optional: makes deleted memories unrecoverable from the pool's files (free pages zeroed,
   * full-text segments merged, WAL truncated). Called after forget / revoke; outside a transaction.
   */
  purgeDeleted?(): Promise<void>;
  /**
   * full-text search: the engine (FTS5 / tsvector) fetches candidates, core/retrieval/lexical-rank.ts orders
   * them, the same in every store; query is plain text, never store syntax
   */
  searchLexical(tenant: string, query: string, options: SearchOptions): Promise<ScoredId[]>;
}

/** The memories' embeddings, one per memory and model. */
export interface VectorStore {
  putVector(tenant: string, id: string, vector: Float32Array, model: string): Promise<void>;
  /** cosine similarity against stored vectors of the same model */
  searchVector(tenant: string, vector: Float32Array, model: string, options: SearchOptions): Promise<ScoredId[]>;
  /** ids of the tenant's memories of these levels (every status) with no vector of this model, oldest first */
  listIdsWithoutVector(tenant: string, model: string, levels: MemoryLevel[]): Promise<string[]>;
}

/** The fixes already learned (natural-key dedupe: tenant, repository, ref). */
export interface FixLedger {
  /**
   * records that a fix was learned; false if it was already recorded. With `how`, also records
   * (or, with no `fallback`, clears) that the rules wrote it because the model failed; without
   * `how` an existing record is left as it is.
   */
  markFixLearned(tenant: string, repo: string, ref: string, how?: LearnedFix): Promise<boolean>;
  isFixLearned(tenant: string, repo: string, ref: string): Promise<boolean>;
  /** how a fix was learned, or undefined when it was not */
  learnedFix(tenant: string, repo: string, ref: string): Promise<LearnedFix | undefined>;
  /** forgets that fixes of this repo (or one ref) were learned */
  unmarkFix(tenant: string, repo: string, ref?: string): Promise<void>;
  /**
   * (App core) a repository was renamed or moved within the tenant: its learned fixes now count
   * under the new owner/name (a fix already recorded under both keeps one row). Returns how many
   * fixes now carry the new name that did not before.
   */
  renameFixRepo(tenant: string, from: string, to: string): Promise<number>;
}

/** Durable jobs (the App's webhook deliveries and their work), claimed under a lease. */
export interface JobQueue {
  /** false when a job with this key already exists (done or not) */
  enqueueJob(job: NewJob): Promise<boolean>;
  /**
   * (App core, group commit) records many jobs in one write (one multi-row insert ignoring keys
   * that exist, in one transaction); for each job, in order, whether it was added (false for a
   * key already recorded, or repeated earlier in the same batch).
   */
  enqueueJobs(jobs: NewJob[]): Promise<boolean[]>;
  /**
   * atomically claims the next due job (pending with runAfter <= now, or leased with an expired
   * lease), leasing it until leaseUntil; increments attempts, so the returned job's attempts
   * counts this claim (a worker that dies mid-job used an attempt)
   */
  claimJob(now: string, leaseUntil: string): Promise<Job | undefined>;
  /**
   * Marks the job done, dropping its payload and raw body (a webhook delivery's text may hold a
   * secret; only the key is needed once done, for deduplication). With `claim` (the claimed job's `attempts`), only while that claim still
   * holds the job (running, not claimed again since): false when the lease was lost meanwhile.
   */
  completeJob(id: number, claim?: number): Promise<boolean>;
  /** records the error; the job is retried after runAfter, or dead when dead is true (with `claim`: as completeJob) */
  failJob(id: number, error: string, runAfter: string, dead: boolean, claim?: number): Promise<boolean>;
  /**
   * Extends the lease of a running job to leaseUntil (a heartbeat) while the claim numbered
   * `claim` (its `attempts`) still holds it; false when the job was claimed again, finished or is gone.
   */
  renewJob(id: number, claim: number, leaseUntil: string): Promise<boolean>;
  countJobs(state: 'pending' | 'done' | 'dead'): Promise<number>;
  /**
   * (App core) removes done and dead jobs last updated before `before` (ISO), so recorded webhook
   * payloads do not pile up; returns how many were removed. Their keys may then be enqueued again.
   */
  pruneJobs(before: string): Promise<number>;
}

/** Small key-value state: cursors, caches, comment ids, settings. */
export interface StateStore {
  getState(key: string): Promise<string | undefined>;
  setState(key: string, value: string): Promise<void>;
  /** (report) every state entry whose key starts with `prefix`, in key order */
  listStates(prefix: string): Promise<StateEntry[]>;
}

/** Who did what to which memory (governance), newest first. */
export interface AuditLog {
  appendAudit(entry: AuditEntry): Promise<void>;
  listAudit(tenant: string, limit?: number): Promise<AuditEntry[]>;
}

/** Which memories were used where (injections, comments). */
export interface UsageLog {
  recordUsage(usage: UsageRecord): Promise<void>;
  listUsage(tenant: string, runRef: string): Promise<UsageRecord[]>;
  /** (report) every use of the tenant's memories, at or after `since` (ISO) when given, oldest first */
  listTenantUsage(tenant: string, since?: string): Promise<UsageRecord[]>;
}

/** Everything the services persist: the composition of the roles (a caller may ask for one role only). */
export interface Store
  extends PoolAdmin, MemoryStore, VectorStore, FixLedger, JobQueue, StateStore, AuditLog, UsageLog {}
