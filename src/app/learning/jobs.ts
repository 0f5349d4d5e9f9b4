/**
 * The worker side of learning: each job kind's handler. Handlers are idempotent (a job whose
 * worker died is run again): they dedupe by natural key and learnFix skips a fix already learned.
 * GitHub 404 → logged and dropped; any other error is thrown and the job retried with backoff.
 */
import { describeError } from '../../core/errors.js';
import { DEFAULT_REPO_CONFIG, requiresReview, type RepoConfig } from '../../core/repo-config.js';
import type { Fix } from '../../core/types.js';
import { learnFix } from '../../services/learn.js';
import { backfillRepository } from '../../github/backfill.js';
import { isNotFound, type GitHubClient } from '../../github/client.js';
import { decideFix, FAILED_CONCLUSIONS, gatherPullRequest, textAuthors, toFix } from '../../github/gather-fix.js';
import { gatherCommitFix } from '../../github/gather-commit.js';
import { ISSUE_CLOSERS_QUERY, type IssueClosersQuery } from '../../github/queries.js';
import { judgeTrust } from '../../github/trust.js';
import type { AppDeps } from '../deps.js';
import { recordTokenTotals } from '../http/metrics.js';
import { requestReview } from '../interaction/review.js';
import {
  BackfillRepoJob,
  JOB_KINDS,
  LearnCommitJob,
  LearnPullRequestJob,
  RepositoryChangeJob,
  ResolveFixJob,
  commitKey,
  pullRequestKey,
} from './events.js';
import { applyRepositoryChange } from './repository-change.js';

export type Authenticate = (installationId: number) => Promise<GitHubClient>;

/** Loads a repository's config (.github/memory-transfer.yml); defaults when not wired. */
export type ConfigLoader = (
  gh: GitHubClient,
  owner: string,
  repo: string,
  installationId: number,
) => Promise<RepoConfig>;

export interface LearningJobOptions {
  loadConfig?: ConfigLoader;
}

/** Runs `fn`; a GitHub 404 is logged and the job dropped (the thing is gone or out of reach). */
async function unlessGone(deps: AppDeps, what: Record<string, unknown>, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (error) {
    if (!isNotFound(error)) throw error;
    deps.logger.info('not found on GitHub; job dropped', { ...what, error: describeError(error) });
  }
}

export function registerLearningJobs(deps: AppDeps, auth: Authenticate, options: LearningJobOptions = {}): void {
  const loadConfig: ConfigLoader = options.loadConfig ?? (async () => DEFAULT_REPO_CONFIG);
  const learnDeps = { ...deps };
  let fallbacks = 0;

  /**
   * Learns the fix; when its new (or strengthened) insights wait as `proposed` (an untrusted
   * author, or `review_trusted`), asks for their review (dashboard or comment, per `review`).
   */
  async function learn(fix: Fix, config: RepoConfig, installationId: number): Promise<void> {
    const result = await learnFix(learnDeps, fix, { requireReview: requiresReview(config) });
    if (result.fallback) fallbacks += 1;
    const tokens = deps.meter?.totals();
    deps.logger.info(result.fallback ? 'fix learned by the rules: the model failed' : 'fix learned', {
      repo: fix.repo,
      ref: fix.ref,
      trusted: fix.trusted,
      skipped: result.skipped,
      created: result.created.length,
      merged: result.merged.length,
      rejected: result.rejected.length,
      ...(result.fallback ? { fallback: result.fallback } : {}),
      ...(result.retried ? { retried: true } : {}),
      // the model's token use since the App started (every process's /metrics shows it)
      ...(tokens ? { tokens } : {}),
    });
    if (tokens && !result.skipped) await recordTokenTotals(deps.store, { ...tokens, fallbacks });
    if (config.review === 'off') return;
    const touched = await deps.store.getMemories(fix.tenant, [...result.created, ...result.merged]);
    const memoryIds = touched.filter((m) => m.status === 'proposed' && m.level === 'insight').map((m) => m.id);
    if (memoryIds.length === 0) return;
    const number = fix.sourceKind === 'commit' ? undefined : Number(fix.ref);
    await requestReview(deps.queue, {
      installationId,
      repo: fix.repo,
      visibility: fix.visibility,
      ...(number !== undefined && Number.isInteger(number) ? { number } : {}),
      memoryIds,
    });
  }

  deps.queue.register(JOB_KINDS.resolveFix, async (raw) => {
    const job = ResolveFixJob.parse(raw);
    const gh = await auth(job.installationId);
    const what = { repo: `${job.owner}/${job.repo}`, source: job.source };
    await unlessGone(deps, what, async () => {
      if (job.source === 'pull_request') {
        await enqueuePullRequest(job, job.number, job.repoId ?? `${job.owner}/${job.repo}`, job.mergeSha);
      } else if (job.source === 'issue') {
        const data = await gh.graphql<IssueClosersQuery>(ISSUE_CLOSERS_QUERY, {
          owner: job.owner,
          name: job.repo,
          number: job.number,
        });
        const closers = data.repository?.issue?.closedByPullRequestsReferences.nodes ?? [];
        for (const pr of closers) {
          const [prOwner = '', prRepo = ''] = pr.repository.nameWithOwner.split('/');
          // only a merged PR of the same organization teaches this pool
          if (!pr.merged || prOwner.toLowerCase() !== job.owner.toLowerCase()) continue;
          await enqueuePullRequest(
            { ...job, owner: prOwner, repo: prRepo },
            pr.number,
            pr.repository.databaseId ?? pr.repository.nameWithOwner,
            pr.mergeCommit?.oid,
          );
        }
        if (closers.length === 0)
          deps.logger.debug('issue closed without a pull request; nothing to learn', { ...what, number: job.number });
      } else {
        await resolveCi(gh, job);
      }
    });
  });

  async function enqueuePullRequest(
    ref: { installationId: number; owner: string; repo: string; repoId?: number },
    number: number,
    repoKey: number | string,
    mergeSha: string | undefined,
  ): Promise<void> {
    const payload: LearnPullRequestJob = {
      installationId: ref.installationId,
      owner: ref.owner,
      repo: ref.repo,
      number,
      ...(typeof repoKey === 'number' ? { repoId: repoKey } : {}),
    };
    const added = await deps.queue.enqueue(
      pullRequestKey(repoKey, number, mergeSha),
      JOB_KINDS.learnPullRequest,
      payload,
    );
    if (!added) deps.logger.debug('fix already queued by another event', { repo: `${ref.owner}/${ref.repo}`, number });
  }

  /** CI went green on the default branch after the previous run failed: learn the fixing commit. */
  async function resolveCi(gh: GitHubClient, job: Extract<ResolveFixJob, { source: 'ci' }>): Promise<void> {
    const failed = await previousFailure(gh, job);
    if (!failed) return;
    const pulls = await gh.request('GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls', {
      owner: job.owner,
      repo: job.repo,
      commit_sha: job.headSha,
    });
    const merged =
      pulls.data.find((pr) => pr.merged_at && pr.merge_commit_sha === job.headSha) ??
      pulls.data.find((pr) => pr.merged_at);
    if (merged) {
      await enqueuePullRequest(
        job,
        merged.number,
        job.repoId ?? `${job.owner}/${job.repo}`,
        merged.merge_commit_sha ?? undefined,
      );
      return;
    }
    const payload: LearnCommitJob = {
      installationId: job.installationId,
      owner: job.owner,
      repo: job.repo,
      ...(job.repoId !== undefined ? { repoId: job.repoId } : {}),
      sha: job.headSha,
      failedCheck: failed,
    };
    await deps.queue.enqueue(
      commitKey(job.repoId ?? `${job.owner}/${job.repo}`, job.headSha),
      JOB_KINDS.learnCommit,
      payload,
    );
  }

  /** The failed check that this green run follows on the same branch, if the previous run failed. */
  async function previousFailure(
    gh: GitHubClient,
    job: Extract<ResolveFixJob, { source: 'ci' }>,
  ): Promise<{ name: string; checkRunId?: number } | undefined> {
    if (job.workflowId !== undefined) {
      const runs = await gh.request('GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs', {
        owner: job.owner,
        repo: job.repo,
        workflow_id: job.workflowId,
        branch: job.branch,
        status: 'completed',
        per_page: 10,
      });
      const earlier = runs.data.workflow_runs
        .filter((run) => run.id !== job.runId && (!job.createdAt || run.created_at < job.createdAt))
        .sort((a, b) => b.created_at.localeCompare(a.created_at))[0];
      if (!earlier || earlier.conclusion !== 'failure') return undefined;
      const jobs = await gh.request('GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs', {
        owner: job.owner,
        repo: job.repo,
        run_id: Number(earlier.id),
        filter: 'latest',
        per_page: 30,
      });
      const failedJob = jobs.data.jobs.find((j) => j.conclusion === 'failure');
      return {
        name: failedJob?.name ?? earlier.name ?? 'workflow',
        ...(failedJob ? { checkRunId: Number(failedJob.id) } : {}),
      };
    }
    if (job.before && job.appId !== undefined) {
      const suites = await gh.request('GET /repos/{owner}/{repo}/commits/{ref}/check-runs', {
        owner: job.owner,
        repo: job.repo,
        ref: job.before,
        app_id: job.appId,
        filter: 'latest',
        per_page: 30,
      });
      const failedRun = suites.data.check_runs.find(
        (run) => run.conclusion !== null && FAILED_CONCLUSIONS.has(run.conclusion),
      );
      return failedRun ? { name: failedRun.name, checkRunId: Number(failedRun.id) } : undefined;
    }
    return undefined;
  }

  deps.queue.register(JOB_KINDS.learnPullRequest, async (raw) => {
    const job = LearnPullRequestJob.parse(raw);
    const gh = await auth(job.installationId);
    const what = { repo: `${job.owner}/${job.repo}`, number: job.number };
    await unlessGone(deps, what, async () => {
      const config = await loadConfig(gh, job.owner, job.repo, job.installationId);
      if (!config.enabled) return;
      const context = await gatherPullRequest(gh, job);
      if (!context.merged) return;
      const verdict = decideFix(context, {
        fixLabels: config.fix_labels,
        appSlug: deps.settings.appSlug,
        trustedBots: config.trusted_bots,
      });
      if (!verdict.fix) {
        deps.logger.info('not a fix; skipped', { ...what, reason: verdict.reason });
        return;
      }
      const trust = await judgeTrust(deps, gh, job, {
        mergedBy: context.mergedBy?.login,
        textAuthors: textAuthors(context, deps.settings.appSlug).map((a) => a.login),
      });
      if (!trust.trusted)
        deps.logger.info('fix from people without write access: its insights wait for review', {
          ...what,
          untrusted: trust.untrusted,
        });
      await learn(
        toFix(context, { trusted: trust.trusted, appSlug: deps.settings.appSlug }),
        config,
        job.installationId,
      );
    });
  });

  deps.queue.register(JOB_KINDS.learnCommit, async (raw) => {
    const job = LearnCommitJob.parse(raw);
    const gh = await auth(job.installationId);
    const what = { repo: `${job.owner}/${job.repo}`, sha: job.sha };
    await unlessGone(deps, what, async () => {
      const config = await loadConfig(gh, job.owner, job.repo, job.installationId);
      if (!config.enabled) return;
      const gathered = await gatherCommitFix(gh, job, {
        appSlug: deps.settings.appSlug,
        fixLabels: config.fix_labels,
        trustedBots: config.trusted_bots,
      });
      if (!gathered.fix) {
        deps.logger.info('not a fix; skipped', { ...what, reason: gathered.reason });
        return;
      }
      const trust = await judgeTrust(deps, gh, job, { mergedBy: gathered.pusher, textAuthors: gathered.authors });
      await learn({ ...gathered.value, trusted: trust.trusted }, config, job.installationId);
    });
  });

  deps.queue.register(JOB_KINDS.backfillRepo, async (raw) => {
    const job = BackfillRepoJob.parse(raw);
    const gh = await auth(job.installationId);
    await unlessGone(deps, { repo: `${job.owner}/${job.repo}` }, async () => {
      const config = await loadConfig(gh, job.owner, job.repo, job.installationId);
      if (!config.enabled) return;
      const result = await backfillRepository(deps, gh, {
        owner: job.owner,
        repo: job.repo,
        limit: job.limit,
        appSlug: deps.settings.appSlug,
        fixLabels: config.fix_labels,
        trustedBots: config.trusted_bots,
        onFix: (fix) => learn(fix, config, job.installationId),
      });
      deps.logger.info('installation backfill done', { ...result });
    });
  });

  deps.queue.register(JOB_KINDS.repositoryChange, async (raw) => {
    await applyRepositoryChange(deps, RepositoryChangeJob.parse(raw));
  });
}
