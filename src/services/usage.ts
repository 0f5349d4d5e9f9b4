/**
 * Usage and outcomes: which memories were injected into which run (reported by the Action), and
 * what became of that run or pull request, fed back as evidence for or against each memory
 * (Memory.uses, Memory.outcomes, which the ranking's quality prior reads).
 */
import type { Outcomes, Requester } from '../core/types.js';
import { maySee } from '../core/visibility.js';
import type { Store } from '../store/store.js';
import { FEEDBACK_ACTOR, recordOutcome } from './governance.js';
import type { Clock, Logger } from '../ports/index.js';

export interface UsageDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
}

/** The usage key of a workflow run: repo-scoped, so one repository cannot speak for another's runs. */
export function runRef(repo: string, runId: string | number): string {
  return `run:${repo.toLowerCase()}:${runId}`;
}

/** The usage key of a pull request. */
export function pullRequestRef(repo: string, number: number): string {
  return `pr:${repo.toLowerCase()}#${number}`;
}

export interface InjectionUsage {
  /** who injected them: tenant, repository (owner/name) and its visibility */
  requester: Requester & { repo: string };
  runId: string;
  /** the pull request the run belongs to, when the run was triggered by one */
  pullRequest?: number;
  ids: string[];
}

/**
 * Records that these memories were injected into the run. Ids the requester may not see, or that
 * do not exist, are ignored; a second report for the same run and memory changes nothing.
 * Returns how many memories were newly recorded.
 */
export async function recordInjectionUsage(deps: UsageDeps, usage: InjectionUsage): Promise<number> {
  const { tenant, repo } = usage.requester;
  const at = deps.clock.now().toISOString();
  const ref = runRef(repo, usage.runId);
  return deps.store.tenantTransaction(tenant, async () => {
    const already = new Set((await deps.store.listUsage(tenant, ref)).map((u) => u.memoryId));
    // a sample of the sources is enough to decide and to count a use (the stored provenance is kept as it is)
    const memories = await deps.store.getMemories(tenant, [...new Set(usage.ids)], { provenance: 'sample' });
    let recorded = 0;
    for (const memory of memories) {
      if (already.has(memory.id) || !maySee(memory, usage.requester)) continue;
      await deps.store.recordUsage({ tenant, memoryId: memory.id, repo, runRef: ref, at });
      if (usage.pullRequest !== undefined) {
        await deps.store.recordUsage({
          tenant,
          memoryId: memory.id,
          repo,
          runRef: pullRequestRef(repo, usage.pullRequest),
          at,
        });
      }
      await deps.store.putMemory({ ...memory, uses: memory.uses + 1, lastUsedAt: at });
      recorded += 1;
    }
    return recorded;
  });
}

/** The usage key of the App's suggestion comment: one comment, however often it is edited. */
export function commentRef(commentId: number): string {
  return `comment:${commentId}`;
}

export interface CommentUsage {
  /** the thread's repository and its reader */
  requester: Requester & { repo: string };
  commentId: number;
  /** the insights the comment shows now */
  ids: string[];
}

/**
 * A comment that shows insights uses them: each counts once per comment (uses + 1, lastUsedAt),
 * recorded with the usage rows in one tenant transaction; an edit that shows the same insight
 * again, or a rerun of the job, counts nothing more. Returns how many were newly counted.
 */
export async function recordCommentUsage(deps: UsageDeps, usage: CommentUsage): Promise<number> {
  const { tenant, repo } = usage.requester;
  const at = deps.clock.now().toISOString();
  const ref = commentRef(usage.commentId);
  return deps.store.tenantTransaction(tenant, async () => {
    const already = new Set((await deps.store.listUsage(tenant, ref)).map((u) => u.memoryId));
    let recorded = 0;
    for (const memory of await deps.store.getMemories(tenant, [...new Set(usage.ids)], { provenance: 'sample' })) {
      if (already.has(memory.id) || !maySee(memory, usage.requester)) continue;
      await deps.store.recordUsage({ tenant, memoryId: memory.id, repo, runRef: ref, at });
      await deps.store.putMemory({ ...memory, uses: memory.uses + 1, lastUsedAt: at });
      recorded += 1;
    }
    return recorded;
  });
}

/** GitHub's run conclusions that count as evidence; the others (cancelled, skipped, neutral…) count for nothing. */
export function outcomeOfConclusion(conclusion: string | null | undefined): keyof Outcomes | undefined {
  if (conclusion === 'success') return 'success';
  if (conclusion === 'failure' || conclusion === 'timed_out' || conclusion === 'startup_failure') return 'failure';
  return undefined;
}

async function applyOutcome(
  deps: UsageDeps,
  tenant: string,
  ref: string,
  outcome: keyof Outcomes,
  onceKey: string,
): Promise<number> {
  return deps.store.tenantTransaction(tenant, async () => {
    const stateKey = `outcome:${tenant}:${onceKey}`;
    if ((await deps.store.getState(stateKey)) !== undefined) return 0;
    const ids = [...new Set((await deps.store.listUsage(tenant, ref)).map((u) => u.memoryId))];
    const memories = await deps.store.getMemories(tenant, ids);
    const now = deps.clock.now();
    for (const memory of memories) {
      // governance's rule: count it, then archive when failures clearly outweigh (audit-logged)
      await recordOutcome(deps.store, tenant, memory.id, outcome, { actor: FEEDBACK_ACTOR, now });
    }
    const at = now.toISOString();
    await deps.store.setState(stateKey, `${outcome} ${at}`);
    if (memories.length > 0) deps.logger.info('outcome recorded', { tenant, ref, outcome, memories: memories.length });
    return memories.length;
  });
}

export interface RunOutcome {
  tenant: string;
  /** owner/name */
  repo: string;
  runId: string | number;
  runAttempt?: number;
  /** workflow_run.conclusion */
  conclusion: string | null | undefined;
}

/**
 * A workflow run that used injected memories concluded: success or failure (timed_out,
 * startup_failure) becomes an outcome on each of them, once per run attempt. Returns how many
 * memories were updated (0 for other conclusions or runs that injected nothing).
 */
export async function recordRunOutcome(deps: UsageDeps, run: RunOutcome): Promise<number> {
  const outcome = outcomeOfConclusion(run.conclusion);
  if (!outcome) return 0;
  const ref = runRef(run.repo, run.runId);
  return applyOutcome(deps, run.tenant, ref, outcome, `${ref}:${run.runAttempt ?? 1}`);
}

export interface PullRequestOutcome {
  tenant: string;
  repo: string;
  number: number;
  /** true: merged (success); false: closed without merging (failure) */
  merged: boolean;
}

/** A pull request whose runs used injected memories was merged (success) or closed unmerged (failure); once. */
export async function recordPullRequestOutcome(deps: UsageDeps, pr: PullRequestOutcome): Promise<number> {
  const ref = pullRequestRef(pr.repo, pr.number);
  return applyOutcome(deps, pr.tenant, ref, pr.merged ? 'success' : 'failure', ref);
}
