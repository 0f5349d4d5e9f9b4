/**
 * Review of new insights (`review: dashboard | comment | off`). The learning side calls
 * `requestReview` after learning a fix whose insights are `proposed`; the job lists them on the
 * review dashboard, or in a comment on the source PR, or nowhere (they wait for `/memory approve`).
 */
import { z } from 'zod';
import { renderReviewComment } from '../../core/rendering/dashboard-render.js';
import { tenantOf } from '../../core/ids.js';
import { dashboardRepoOf } from '../../core/repo-config.js';
import { VISIBILITIES, type Visibility } from '../../core/types.js';
import { maySee } from '../../core/visibility.js';
import { isNotFound } from '../../github/client.js';
import type { JobQueue } from '../deps.js';
import { configFor } from './config.js';
import { splitRepo, type InstallationOctokit, type InteractionContext } from './context.js';
import { proposeOnDashboard } from './dashboard.js';
import { renderContext } from './render.js';
import { bodyHash, keys, readState, reviewCommentState, writeState } from './state.js';

export const REVIEW_JOB = 'interaction-review';

export const reviewRequest = z.object({
  installationId: z.number().int(),
  /** the source repository (owner/name) the insights were learned in */
  repo: z.string(),
  visibility: z.enum(VISIBILITIES),
  /** the source PR or issue number, when there is one (review: comment posts there) */
  number: z.number().int().optional(),
  /** the new memory ids; proposed insights of the repository are listed too */
  memoryIds: z.array(z.string()).default([]),
});
export type ReviewRequest = z.input<typeof reviewRequest>;

/** Asks for review of insights just learned in `repo` (called by the learning side). */
export function requestReview(queue: JobQueue, request: ReviewRequest, dedupeKey?: string): Promise<boolean> {
  const key = `review:${request.repo.toLowerCase()}#${request.number ?? '-'}:${dedupeKey ?? [...(request.memoryIds ?? [])].sort().join(',')}`;
  return queue.enqueue(key, REVIEW_JOB, request);
}

async function upsertReviewComment(
  ctx: InteractionContext,
  octokit: InstallationOctokit,
  repo: string,
  number: number,
  body: string,
  items: string[],
): Promise<void> {
  const key = keys.reviewComment(repo, number);
  const state = await readState(ctx.deps.store, key, reviewCommentState);
  const { owner, repo: name } = splitRepo(repo);
  if (state) {
    if (state.bodyHash === bodyHash(body)) return;
    try {
      await octokit.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', {
        owner,
        repo: name,
        comment_id: state.commentId,
        body,
      });
      await writeState(ctx.deps.store, key, { ...state, items, bodyHash: bodyHash(body) });
    } catch (error) {
      if (!isNotFound(error)) throw error;
      ctx.deps.logger.info('review comment was deleted; not posting again', { repo, number });
    }
    return;
  }
  const { data } = await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
    owner,
    repo: name,
    issue_number: number,
    body,
  });
  await writeState(ctx.deps.store, key, { commentId: Number(data.id), items, bodyHash: bodyHash(body) });
}

export async function runReview(ctx: InteractionContext, request: z.infer<typeof reviewRequest>): Promise<void> {
  const { store } = ctx.deps;
  const octokit = await ctx.auth(request.installationId);
  const config = await configFor(ctx, octokit, request);
  if (!config.enabled || config.review === 'off') return;
  const tenant = tenantOf(request.repo);
  const listed = await store.listMemories(tenant, {
    status: ['proposed'],
    repo: request.repo,
    level: ['insight'],
    limit: 200,
  });
  const named = await store.getMemories(tenant, request.memoryIds);
  const byId = new Map([...listed, ...named].filter((m) => m.status === 'proposed').map((m) => [m.id, m]));
  const proposed = [...byId.values()];
  if (proposed.length === 0) return;

  if (config.review === 'comment') {
    if (request.number === undefined) return;
    const reader = { tenant, repo: request.repo, visibility: request.visibility, statuses: ['proposed' as const] };
    const fromThisFix = (request.memoryIds.length > 0 ? named : proposed).filter(
      (m) => m.status === 'proposed' && maySee(m, reader),
    );
    if (fromThisFix.length === 0) return;
    const body = renderReviewComment(fromThisFix, renderContext(ctx, reader));
    await upsertReviewComment(
      ctx,
      octokit,
      request.repo,
      request.number,
      body,
      fromThisFix.map((m) => m.id),
    );
    return;
  }
  const dashboardRepo = dashboardRepoOf(config, request.repo);
  const same = dashboardRepo.toLowerCase() === request.repo.toLowerCase();
  const visibility: Visibility | undefined = same ? request.visibility : undefined;
  await proposeOnDashboard(ctx, octokit, dashboardRepo, proposed, {
    installationId: request.installationId,
    ...(visibility ? { visibility } : {}),
  });
}
