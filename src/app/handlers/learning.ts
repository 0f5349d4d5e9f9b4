/**
 * Fix, installation and repository events → durable jobs. Each handler only validates the few
 * fields it needs and records one job keyed by the delivery id (a redelivery is ignored), so the
 * webhook is acknowledged at once; the worker (src/app/learning/jobs.ts) does the slow work and
 * dedupes again by natural key (repository, PR, merge sha).
 */
import type { Probot } from 'probot';
import type { z } from 'zod';
import type { AppDeps } from '../deps.js';
import {
  CheckSuiteCompleted,
  InstallationCreated,
  InstallationRepositoriesAdded,
  IssueClosed,
  JOB_KINDS,
  PullRequestClosed,
  RepositoryChanged,
  WorkflowRunCompleted,
  type BackfillRepoJob,
  type RepositoryChangeJob,
  type ResolveFixJob,
} from '../learning/events.js';
import { registerLearningJobs } from '../learning/jobs.js';
import { visibilityOf } from '../../github/gather-fix.js';
import { cachedRepoConfig } from '../interaction/config.js';
import type { InstallationOctokit } from '../interaction/context.js';

interface EventContext {
  id: string;
  name: string;
  payload: unknown;
}

/** Parses the payload; a payload missing a field is logged and ignored (GitHub still gets 200). */
function parse<T extends z.ZodType>(deps: AppDeps, schema: T, context: EventContext): z.infer<T> | undefined {
  const result = schema.safeParse(context.payload);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  deps.logger.warn('webhook payload ignored: a field is missing or malformed', {
    event: context.name,
    delivery: context.id,
    field: issue ? issue.path.join('.') : undefined,
    problem: issue?.message,
  });
  return undefined;
}

async function enqueue(
  deps: AppDeps,
  context: EventContext,
  kind: string,
  payload: unknown,
  suffix = '',
): Promise<void> {
  const key = `delivery:${context.id}${suffix}`;
  const added = await deps.queue.enqueue(key, kind, payload);
  deps.logger.debug(added ? 'job recorded' : 'redelivery ignored', { key, kind, event: context.name });
}

export function registerLearningHandlers(app: Probot, deps: AppDeps): void {
  registerLearningJobs(deps, (installationId) => app.auth(installationId), {
    loadConfig: async (gh, owner, repo, installationId) =>
      (await cachedRepoConfig(deps.configs, gh as InstallationOctokit, installationId, `${owner}/${repo}`)).config,
  });

  app.on('pull_request.closed', async (context) => {
    const event = parse(deps, PullRequestClosed, context);
    if (!event || event.pull_request.merged !== true) return;
    const job: ResolveFixJob = {
      source: 'pull_request',
      installationId: event.installation.id,
      owner: event.repository.owner.login,
      repo: event.repository.name,
      repoId: event.repository.id,
      number: event.pull_request.number,
      ...(event.pull_request.merge_commit_sha ? { mergeSha: event.pull_request.merge_commit_sha } : {}),
    };
    await enqueue(deps, context, JOB_KINDS.resolveFix, job);
  });

  app.on('issues.closed', async (context) => {
    const event = parse(deps, IssueClosed, context);
    if (!event) return;
    // "not planned" and "duplicate" closes are not fixes; null is an old issue closed as completed
    const reason = event.issue.state_reason ?? 'completed';
    if (reason !== 'completed') return;
    const job: ResolveFixJob = {
      source: 'issue',
      installationId: event.installation.id,
      owner: event.repository.owner.login,
      repo: event.repository.name,
      repoId: event.repository.id,
      number: event.issue.number,
    };
    await enqueue(deps, context, JOB_KINDS.resolveFix, job);
  });

  app.on('workflow_run.completed', async (context) => {
    const event = parse(deps, WorkflowRunCompleted, context);
    if (!event) return;
    const run = event.workflow_run;
    if (run.conclusion !== 'success' || !run.head_branch) return;
    const defaultBranch = event.repository.default_branch ?? 'main';
    // a PR's red → green is read from its checks when it merges; here: the default branch
    if (run.head_branch !== defaultBranch || run.pull_requests.length > 0) return;
    const job: ResolveFixJob = {
      source: 'ci',
      installationId: event.installation.id,
      owner: event.repository.owner.login,
      repo: event.repository.name,
      repoId: event.repository.id,
      headSha: run.head_sha,
      branch: run.head_branch,
      defaultBranch,
      workflowId: run.workflow_id,
      runId: run.id,
      createdAt: run.created_at,
      pullRequests: run.pull_requests.map((pr) => pr.number),
    };
    await enqueue(deps, context, JOB_KINDS.resolveFix, job);
  });

  app.on('check_suite.completed', async (context) => {
    const event = parse(deps, CheckSuiteCompleted, context);
    if (!event) return;
    const suite = event.check_suite;
    if (suite.conclusion !== 'success' || !suite.head_branch || !suite.before || !suite.app) return;
    // GitHub Actions suites are handled by workflow_run (with the workflow's own history)
    if (suite.app.slug === 'github-actions') return;
    const defaultBranch = event.repository.default_branch ?? 'main';
    if (suite.head_branch !== defaultBranch || /^0+$/.test(suite.before)) return;
    const job: ResolveFixJob = {
      source: 'ci',
      installationId: event.installation.id,
      owner: event.repository.owner.login,
      repo: event.repository.name,
      repoId: event.repository.id,
      headSha: suite.head_sha,
      branch: suite.head_branch,
      defaultBranch,
      appId: suite.app.id,
      before: suite.before,
      pullRequests: suite.pull_requests.map((pr) => pr.number),
    };
    await enqueue(deps, context, JOB_KINDS.resolveFix, job);
  });

  app.on('installation.created', async (context) => {
    const event = parse(deps, InstallationCreated, context);
    if (!event) return;
    await enqueueBackfills(deps, context, event.installation.id, event.repositories ?? []);
  });

  app.on('installation_repositories.added', async (context) => {
    const event = parse(deps, InstallationRepositoriesAdded, context);
    if (!event) return;
    await enqueueBackfills(deps, context, event.installation.id, event.repositories_added);
  });

  app.on(
    [
      'repository.privatized',
      'repository.publicized',
      'repository.renamed',
      'repository.transferred',
      'repository.deleted',
    ],
    async (context) => {
      const event = parse(deps, RepositoryChanged, context);
      if (!event) return;
      const action = event.action as RepositoryChangeJob['action'];
      const from = event.changes?.owner?.from;
      const previousOwner = from?.organization?.login ?? from?.user?.login;
      const previousName = event.changes?.repository?.name.from;
      const job: RepositoryChangeJob = {
        action,
        repoId: event.repository.id,
        fullName: event.repository.full_name,
        visibility: visibilityOf(event.repository),
        ...(previousOwner ? { previousFullName: `${previousOwner}/${event.repository.name}` } : {}),
        ...(previousName ? { previousFullName: `${event.repository.owner.login}/${previousName}` } : {}),
      };
      await enqueue(deps, context, JOB_KINDS.repositoryChange, job);
    },
  );
}

async function enqueueBackfills(
  deps: AppDeps,
  context: EventContext,
  installationId: number,
  repositories: { id: number; full_name: string }[],
): Promise<void> {
  const limit = deps.settings.installBackfillLimit;
  if (limit <= 0) return;
  for (const repository of repositories) {
    const [owner = '', repo = ''] = repository.full_name.split('/');
    const job: BackfillRepoJob = { installationId, owner, repo, repoId: repository.id, limit };
    await enqueue(deps, context, JOB_KINDS.backfillRepo, job, `:backfill:${repository.id}`);
  }
}
