/**
 * The App's interaction with people: the suggestion comment on new issues and failing PRs,
 * 👍/👎 read back as votes, `/memory …` commands and the review dashboard. Webhook handlers only
 * validate and enqueue a durable job; the jobs (src/app/interaction/) do the GitHub calls.
 */
import type { Probot } from 'probot';
import type { z } from 'zod';
import { describeError } from '../../core/errors.js';
import type { AppDeps } from '../deps.js';
import { PermanentJobError } from '../worker.js';
import { COMMAND_JOB, commandJob, runCommands } from '../interaction/commands.js';
import { readCommentState, runSuggest, SUGGEST_JOB, suggestJob, type SuggestJob } from '../interaction/comment.js';
import type { InteractionContext } from '../interaction/context.js';
import { FAILED_CONCLUSIONS } from '../../github/gather-fix.js';
import {
  applyDashboardTicks,
  markDashboardClosed,
  readDashboard,
  TICK_JOB,
  tickRequest,
} from '../interaction/dashboard.js';
import {
  checkSuitePayload,
  describePayloadError,
  isBot,
  issueCommentPayload,
  issuePayload,
  pullRequestClosedPayload,
  visibilityOf,
  workflowRunPayload,
} from '../interaction/payloads.js';
import {
  REACTIONS_JOB,
  reactionsJob,
  runReactions,
  runSweep,
  scheduleReactionSweeps,
  SWEEP_JOB,
} from '../interaction/reactions.js';
import { REVIEW_JOB, reviewRequest, runReview } from '../interaction/review.js';
import { REVIEW_SYNC_JOB, reviewSyncRequest, syncReviewIssues } from '../interaction/review-sync.js';

export { requestReview } from '../interaction/review.js';

/** Text kept from a webhook in a job's payload. */
const MAX_TEXT_CHARS = 20_000;
/** A check suite or run naming more PRs than this only comments on the first ones. */
const MAX_PRS_PER_RUN = 3;

export interface InteractionOptions {
  /** enqueue a reactions sweep this often (default hourly; 0 turns the timer off) */
  sweepIntervalMs?: number;
}

export function registerInteractionHandlers(app: Probot, deps: AppDeps, options: InteractionOptions = {}): void {
  const ctx: InteractionContext = { deps, auth: (id) => app.auth(id) };
  const { queue, logger } = deps;

  function job<S extends z.ZodType>(
    kind: string,
    schema: S,
    run: (payload: z.infer<S>, lease?: () => Promise<boolean>) => Promise<unknown>,
  ): void {
    queue.register(kind, async (payload, claimed) => {
      const parsed = schema.safeParse(payload);
      if (!parsed.success) throw new PermanentJobError(`${kind}: ${describePayloadError(parsed.error)}`);
      await run(parsed.data, claimed.held);
    });
  }
  job(SUGGEST_JOB, suggestJob, (p, lease) => runSuggest(ctx, p, lease));
  job(COMMAND_JOB, commandJob, (p) => runCommands(ctx, p));
  job(REACTIONS_JOB, reactionsJob, (p) => runReactions(ctx, p));
  job(REVIEW_JOB, reviewRequest, (p) => runReview(ctx, p));
  job(REVIEW_SYNC_JOB, reviewSyncRequest, (p) => syncReviewIssues(ctx, p));
  job(TICK_JOB, tickRequest, async (p) => {
    const octokit = await ctx.auth(p.installationId);
    await applyDashboardTicks(ctx, octokit, p);
  });
  queue.register(SWEEP_JOB, async () => {
    await runSweep(ctx);
  });

  /** Parses a payload; a bad one is logged with the field it lacks and ignored. */
  function parse<S extends z.ZodType>(event: string, schema: S, payload: unknown): z.infer<S> | undefined {
    const parsed = schema.safeParse(payload);
    if (parsed.success) return parsed.data;
    logger.warn(`${event}: ignored, ${describePayloadError(parsed.error)}`);
    return undefined;
  }

  function enqueueSuggest(key: string, payload: SuggestJob): Promise<boolean> {
    return queue.enqueue(key, SUGGEST_JOB, payload);
  }

  app.on(['issues.opened', 'issues.edited'], async (context) => {
    const p = parse(context.name, issuePayload, context.payload);
    if (!p) return;
    const repo = p.repository.full_name;
    const visibility = visibilityOf(p.repository);
    if (context.payload.action === 'edited') {
      if (isBot(p.sender)) return;
      const dashboard = await readDashboard(ctx, repo);
      if (dashboard.number === p.issue.number) {
        if (!p.changes?.body) return;
        await queue.enqueue(`tick:${context.id}`, TICK_JOB, {
          installationId: p.installation.id,
          repo,
          visibility,
          number: p.issue.number,
          sender: p.sender.login,
          before: p.changes.body.from ?? '',
          after: p.issue.body ?? '',
        });
        return;
      }
      // only a changed body asks again; a title or label edit does not
      if (!p.changes?.body) return;
    }
    if (isBot(p.issue.user ?? p.sender) || p.issue.pull_request !== undefined || p.issue.state === 'closed') return;
    await enqueueSuggest(`suggest:${repo}#${p.issue.number}:${context.id}`, {
      installationId: p.installation.id,
      repo,
      repoId: p.repository.id,
      visibility,
      number: p.issue.number,
      kind: 'issue',
      // capped: recall reads at most 8,000 characters, and a huge body must not bloat the job table
      title: p.issue.title.slice(0, MAX_TEXT_CHARS),
      body: (p.issue.body ?? '').slice(0, MAX_TEXT_CHARS),
    });
  });

  app.on(['issues.closed', 'issues.reopened'], async (context) => {
    const p = parse(context.name, issuePayload, context.payload);
    if (!p) return;
    const repo = p.repository.full_name;
    const closed = context.payload.action === 'closed';
    if (!isBot(p.sender) && (await markDashboardClosed(ctx, repo, p.issue.number, closed))) {
      logger.info(`review dashboard ${closed ? 'closed' : 'reopened'} by a person`, { repo, number: p.issue.number });
      return;
    }
    if (closed) await enqueueFinalHarvest(context.id, p.installation.id, repo, p.issue.number);
  });

  app.on('pull_request.closed', async (context) => {
    const p = parse(context.name, pullRequestClosedPayload, context.payload);
    if (!p) return;
    await enqueueFinalHarvest(context.id, p.installation.id, p.repository.full_name, p.pull_request.number);
  });

  async function enqueueFinalHarvest(delivery: string, installationId: number, repo: string, number: number) {
    if (!(await readCommentState(ctx, repo, number))) return;
    await queue.enqueue(`reactions:${repo}#${number}:${delivery}`, REACTIONS_JOB, {
      installationId,
      repo,
      number,
      final: true,
    });
  }

  app.on('issue_comment.created', async (context) => {
    const p = parse(context.name, issueCommentPayload, context.payload);
    if (!p) return;
    const body = p.comment.body ?? '';
    if (isBot(p.comment.user) || isBot(p.sender) || !/^\s*\/memory\b/im.test(body)) return;
    await queue.enqueue(`command:${p.repository.full_name}:${p.comment.id}`, COMMAND_JOB, {
      installationId: p.installation.id,
      repo: p.repository.full_name,
      repoId: p.repository.id,
      visibility: visibilityOf(p.repository),
      number: p.issue.number,
      commentId: p.comment.id,
      author: p.comment.user?.login ?? p.sender.login,
      body: body.slice(0, MAX_TEXT_CHARS),
    });
  });

  async function onFailedRun(
    delivery: string,
    p: Pick<z.infer<typeof checkSuitePayload>, 'installation' | 'repository'>,
    run: { conclusion: string | null; head_sha: string; pull_requests: { number: number }[] },
  ) {
    if (!run.conclusion || !FAILED_CONCLUSIONS.has(run.conclusion)) return;
    const repo = p.repository.full_name;
    for (const pr of run.pull_requests.slice(0, MAX_PRS_PER_RUN)) {
      // one suggestion per PR head, whichever of check_suite and workflow_run arrives first
      await enqueueSuggest(`suggest:${repo}#${pr.number}:${run.head_sha}`, {
        installationId: p.installation.id,
        repo,
        repoId: p.repository.id,
        visibility: visibilityOf(p.repository),
        number: pr.number,
        kind: 'pull_request',
        headSha: run.head_sha,
      });
    }
    logger.debug('failed CI on a PR', { delivery, repo });
  }

  app.on('check_suite.completed', async (context) => {
    const p = parse(context.name, checkSuitePayload, context.payload);
    if (p) await onFailedRun(context.id, p, p.check_suite);
  });

  app.on('workflow_run.completed', async (context) => {
    const p = parse(context.name, workflowRunPayload, context.payload);
    if (p) await onFailedRun(context.id, p, p.workflow_run);
  });

  const interval = options.sweepIntervalMs ?? undefined;
  if (interval !== 0 && deps.settings.sweeps !== false) {
    scheduleReactionSweeps(
      queue,
      deps.clock,
      (error) => logger.warn('could not enqueue the reactions sweep', { error: describeError(error) }),
      interval,
    );
  }
}
