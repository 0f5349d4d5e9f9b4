/**
 * report: reads what the report needs from the pool (insights of every status, uses, current
 * votes, the audit log) and builds the report model for a viewer (core/rendering/report-model.ts). Used by
 * `memory-transfer report` (a local admin) and the App's /dashboard (a signed-in member).
 */
import { buildReportModel, type ReportModel, type ReportVote } from '../core/rendering/report-model.js';
import { MEMORY_STATUSES, type Memory } from '../core/types.js';
import type { Viewer } from '../core/rendering/viewer.js';
import type { Store } from '../store/store.js';
import type { Clock } from '../ports/index.js';

const PAGE = 500;
/** the audit entries read for the figures over time and the audit trails (newest first) */
const AUDIT_LIMIT = 100_000;

export interface ReportRequest {
  viewer: Viewer;
  /** ISO date: figures over time start here */
  since?: string;
  unusedDays?: number;
}

/** Every insight of the tenant, of every status. */
export async function allInsights(store: Store, tenant: string): Promise<Memory[]> {
  const out: Memory[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await store.listMemories(tenant, {
      level: ['insight'],
      status: [...MEMORY_STATUSES],
      limit: PAGE,
      offset,
    });
    out.push(...page);
    if (page.length < PAGE) return out;
  }
}

/**
 * The current votes of a tenant, as governance stores them: one state entry per person and memory,
 * `governance:vote:<tenant>:<memory id>:<login>`, holding the direction and the threads backing it
 * (a bare direction from earlier versions); withdrawn votes are left out.
 */
export async function readVotes(store: Store, tenant: string): Promise<ReportVote[]> {
  const prefix = `governance:vote:${tenant}:`;
  const votes: ReportVote[] = [];
  for (const entry of await store.listStates(prefix)) {
    const memoryId = entry.key.slice(prefix.length).split(':')[0] ?? '';
    let direction: unknown = entry.value;
    let threads: string[] = [];
    if (entry.value.startsWith('{')) {
      try {
        const parsed = JSON.parse(entry.value) as { direction?: unknown; sources?: unknown };
        direction = parsed.direction;
        threads = Array.isArray(parsed.sources) ? parsed.sources.filter((s): s is string => typeof s === 'string') : [];
      } catch {
        continue;
      }
    }
    if (direction !== 'up' && direction !== 'down') continue;
    votes.push({ memoryId, direction, threads, at: entry.updatedAt });
  }
  return votes;
}

/** Builds the report model of the tenant's pool for the viewer. */
export async function loadReport(store: Store, clock: Clock, request: ReportRequest): Promise<ReportModel> {
  const tenant = request.viewer.tenant;
  const localAdmin = request.viewer.member === undefined;
  const [memories, uses, votes, audit, stats] = await Promise.all([
    allInsights(store, tenant),
    store.listTenantUsage(tenant, request.since),
    readVotes(store, tenant),
    store.listAudit(tenant, AUDIT_LIMIT),
    // the fix ledger counts fixes of every visibility: only the local admin is told its size
    localAdmin ? store.stats(tenant) : undefined,
  ]);
  return buildReportModel(
    tenant,
    {
      memories,
      uses: uses.map((u) => ({ memoryId: u.memoryId, repo: u.repo, at: u.at })),
      votes,
      audit,
      ...(stats ? { fixesLearned: stats.fixes } : {}),
    },
    request.viewer,
    {
      now: clock.now(),
      ...(request.since ? { since: request.since } : {}),
      ...(request.unusedDays !== undefined ? { unusedDays: request.unusedDays } : {}),
    },
  );
}
