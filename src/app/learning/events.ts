/**
 * The few fields the learning handlers read from webhook payloads (zod at the edge), and the
 * payloads of the durable jobs they enqueue. A payload missing a field is logged and ignored.
 */
import { z } from 'zod';

const owner = z.object({ login: z.string().min(1) });
const repository = z.object({
  id: z.number().int(),
  name: z.string().min(1),
  full_name: z.string().min(1),
  owner,
  private: z.boolean().optional(),
  visibility: z.string().optional(),
  default_branch: z.string().optional(),
});
const installation = z.object({ id: z.number().int() });
const user = z.object({ login: z.string(), type: z.string().optional() });

export const PullRequestClosed = z.object({
  pull_request: z.object({
    number: z.number().int(),
    merged: z.boolean().nullable().optional(),
    merge_commit_sha: z.string().nullable().optional(),
    user,
  }),
  repository,
  installation,
});

export const IssueClosed = z.object({
  issue: z.object({
    number: z.number().int(),
    state_reason: z.string().nullable().optional(),
    pull_request: z.unknown().optional(),
  }),
  repository,
  installation,
});

export const WorkflowRunCompleted = z.object({
  workflow_run: z.object({
    id: z.number().int(),
    workflow_id: z.number().int(),
    conclusion: z.string().nullable(),
    head_branch: z.string().nullable(),
    head_sha: z.string(),
    event: z.string(),
    created_at: z.string(),
    pull_requests: z.array(z.object({ number: z.number().int() })).default([]),
  }),
  repository,
  installation,
});

export const CheckSuiteCompleted = z.object({
  check_suite: z.object({
    id: z.number().int(),
    conclusion: z.string().nullable(),
    head_branch: z.string().nullable(),
    head_sha: z.string(),
    before: z.string().nullable().optional(),
    app: z.object({ id: z.number().int(), slug: z.string().optional() }).nullable().optional(),
    pull_requests: z.array(z.object({ number: z.number().int() })).default([]),
  }),
  repository,
  installation,
});

const installationRepo = z.object({ id: z.number().int(), full_name: z.string().min(3) });

export const InstallationCreated = z.object({
  installation: installation.extend({ account: owner.nullable().optional() }),
  repositories: z.array(installationRepo).optional(),
});

export const InstallationRepositoriesAdded = z.object({
  installation,
  repositories_added: z.array(installationRepo),
});

export const RepositoryChanged = z.object({
  action: z.string(),
  repository,
  changes: z
    .object({
      owner: z
        .object({ from: z.object({ user: owner.optional(), organization: owner.optional() }).passthrough() })
        .optional(),
      repository: z.object({ name: z.object({ from: z.string() }) }).optional(),
    })
    .passthrough()
    .optional(),
});

// ---- job payloads ----

const repoRef = {
  installationId: z.number().int(),
  owner: z.string().min(1),
  repo: z.string().min(1),
  repoId: z.number().int().optional(),
};

/** A fix event, resolved by the worker into pull requests (or a commit) to learn. */
export const ResolveFixJob = z.discriminatedUnion('source', [
  z.object({
    source: z.literal('pull_request'),
    ...repoRef,
    number: z.number().int(),
    mergeSha: z.string().optional(),
  }),
  z.object({ source: z.literal('issue'), ...repoRef, number: z.number().int() }),
  z.object({
    source: z.literal('ci'),
    ...repoRef,
    headSha: z.string(),
    branch: z.string(),
    defaultBranch: z.string(),
    /** workflow_run: the workflow whose previous run failed */
    workflowId: z.number().int().optional(),
    runId: z.number().int().optional(),
    createdAt: z.string().optional(),
    /** check_suite: the app whose suite on `before` failed */
    appId: z.number().int().optional(),
    before: z.string().optional(),
    pullRequests: z.array(z.number().int()),
  }),
]);
export type ResolveFixJob = z.infer<typeof ResolveFixJob>;

export const LearnPullRequestJob = z.object({ ...repoRef, number: z.number().int() });
export type LearnPullRequestJob = z.infer<typeof LearnPullRequestJob>;

export const LearnCommitJob = z.object({
  ...repoRef,
  sha: z.string(),
  /** the check that failed before this commit made it pass */
  failedCheck: z.object({ name: z.string(), checkRunId: z.number().int().optional() }).optional(),
});
export type LearnCommitJob = z.infer<typeof LearnCommitJob>;

export const BackfillRepoJob = z.object({ ...repoRef, limit: z.number().int().min(0) });
export type BackfillRepoJob = z.infer<typeof BackfillRepoJob>;

export const RepositoryChangeJob = z.object({
  action: z.enum(['privatized', 'publicized', 'renamed', 'transferred', 'deleted']),
  repoId: z.number().int(),
  /** owner/name now */
  fullName: z.string(),
  /** owner/name before a rename or transfer */
  previousFullName: z.string().optional(),
  visibility: z.enum(['public', 'internal', 'private']),
});
export type RepositoryChangeJob = z.infer<typeof RepositoryChangeJob>;

export const JOB_KINDS = {
  resolveFix: 'resolve-fix',
  learnPullRequest: 'learn-pr',
  learnCommit: 'learn-commit',
  backfillRepo: 'backfill-repo',
  repositoryChange: 'repository-change',
} as const;

/** The natural key of a merged PR: a redelivery or a second event for the same fix learns once. */
export function pullRequestKey(repoId: number | string, number: number, mergeSha: string | undefined): string {
  return `fix:${repoId}:pr:${number}:${mergeSha ?? 'unknown'}`;
}

export function commitKey(repoId: number | string, sha: string): string {
  return `fix:${repoId}:commit:${sha}`;
}
