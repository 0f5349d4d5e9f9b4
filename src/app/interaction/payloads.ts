/**
 * The parts of webhook payloads the interaction reads, parsed with zod at the edge. A payload
 * missing a field is ignored with a log line naming it.
 */
import { z } from 'zod';
import type { Visibility } from '../../core/types.js';

const repository = z.object({
  id: z.number().int(),
  full_name: z.string().regex(/^[^/\s]+\/[^/\s]+$/),
  private: z.boolean(),
  visibility: z.string().optional(),
});

const user = z.object({ login: z.string(), type: z.string().optional() });

const base = z.object({
  installation: z.object({ id: z.number().int() }),
  repository,
  sender: user,
});

export const issuePayload = base.extend({
  issue: z.object({
    number: z.number().int(),
    title: z.string(),
    body: z.string().nullable().optional(),
    state: z.string().optional(),
    user: user.nullable().optional(),
    /** present when the "issue" is a pull request */
    pull_request: z.unknown().optional(),
  }),
  changes: z
    .object({
      body: z.object({ from: z.string().nullable().optional() }).optional(),
      title: z.object({ from: z.string() }).optional(),
    })
    .optional(),
});
export type IssuePayload = z.infer<typeof issuePayload>;

export const pullRequestClosedPayload = base.extend({
  pull_request: z.object({ number: z.number().int() }),
});

export const issueCommentPayload = base.extend({
  issue: z.object({ number: z.number().int(), pull_request: z.unknown().optional() }),
  comment: z.object({
    id: z.number().int(),
    body: z.string().nullable().optional(),
    user: user.nullable(),
  }),
});
export type IssueCommentPayload = z.infer<typeof issueCommentPayload>;

const runPullRequests = z.array(z.object({ number: z.number().int() })).default([]);

export const checkSuitePayload = base.extend({
  check_suite: z.object({
    conclusion: z.string().nullable(),
    head_sha: z.string(),
    pull_requests: runPullRequests,
  }),
});

export const workflowRunPayload = base.extend({
  workflow_run: z.object({
    conclusion: z.string().nullable(),
    head_sha: z.string(),
    name: z.string().nullable().optional(),
    pull_requests: runPullRequests,
  }),
});

export function visibilityOf(repo: z.infer<typeof repository>): Visibility {
  if (repo.visibility === 'public' || repo.visibility === 'internal' || repo.visibility === 'private') {
    return repo.visibility;
  }
  return repo.private ? 'private' : 'public';
}

/** True for bots (including this App): their comments and edits are never acted on. */
export function isBot(user: { login: string; type?: string | undefined } | null | undefined): boolean {
  if (!user) return true;
  return user.type === 'Bot' || user.login.endsWith('[bot]');
}

/** One line naming the first bad field of a payload. */
export function describePayloadError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid payload';
  return `payload field \`${issue.path.map(String).join('.') || '(root)'}\`: ${issue.message}`;
}
