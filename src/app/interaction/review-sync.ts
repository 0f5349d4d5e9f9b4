/**
 * Keeps the review dashboard issues in step with changes made elsewhere (the web dashboard):
 * every review issue of the tenant that lists the changed insight is re-rendered from the pool,
 * so an insight approved, rejected, edited or forgotten on the page leaves (or updates in) its
 * checklist at once. Issues closed by a person stay closed.
 */
import { z } from 'zod';
import type { InteractionContext } from './context.js';
import { refreshDashboard } from './dashboard.js';
import { dashboardState, keys } from './state.js';

export const REVIEW_SYNC_JOB = 'interaction-review-sync';

export const reviewSyncRequest = z.object({ tenant: z.string().min(1), memoryId: z.string().min(1) });
export type ReviewSyncRequest = z.infer<typeof reviewSyncRequest>;

/** Re-renders every open review issue of the tenant that lists the insight; returns their repositories. */
export async function syncReviewIssues(ctx: InteractionContext, request: ReviewSyncRequest): Promise<string[]> {
  const prefix = keys.dashboard(`${request.tenant}/`);
  const refreshed: string[] = [];
  for (const entry of await ctx.deps.store.listStates(prefix)) {
    let parsed: ReturnType<typeof dashboardState.safeParse>;
    try {
      parsed = dashboardState.safeParse(JSON.parse(entry.value));
    } catch {
      continue;
    }
    if (!parsed.success) continue;
    const state = parsed.data;
    if (!state.items.includes(request.memoryId) || state.closedByPerson) continue;
    if (state.number === undefined || state.installationId === undefined) continue;
    const repo = entry.key.slice('interaction:dashboard:'.length);
    const octokit = await ctx.auth(state.installationId);
    await refreshDashboard(ctx, octokit, repo, state, { installationId: state.installationId, create: false });
    refreshed.push(repo);
  }
  return refreshed;
}
