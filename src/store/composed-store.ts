/**
 * A store as the composition of its roles (store.ts): each role's methods are handed to the
 * module that implements it for the engine; the engine's store adds the pool itself (PoolAdmin).
 */
import type { AuditEntry, Memory, MemoryLevel, Provenance } from '../core/types.js';
import type {
  AuditLog,
  FixLedger,
  Job,
  JobQueue,
  LearnedFix,
  MemoryFilter,
  MemoryStore,
  NewJob,
  PoolStats,
  ReadOptions,
  ScoredId,
  SearchOptions,
  StateEntry,
  StateStore,
  Store,
  UsageLog,
  UsageRecord,
  VectorStore,
} from './store.js';

/** A memory store that has the optional reads of the recall hot path. */
export type CachingMemoryStore = MemoryStore & Required<Pick<MemoryStore, 'readMemories' | 'poolGeneration'>>;

export interface StoreRoles {
  memories: CachingMemoryStore;
  vectors: VectorStore;
  jobs: JobQueue;
  state: StateStore;
  audit: AuditLog;
  usage: UsageLog;
  fixes: FixLedger;
}

export abstract class ComposedStore implements Store {
  protected constructor(private readonly roles: StoreRoles) {}

  // the pool itself: the engine's store
  abstract migrate(): Promise<void>;
  abstract verifySchema(): Promise<void>;
  abstract close(): Promise<void>;
  abstract transaction<T>(fn: () => Promise<T>): Promise<T>;
  abstract tenantTransaction<T>(tenant: string, fn: () => Promise<T>): Promise<T>;
  abstract listTenants(): Promise<string[]>;
  abstract stats(tenant: string): Promise<PoolStats>;

  // memories and their search
  putMemory(memory: Memory): Promise<void> {
    return this.roles.memories.putMemory(memory);
  }
  getMemory(tenant: string, id: string, options?: ReadOptions): Promise<Memory | undefined> {
    return this.roles.memories.getMemory(tenant, id, options);
  }
  getMemories(tenant: string, ids: string[], options?: ReadOptions): Promise<Memory[]> {
    return this.roles.memories.getMemories(tenant, ids, options);
  }
  appendProvenance(tenant: string, id: string, entry: Provenance): Promise<boolean> {
    return this.roles.memories.appendProvenance(tenant, id, entry);
  }
  readMemories(tenant: string, ids: string[]): Promise<readonly Memory[]> {
    return this.roles.memories.readMemories(tenant, ids);
  }
  poolGeneration(tenant: string): Promise<string | undefined> {
    return this.roles.memories.poolGeneration(tenant);
  }
  listMemories(tenant: string, filter?: MemoryFilter): Promise<Memory[]> {
    return this.roles.memories.listMemories(tenant, filter);
  }
  countMemories(tenant: string, filter?: MemoryFilter): Promise<number> {
    return this.roles.memories.countMemories(tenant, filter);
  }
  deleteMemory(tenant: string, id: string): Promise<boolean> {
    return this.roles.memories.deleteMemory(tenant, id);
  }
  /** (a store whose memory role has nothing to purge does nothing) */
  async purgeDeleted(): Promise<void> {
    await this.roles.memories.purgeDeleted?.();
  }
  searchLexical(tenant: string, query: string, options: SearchOptions): Promise<ScoredId[]> {
    return this.roles.memories.searchLexical(tenant, query, options);
  }

  // vectors
  putVector(tenant: string, id: string, vector: Float32Array, model: string): Promise<void> {
    return this.roles.vectors.putVector(tenant, id, vector, model);
  }
  searchVector(tenant: string, vector: Float32Array, model: string, options: SearchOptions): Promise<ScoredId[]> {
    return this.roles.vectors.searchVector(tenant, vector, model, options);
  }
  listIdsWithoutVector(tenant: string, model: string, levels: MemoryLevel[]): Promise<string[]> {
    return this.roles.vectors.listIdsWithoutVector(tenant, model, levels);
  }

  // the fix ledger
  markFixLearned(tenant: string, repo: string, ref: string, how?: LearnedFix): Promise<boolean> {
    return this.roles.fixes.markFixLearned(tenant, repo, ref, how);
  }
  isFixLearned(tenant: string, repo: string, ref: string): Promise<boolean> {
    return this.roles.fixes.isFixLearned(tenant, repo, ref);
  }
  learnedFix(tenant: string, repo: string, ref: string): Promise<LearnedFix | undefined> {
    return this.roles.fixes.learnedFix(tenant, repo, ref);
  }
  unmarkFix(tenant: string, repo: string, ref?: string): Promise<void> {
    return this.roles.fixes.unmarkFix(tenant, repo, ref);
  }
  renameFixRepo(tenant: string, from: string, to: string): Promise<number> {
    return this.roles.fixes.renameFixRepo(tenant, from, to);
  }

  // the job queue
  enqueueJob(job: NewJob): Promise<boolean> {
    return this.roles.jobs.enqueueJob(job);
  }
  enqueueJobs(jobs: NewJob[]): Promise<boolean[]> {
    return this.roles.jobs.enqueueJobs(jobs);
  }
  claimJob(now: string, leaseUntil: string): Promise<Job | undefined> {
    return this.roles.jobs.claimJob(now, leaseUntil);
  }
  completeJob(id: number, claim?: number): Promise<boolean> {
    return this.roles.jobs.completeJob(id, claim);
  }
  failJob(id: number, error: string, runAfter: string, dead: boolean, claim?: number): Promise<boolean> {
    return this.roles.jobs.failJob(id, error, runAfter, dead, claim);
  }
  renewJob(id: number, claim: number, leaseUntil: string): Promise<boolean> {
    return this.roles.jobs.renewJob(id, claim, leaseUntil);
  }
  countJobs(state: 'pending' | 'done' | 'dead'): Promise<number> {
    return this.roles.jobs.countJobs(state);
  }
  pruneJobs(before: string): Promise<number> {
    return this.roles.jobs.pruneJobs(before);
  }

  // key-value state
  getState(key: string): Promise<string | undefined> {
    return this.roles.state.getState(key);
  }
  setState(key: string, value: string): Promise<void> {
    return this.roles.state.setState(key, value);
  }
  listStates(prefix: string): Promise<StateEntry[]> {
    return this.roles.state.listStates(prefix);
  }

  // the audit log
  appendAudit(entry: AuditEntry): Promise<void> {
    return this.roles.audit.appendAudit(entry);
  }
  listAudit(tenant: string, limit?: number): Promise<AuditEntry[]> {
    return this.roles.audit.listAudit(tenant, limit);
  }

  // the usage log
  recordUsage(usage: UsageRecord): Promise<void> {
    return this.roles.usage.recordUsage(usage);
  }
  listUsage(tenant: string, runRef: string): Promise<UsageRecord[]> {
    return this.roles.usage.listUsage(tenant, runRef);
  }
  listTenantUsage(tenant: string, since?: string): Promise<UsageRecord[]> {
    return this.roles.usage.listTenantUsage(tenant, since);
  }
}
