/**
 * A store as the composition of its roles (store.ts): each role's methods are handed to the
 * module that implements it for the engine; the engine's store adds the pool itself (PoolAdmin).
 */
import type { AuditEntry } from '../core/types.js';
import type {
  AuditLog,
  FixLedger,
  Job,
  JobQueue,
  LearnedFix,
  NewJob,
  StateEntry,
  StateStore,
  UsageLog,
  UsageRecord,
} from './store.js';

export interface StoreRoles {
  jobs: JobQueue;
  state: StateStore;
  audit: AuditLog;
  usage: UsageLog;
  fixes: FixLedger;
}

export abstract class ComposedStore implements FixLedger, JobQueue, StateStore, AuditLog, UsageLog {
  protected constructor(private readonly roles: StoreRoles) {}

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
