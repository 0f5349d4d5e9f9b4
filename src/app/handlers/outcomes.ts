/**
 * Outcomes of runs and pull requests that used injected insights (issue 4 §5): a
 * `workflow_run.completed` or `pull_request.closed` whose run or PR has usage recorded by the
 * recall API becomes a durable job; the job feeds the conclusion back as evidence for or against
 * each insight (src/services/usage.ts). Counted once per run attempt or PR, however often the
 * event is delivered (the job key and the service both dedupe).
 */
import type { Probot } from 'probot';
import { z } from 'zod';
import { tenantOf } from '../../core/ids.js';
import {
  outcomeOfConclusion,
  pullRequestRef,
  recordPullRequestOutcome,
  recordRunOutcome,
  runRef,
} from '../../services/usage.js';
import type { AppDeps } from '../deps.js';
import { PermanentJobError } from '../worker.js';
import { describePayloadError } from '../interaction/payloads.js';

export const RUN_OUTCOME_JOB = 'outcome-run';
export const PR_OUTCOME_JOB = 'outcome-pr';

const repository = z.object({ full_name: z.string().regex(/^[^/\s]+\/[^/\s]+$/) });

const workflowRunCompleted = z.object({
  repository,
  workflow_run: z.object({
    id: z.number().int(),
    run_attempt: z.number().int().min(1).optional(),
    conclusion: z.string().nullable(),
  }),
});

const pullRequestClosed = z.object({
  repository,
  pull_request: z.object({ number: z.number().int(), merged: z.boolean().nullable().optional() }),
});

export const runOutcomeJob = z.object({
  repo: z.string(),
  runId: z.number().int(),
  runAttempt: z.number().int().min(1),
  conclusion: z.string(),
});

export const pullRequestOutcomeJob = z.object({
  repo: z.string(),
  number: z.number().int(),
  merged: z.boolean(),
});

export function registerOutcomeHandlers(app: Probot, deps: AppDeps): void {
  const { queue, store, logger } = deps;

  queue.register(RUN_OUTCOME_JOB, async (raw) => {
    const parsed = runOutcomeJob.safeParse(raw);
    if (!parsed.success) throw new PermanentJobError(`${RUN_OUTCOME_JOB}: ${describePayloadError(parsed.error)}`);
    const job = parsed.data;
    await recordRunOutcome(deps, { tenant: tenantOf(job.repo), ...job });
  });
  queue.register(PR_OUTCOME_JOB, async (raw) => {
    const parsed = pullRequestOutcomeJob.safeParse(raw);
    if (!parsed.success) throw new PermanentJobError(`${PR_OUTCOME_JOB}: ${describePayloadError(parsed.error)}`);
    const job = parsed.data;
    await recordPullRequestOutcome(deps, { tenant: tenantOf(job.repo), ...job });
  });

  /** Only runs and PRs that used injected insights are worth a job. */
  async function used(repo: string, ref: string): Promise<boolean> {
    return (await store.listUsage(tenantOf(repo), ref)).length > 0;
  }

  app.on('workflow_run.completed', async (context) => {
    const parsed = workflowRunCompleted.safeParse(context.payload);
    if (!parsed.success) return;
    const repo = parsed.data.repository.full_name;
    const run = parsed.data.workflow_run;
    if (!outcomeOfConclusion(run.conclusion) || !(await used(repo, runRef(repo, run.id)))) return;
    const runAttempt = run.run_attempt ?? 1;
    const added = await queue.enqueue(`outcome:${runRef(repo, run.id)}:${runAttempt}`, RUN_OUTCOME_JOB, {
      repo,
      runId: run.id,
      runAttempt,
      conclusion: run.conclusion ?? '',
    });
    logger.debug(added ? 'run outcome recorded for the worker' : 'run outcome already recorded', {
      repo,
      runId: run.id,
    });
  });

  app.on('pull_request.closed', async (context) => {
    const parsed = pullRequestClosed.safeParse(context.payload);
    if (!parsed.success) return;
    const repo = parsed.data.repository.full_name;
    const { number } = parsed.data.pull_request;
    if (!(await used(repo, pullRequestRef(repo, number)))) return;
    await queue.enqueue(`outcome:${pullRequestRef(repo, number)}`, PR_OUTCOME_JOB, {
      repo,
      number,
      merged: parsed.data.pull_request.merged === true,
    });
  });
}
