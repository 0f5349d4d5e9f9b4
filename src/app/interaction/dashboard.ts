/**
 * The review dashboard: one issue per dashboard repository listing the proposed insights with
 * checkboxes. Ticking one (by someone with write access) approves it; the issue is edited in
 * place when proposals arrive or are decided; a dashboard closed by a person is never reopened
 * or recreated (reopening it turns it back on). It also shows configuration problems.
 */
import { DASHBOARD_TITLE, renderDashboard, tickedIds } from '../../core/rendering/dashboard-render.js';
import { dashboardRepoOf, type RepoConfig } from '../../core/repo-config.js';
import { z } from 'zod';
import { VISIBILITIES, type Memory, type Visibility } from '../../core/types.js';
import { flowsTo, maySee } from '../../core/visibility.js';
import { tenantOf } from '../../core/ids.js';
import { httpStatus, isNotFound } from '../../github/client.js';
import type { InstallationOctokit, InteractionContext } from './context.js';
import { splitRepo } from './context.js';
import { hasWriteAccess } from './permissions.js';
import { approve } from '../../services/governance.js';
import { renderContext } from './render.js';
import { bodyHash, dashboardState, keys, readState, writeState, type DashboardState } from './state.js';

const EMPTY: DashboardState = { closedByPerson: false, items: [], configProblems: {} };

export async function readDashboard(ctx: InteractionContext, repo: string): Promise<DashboardState> {
  return (await readState(ctx.deps.store, keys.dashboard(repo), dashboardState)) ?? { ...EMPTY };
}

async function repoVisibility(octokit: InstallationOctokit, repo: string): Promise<Visibility> {
  const { data } = await octokit.request('GET /repos/{owner}/{repo}', splitRepo(repo));
  const visibility = (data as { visibility?: string }).visibility;
  if (visibility === 'public' || visibility === 'internal' || visibility === 'private') return visibility;
  return data.private ? 'private' : 'public';
}

export interface RefreshOptions {
  installationId: number;
  /** the dashboard repository's visibility when the caller knows it (else asked of GitHub) */
  visibility?: Visibility;
  /** create the issue when there is something to show and none exists yet */
  create: boolean;
}

/** Re-renders the dashboard of `repo` from the store; writes only when something changed. */
export async function refreshDashboard(
  ctx: InteractionContext,
  octokit: InstallationOctokit,
  repo: string,
  state: DashboardState,
  options: RefreshOptions,
): Promise<DashboardState> {
  const { store, logger } = ctx.deps;
  const key = keys.dashboard(repo);
  if (state.closedByPerson) {
    await writeState(store, key, state);
    return state;
  }
  const tenant = tenantOf(repo);
  const visibility = options.visibility ?? (await repoVisibility(octokit, repo));
  const memories = await store.getMemories(tenant, state.items);
  const proposed = memories.filter((m) => m.status === 'proposed');
  const reader = { tenant, repo, visibility, statuses: ['proposed' as const] };
  const visible = proposed.filter((m) => maySee(m, reader));
  const problems = Object.entries(state.configProblems)
    .filter(([, entry]) => flowsTo(entry.visibility, visibility))
    .map(([source, entry]) => ({ repo: source, problems: entry.problems }));
  const next: DashboardState = { ...state, items: proposed.map((m) => m.id), installationId: options.installationId };
  const body = renderDashboard(
    { visible, hidden: proposed.length - visible.length, configProblems: problems },
    renderContext(ctx, { tenant, repo, visibility }),
  );
  const { owner, repo: name } = splitRepo(repo);
  if (next.number === undefined) {
    if (!options.create || (proposed.length === 0 && problems.length === 0)) {
      await writeState(store, key, next);
      return next;
    }
    const { data } = await octokit.request('POST /repos/{owner}/{repo}/issues', {
      owner,
      repo: name,
      title: DASHBOARD_TITLE,
      body,
    });
    next.number = data.number;
    next.lastBodyHash = bodyHash(body);
    logger.info('review dashboard created', { repo, number: data.number });
  } else if (next.lastBodyHash !== bodyHash(body)) {
    try {
      await octokit.request('PATCH /repos/{owner}/{repo}/issues/{issue_number}', {
        owner,
        repo: name,
        issue_number: next.number,
        body,
      });
      next.lastBodyHash = bodyHash(body);
    } catch (error) {
      if (!isNotFound(error) && httpStatus(error) !== 410) throw error;
      // the issue was deleted or transferred: treat it as closed by a person
      logger.warn('review dashboard is gone; not recreating it', { repo, number: next.number });
      next.closedByPerson = true;
    }
  }
  await writeState(store, key, next);
  return next;
}

/** Adds proposed insights to the dashboard of `repo` and refreshes it (creating it if needed). */
export async function proposeOnDashboard(
  ctx: InteractionContext,
  octokit: InstallationOctokit,
  repo: string,
  memories: Memory[],
  options: Omit<RefreshOptions, 'create'>,
): Promise<void> {
  const state = await readDashboard(ctx, repo);
  const items = [...new Set([...state.items, ...memories.map((m) => m.id)])];
  if (state.closedByPerson) {
    ctx.deps.logger.info('insights wait for review; the dashboard was closed by a person', {
      repo,
      ids: memories.map((m) => m.id),
    });
  }
  await refreshDashboard(ctx, octokit, repo, { ...state, items }, { ...options, create: true });
}

/**
 * Reports a repository's configuration problems on its dashboard (or clears them when
 * `problems` is empty). With no open dashboard, problems go to the log.
 */
export async function reportConfigProblems(
  ctx: InteractionContext,
  octokit: InstallationOctokit,
  target: { repo: string; installationId: number; visibility: Visibility; config: RepoConfig; problems: string[] },
): Promise<void> {
  const dashboardRepo = dashboardRepoOf(target.config, target.repo);
  const state = await readDashboard(ctx, dashboardRepo);
  const configProblems = { ...state.configProblems };
  if (target.problems.length > 0) {
    configProblems[target.repo] = { visibility: target.visibility, problems: target.problems };
  } else {
    delete configProblems[target.repo];
  }
  // one log line always (the dashboard may not exist, or its readers may not see this repository)
  if (target.problems.length > 0) {
    ctx.deps.logger.warn(`.github/memory-transfer.yml of ${target.repo} has problems`, {
      repo: target.repo,
      problems: target.problems,
    });
  }
  const same = dashboardRepo.toLowerCase() === target.repo.toLowerCase();
  await refreshDashboard(
    ctx,
    octokit,
    dashboardRepo,
    { ...state, configProblems },
    { installationId: target.installationId, create: false, ...(same ? { visibility: target.visibility } : {}) },
  );
}

export const TICK_JOB = 'interaction-dashboard-tick';

/** A person's edit of the dashboard issue: its body before and after. */
export const tickRequest = z.object({
  installationId: z.number().int(),
  repo: z.string(),
  visibility: z.enum(VISIBILITIES),
  number: z.number().int(),
  sender: z.string(),
  before: z.string(),
  after: z.string(),
});
export type TickRequest = z.infer<typeof tickRequest>;

/**
 * A person edited the dashboard: approve every newly ticked insight if they have write access,
 * then re-render (which also unticks what a person without write access ticked).
 */
export async function applyDashboardTicks(
  ctx: InteractionContext,
  octokit: InstallationOctokit,
  request: TickRequest,
): Promise<string[]> {
  const state = await readDashboard(ctx, request.repo);
  if (state.number !== request.number || state.closedByPerson) return [];
  const before = tickedIds(request.before);
  const newlyTicked = [...tickedIds(request.after)].filter((id) => !before.has(id) && state.items.includes(id));
  if (newlyTicked.length === 0) return [];
  const { owner, repo } = splitRepo(request.repo);
  const approved: string[] = [];
  if (await hasWriteAccess(ctx, octokit, owner, repo, request.sender)) {
    const tenant = tenantOf(request.repo);
    const reader = { tenant, repo: request.repo, visibility: request.visibility, statuses: ['proposed' as const] };
    for (const memory of await ctx.deps.store.getMemories(tenant, newlyTicked)) {
      if (memory.status !== 'proposed' || !maySee(memory, reader)) continue;
      await approve(ctx.deps.store, tenant, memory.id, {
        actor: request.sender,
        detail: `dashboard ${request.repo}#${request.number}`,
        now: ctx.deps.clock.now(),
      });
      approved.push(memory.id);
    }
  } else {
    ctx.deps.logger.info('dashboard tick by someone without write access ignored', {
      repo: request.repo,
      sender: request.sender,
    });
  }
  // force a rewrite: the person's edit changed the body we last wrote
  await refreshDashboard(
    ctx,
    octokit,
    request.repo,
    { ...state, lastBodyHash: undefined },
    { installationId: request.installationId, visibility: request.visibility, create: false },
  );
  return approved;
}

/** The dashboard issue was closed or reopened by a person. */
export async function markDashboardClosed(
  ctx: InteractionContext,
  repo: string,
  number: number,
  closed: boolean,
): Promise<boolean> {
  const state = await readDashboard(ctx, repo);
  if (state.number !== number) return false;
  await writeState(ctx.deps.store, keys.dashboard(repo), { ...state, closedByPerson: closed, lastBodyHash: undefined });
  return true;
}
