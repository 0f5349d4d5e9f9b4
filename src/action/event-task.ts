/**
 * The task text, derived from the event that started the workflow when the `task` input is empty:
 * issue title and body, PR title, body and changed paths, a workflow_dispatch input.
 */
export const MAX_TASK_CHARS = 8_000;
const MAX_PATHS = 100;

/** Lists the paths a pull request changes (first page of the API, up to 100). */
export type ChangedPathsFetcher = (owner: string, repo: string, pullNumber: number) => Promise<string[]>;

/** The parts of an event payload a task is read from (other fields are ignored). */
interface EventFields {
  issue?: { title: string; body?: string | null };
  comment?: { body?: string | null };
  pull_request?: { title: string; body?: string | null; number: number };
  repository?: { name: string; owner: { login: string } };
  inputs?: Record<string, unknown> | null;
  client_payload?: Record<string, unknown> | null;
}

type Fields = Record<string, unknown>;

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** absent, null or a string */
function isText(value: unknown): boolean {
  return value === undefined || value === null || typeof value === 'string';
}

/** an absent field, or one that passes `check` */
function optional(value: unknown, check: (value: Fields) => boolean): boolean {
  return value === undefined || (isObject(value) && check(value));
}

/**
 * The payload's fields, or undefined when one of them has another shape than GitHub's (then the
 * event gives no task): checked by hand, not with zod, which the Action does not load at start.
 */
function eventFields(payload: unknown): EventFields | undefined {
  if (!isObject(payload)) return undefined;
  const ok =
    optional(payload.issue, (issue) => typeof issue.title === 'string' && isText(issue.body)) &&
    optional(payload.comment, (comment) => isText(comment.body)) &&
    optional(
      payload.pull_request,
      (pr) => typeof pr.title === 'string' && isText(pr.body) && Number.isSafeInteger(pr.number),
    ) &&
    optional(
      payload.repository,
      (repo) => typeof repo.name === 'string' && isObject(repo.owner) && typeof repo.owner.login === 'string',
    ) &&
    (payload.inputs === null || optional(payload.inputs, () => true)) &&
    (payload.client_payload === null || optional(payload.client_payload, () => true));
  return ok ? (payload as EventFields) : undefined;
}

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
  const event = eventFields(payload);
  if (!event) return undefined;
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
