/**
 * The task text, derived from the event that started the workflow when the `task` input is empty:
 * issue title and body, PR title, body and changed paths, a workflow_dispatch input.
 */
import { z } from 'zod';

export const MAX_TASK_CHARS = 8_000;
const MAX_PATHS = 100;

/** Lists the paths a pull request changes (first page of the API, up to 100). */
export type ChangedPathsFetcher = (owner: string, repo: string, pullNumber: number) => Promise<string[]>;

const text = z.string().nullish();
const eventSchema = z.looseObject({
  issue: z.looseObject({ title: z.string(), body: text }).optional(),
  comment: z.looseObject({ body: text }).optional(),
  pull_request: z.looseObject({ title: z.string(), body: text, number: z.number().int() }).optional(),
  repository: z.looseObject({ name: z.string(), owner: z.looseObject({ login: z.string() }) }).optional(),
  inputs: z.record(z.string(), z.unknown()).nullish(),
  client_payload: z.record(z.string(), z.unknown()).nullish(),
});

const PR_EVENTS = new Set([
  'pull_request',
  'pull_request_target',
  'pull_request_review',
  'pull_request_review_comment',
]);
const ISSUE_EVENTS = new Set(['issues', 'issue_comment']);
/** workflow_dispatch / repository_dispatch input names read as the task, in this order */
const DISPATCH_KEYS = ['task', 'prompt', 'description'];

function join(parts: (string | null | undefined)[]): string {
  return parts
    .map((p) => (p ?? '').trim())
    .filter((p) => p !== '')
    .join('\n\n');
}

function dispatchInput(values: Record<string, unknown> | null | undefined): string | undefined {
  for (const key of DISPATCH_KEYS) {
    const value = values?.[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return undefined;
}

/** The task for this event, or undefined when the event carries none (then the `task` input is required). */
export async function taskFromEvent(
  eventName: string,
  payload: unknown,
  changedPaths: ChangedPathsFetcher,
): Promise<string | undefined> {
  const parsed = eventSchema.safeParse(payload);
  if (!parsed.success) return undefined;
  const event = parsed.data;
  let task: string | undefined;
  if (PR_EVENTS.has(eventName) && event.pull_request) {
    const pr = event.pull_request;
    let paths: string[] = [];
    if (event.repository) {
      paths = (await changedPaths(event.repository.owner.login, event.repository.name, pr.number)).slice(0, MAX_PATHS);
    }
    task = join([pr.title, pr.body, paths.length > 0 ? `Changed paths:\n${paths.join('\n')}` : undefined]);
  } else if (ISSUE_EVENTS.has(eventName) && event.issue) {
    task = join([event.issue.title, event.issue.body, eventName === 'issue_comment' ? event.comment?.body : undefined]);
  } else if (eventName === 'workflow_dispatch') {
    task = dispatchInput(event.inputs);
  } else if (eventName === 'repository_dispatch') {
    task = dispatchInput(event.client_payload);
  }
  if (!task) return undefined;
  return task.length > MAX_TASK_CHARS ? task.slice(0, MAX_TASK_CHARS) : task;
}
