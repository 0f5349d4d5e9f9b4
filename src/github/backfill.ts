/**
 * Backfill: the merged pull requests that existed before the App, read in GraphQL pages of up
 * to 50 with their labels, first 100 paths and closing issues, so a scan costs well under 0.1
 * GitHub requests per PR (plus one cached permission check per person). The cursor is kept in
 * the store's state after every page: an interrupted backfill resumes where it stopped.
 */
import { z } from 'zod';
import type { Fix } from '../core/types.js';
import type { Store } from '../store/store.js';
import type { Clock, Logger } from '../ports/index.js';
import type { GitHubClient } from './client.js';
import { MERGED_PULL_REQUESTS_QUERY, type MergedPullRequestNode, type MergedPullRequestsQuery } from './queries.js';
import { decideFix, pullRequestBasics, textAuthors, toFix, type PullRequestContext } from './gather-fix.js';
import { judgeTrust } from './trust.js';
import type { FixSkipReason } from '../core/retrieval/fix-detection.js';

export interface BackfillDeps {
  store: Store;
  logger: Logger;
  clock: Clock;
  /** waits before asking again when the rate limit is nearly spent (tests pass a no-op) */
  sleep?: (ms: number) => Promise<void>;
}

export interface BackfillProgress {
  repo: string;
  scanned: number;
  /** how many PRs this pass will scan (the limit, or fewer when the repository has fewer) */
  total: number;
  fixes: number;
}

export interface BackfillOptions {
  owner: string;
  repo: string;
  /** merged PRs scanned at most in this pass (default: all) */
  limit?: number;
  /** PRs per GraphQL page (default 50, at most 100) */
  pageSize?: number;
  appSlug: string;
  fixLabels: string[];
  trustedBots?: string[];
  /** learn one fix (the caller wires learnFix); awaited before the cursor moves on */
  onFix: (fix: Fix) => Promise<void>;
  onProgress?: (progress: BackfillProgress) => void;
  /** start from the newest PR again, forgetting a saved cursor */
  restart?: boolean;
}

export interface BackfillResult {
  repo: string;
  scanned: number;
  fixes: number;
  skipped: Partial<Record<FixSkipReason, number>>;
  /** GitHub requests made by this pass (GraphQL pages and permission checks not cached) */
  requests: number;
  /** the pass reached its limit or the oldest PR */
  done: boolean;
}

const Cursor = z.object({
  cursor: z.string().nullable(),
  scanned: z.number().int().min(0),
  fixes: z.number().int().min(0),
  done: z.boolean(),
});
type Cursor = z.infer<typeof Cursor>;

export function backfillStateKey(owner: string, repo: string): string {
  return `backfill:${owner.toLowerCase()}/${repo.toLowerCase()}`;
}

/** The saved progress of a repository's backfill, if any. */
export async function readBackfillCursor(store: Store, owner: string, repo: string): Promise<Cursor | undefined> {
  const raw = await store.getState(backfillStateKey(owner, repo));
  if (!raw) return undefined;
  try {
    const parsed = Cursor.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function contextOf(
  owner: string,
  repo: string,
  repository: NonNullable<MergedPullRequestsQuery['repository']>,
  pr: MergedPullRequestNode,
): PullRequestContext {
  const files = (pr.files?.nodes ?? []).map((f) => f.path);
  return {
    ...pullRequestBasics({ owner, repo }, repository, pr),
    merged: true,
    commitMessages: [],
    files,
    changedFiles: Math.max(pr.changedFiles, files.length),
    change: '',
    failedChecks: [],
  };
}

const sleepFor = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function backfillRepository(
  deps: BackfillDeps,
  gh: GitHubClient,
  options: BackfillOptions,
): Promise<BackfillResult> {
  const { owner, repo } = options;
  const fullName = `${owner}/${repo}`;
  const key = backfillStateKey(owner, repo);
  const saved = options.restart ? undefined : await readBackfillCursor(deps.store, owner, repo);
  let state: Cursor = saved && !saved.done ? saved : { cursor: null, scanned: 0, fixes: 0, done: false };
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const pageSize = Math.min(100, Math.max(1, options.pageSize ?? 50));
  const skipped: BackfillResult['skipped'] = {};
  let requests = 0;
  let total = Number.isFinite(limit) ? limit : 0;
  // a permission check made here counts as a request; cached answers do not
  const countingGh: GitHubClient = {
    graphql: gh.graphql,
    request: ((route: string, params?: Record<string, unknown>) => {
      requests += 1;
      return gh.request(route as never, params as never);
    }) as unknown as GitHubClient['request'],
  };

  while (state.scanned < limit) {
    const first = Math.min(pageSize, limit - state.scanned);
    const data = await gh.graphql<MergedPullRequestsQuery>(MERGED_PULL_REQUESTS_QUERY, {
      owner,
      name: repo,
      first,
      after: state.cursor,
    });
    requests += 1;
    const repository = data.repository;
    if (!repository) throw Object.assign(new Error(`${fullName} not found`), { status: 404 });
    const connection = repository.pullRequests;
    total = Math.min(limit, connection.totalCount);
    for (const node of connection.nodes) {
      const context = contextOf(owner, repo, repository, node);
      const verdict = decideFix(context, {
        fixLabels: options.fixLabels,
        appSlug: options.appSlug,
        trustedBots: options.trustedBots ?? [],
      });
      if (verdict.fix) {
        const trust = await judgeTrust(
          deps,
          countingGh,
          { owner, repo },
          {
            mergedBy: context.mergedBy?.login,
            textAuthors: textAuthors(context, options.appSlug).map((a) => a.login),
          },
        );
        await options.onFix(toFix(context, { trusted: trust.trusted, appSlug: options.appSlug }));
        state.fixes += 1;
      } else {
        skipped[verdict.reason] = (skipped[verdict.reason] ?? 0) + 1;
      }
    }
    state = {
      ...state,
      scanned: state.scanned + connection.nodes.length,
      cursor: connection.pageInfo.endCursor ?? state.cursor,
      done: !connection.pageInfo.hasNextPage || connection.nodes.length === 0,
    };
    if (state.scanned >= limit) state.done = true;
    await deps.store.setState(key, JSON.stringify(state));
    options.onProgress?.({
      repo: fullName,
      scanned: state.scanned,
      total: Math.max(total, state.scanned),
      fixes: state.fixes,
    });
    if (state.done) break;
    const rate = data.rateLimit;
    if (rate && rate.remaining < Math.max(10, rate.cost * 5)) {
      const wait = Math.max(0, Date.parse(rate.resetAt) - deps.clock.now().getTime()) + 1_000;
      deps.logger.warn('GraphQL rate limit nearly spent; waiting for the reset', {
        repo: fullName,
        remaining: rate.remaining,
        waitMs: wait,
      });
      await (deps.sleep ?? sleepFor)(wait);
    }
  }
  return { repo: fullName, scanned: state.scanned, fixes: state.fixes, skipped, requests, done: state.done };
}
