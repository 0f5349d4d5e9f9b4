/**
 * What `memory-transfer mcp` learns from the GitHub Actions job it runs in (GITHUB_* variables and
 * the event payload): the repository it answers for, its visibility, the run whose reports count
 * once, and whether that run may vote at all. The App decides the same from the verified OIDC
 * token (src/app/http/oidc.ts); here the pool is the user's own, and the rules are the same:
 * runs acting for forks (pull_request_target, workflow_run, a pull request from a fork) and runs
 * triggered by people outside the repository (author association other than owner, member or
 * collaborator) read, but never vote.
 */
import { z } from 'zod';
import type { Visibility } from '../core/types.js';
import { VISIBILITIES } from '../core/types.js';

/** events whose runs act with the base repository's privileges for fork content (as the App refuses them) */
export const FORK_PRIVILEGED_EVENTS = new Set(['pull_request_target', 'workflow_run']);
const INSIDERS = new Set(['OWNER', 'MEMBER', 'COLLABORATOR']);

const payloadSchema = z.looseObject({
  repository: z
    .looseObject({ id: z.number().optional(), visibility: z.string().optional(), private: z.boolean().optional() })
    .optional(),
  pull_request: z
    .looseObject({
      author_association: z.string().optional(),
      head: z.looseObject({ repo: z.looseObject({ id: z.number() }).nullable().optional() }).optional(),
    })
    .optional(),
  issue: z.looseObject({ author_association: z.string().optional() }).optional(),
  comment: z.looseObject({ author_association: z.string().optional() }).optional(),
  review: z.looseObject({ author_association: z.string().optional() }).optional(),
});

export interface WorkflowRun {
  /** owner/name (GITHUB_REPOSITORY) */
  repository?: string;
  /** from the event payload; undefined when it does not say */
  visibility?: Visibility;
  runId?: string;
  /** undefined: this run may vote; otherwise why not */
  voteRefusal?: string;
}

/** Reads the run from the job's environment and its (already read) event payload. Outside Actions: {}. */
export function workflowRunOf(env: Record<string, string | undefined>, rawPayload: unknown): WorkflowRun {
  if (env.GITHUB_ACTIONS !== 'true') return {};
  const parsed = payloadSchema.safeParse(rawPayload ?? {});
  const payload = parsed.success ? parsed.data : {};
  const eventName = env.GITHUB_EVENT_NAME ?? '';
  const visibility = VISIBILITIES.find((v) => v === payload.repository?.visibility);
  return {
    ...(env.GITHUB_REPOSITORY ? { repository: env.GITHUB_REPOSITORY } : {}),
    ...(visibility
      ? { visibility }
      : payload.repository?.private !== undefined
        ? { visibility: payload.repository.private ? 'private' : 'public' }
        : {}),
    ...(env.GITHUB_RUN_ID ? { runId: env.GITHUB_RUN_ID } : {}),
    ...voteRefusalOf(eventName, payload, parsed.success),
  };
}

function voteRefusalOf(
  eventName: string,
  payload: z.infer<typeof payloadSchema>,
  readable: boolean,
): { voteRefusal?: string } {
  if (!readable) return { voteRefusal: 'the event payload could not be read' };
  if (FORK_PRIVILEGED_EVENTS.has(eventName)) {
    return { voteRefusal: `runs triggered by "${eventName}" act for forks with this repository's privileges` };
  }
  const pr = payload.pull_request;
  if (pr?.head && payload.repository?.id !== undefined && pr.head.repo?.id !== payload.repository.id) {
    return { voteRefusal: 'the run is for a pull request from a fork' };
  }
  // the person whose action triggered the run: the comment's or review's author, else the issue's or PR's
  const trigger = payload.comment ?? payload.review ?? payload.issue ?? pr;
  const association = trigger?.author_association;
  if (association !== undefined && !INSIDERS.has(association)) {
    return { voteRefusal: `the run was triggered by someone outside the repository (${association.toLowerCase()})` };
  }
  return {};
}
