/**
 * Helpers for the interaction tests: real webhook payloads from @octokit/webhooks-examples with
 * the installation added, memories put straight into the pool, and nock shortcuts.
 */
import { createRequire } from 'node:module';
import type nock from 'nock';
import type { Memory, Visibility } from '../../../src/core/types.js';
import { keys } from '../../../src/app/interaction/state.js';
import type { Store } from '../../../src/store/store.js';
import { sampleMemory } from '../../helpers/sample-memory.js';

export const OWNER = 'Codertocat';
export const REPO = 'Hello-World';
export const FULL = `${OWNER}/${REPO}`;
export const TENANT = 'codertocat';
export const INSTALLATION = 1;
export const CONFIG = encodeURIComponent('.github/memory-transfer.yml');

const require = createRequire(import.meta.url);
const examples = require('@octokit/webhooks-examples/api.github.com/index.json') as {
  name: string;
  examples: Record<string, any>[];
}[];

/** A real example payload of `event.action` (the first one, or the one `pick` selects), with our installation. */
export function example(event: string, action: string, pick: (p: any) => boolean = () => true): any {
  const found = examples.find((e) => e.name === event)?.examples.find((p) => p.action === action && pick(p));
  if (!found) throw new Error(`no example for ${event}.${action}`);
  const payload = structuredClone(found);
  payload.installation = { id: INSTALLATION, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==' };
  return payload;
}

/** issues.opened for Codertocat/Hello-World#1 with this text, in a repository of this visibility. */
export function issueOpened(title: string, body: string, visibility: Visibility = 'public'): any {
  const payload = example('issues', 'opened', (p) => !p.changes);
  payload.issue.title = title;
  payload.issue.body = body;
  payload.repository.visibility = visibility;
  payload.repository.private = visibility !== 'public';
  return payload;
}

let counter = 0;
/** A unique delivery id. */
export function delivery(): string {
  counter += 1;
  return `delivery-${process.pid}-${counter}`;
}

/** Puts an insight learned in `repo` straight into the pool. */
export async function putInsight(
  store: Store,
  id: string,
  repo: string,
  visibility: Visibility,
  overrides: Partial<Memory> = {},
): Promise<Memory> {
  const memory = sampleMemory({
    id,
    tenant: TENANT,
    visibility,
    provenance: [
      {
        tenant: TENANT,
        repo,
        visibility,
        sourceKind: 'pull_request',
        ref: '7',
        url: `https://github.com/${repo}/pull/7`,
        authors: ['ada'],
        date: '2026-01-02T00:00:00Z',
      },
    ],
    votes: { up: 0, down: 0 },
    ...overrides,
  });
  await store.putMemory(memory);
  return memory;
}

/** Insight text that matches an issue about a parser crashing on empty input. */
export const EMPTY_INPUT = {
  title: 'Parser crashes on empty input',
  body: 'Calling the parser with an empty string throws instead of returning an empty result. Empty input should be handled.',
};

/** The repository (and org) have no memory-transfer.yml. */
export function noConfigFiles(scope: nock.Scope, repo = REPO): nock.Scope {
  return scope
    .get(`/repos/${OWNER}/${repo}/contents/${CONFIG}`)
    .reply(404, { message: 'Not Found' })
    .get(`/repos/${OWNER}/.github/contents/${CONFIG}`)
    .reply(404, { message: 'Not Found' });
}

/** The repository's memory-transfer.yml has this (raw YAML) text. */
export function repoConfigFile(scope: nock.Scope, yaml: string, repo = REPO): nock.Scope {
  return scope
    .get(`/repos/${OWNER}/${repo}/contents/${CONFIG}`)
    .reply(200, yaml, { 'content-type': 'text/plain; charset=utf-8' });
}

export function permission(
  scope: nock.Scope,
  login: string,
  level: 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none',
  repo = REPO,
) {
  return scope
    .get(`/repos/${OWNER}/${repo}/collaborators/${login}/permission`)
    .reply(200, { permission: level, role_name: level, user: { login } });
}

type ShownPart = { lexical: number; vector: number; routine: number; prior: number; fused: number };

/** Records the App's comment `commentId` on Hello-World#number, showing these insights (score 0.5 unless given). */
export async function putCommentState(
  store: Store,
  number: number,
  commentId: number,
  shown: { id: string; score?: number; parts?: ShownPart }[],
  updatedAt = new Date().toISOString(),
): Promise<void> {
  const parts: ShownPart = { lexical: 0.5, vector: 0, routine: 0, prior: 0, fused: 0.5 };
  await store.setState(
    keys.comment(FULL, number),
    JSON.stringify({
      installationId: INSTALLATION,
      commentId,
      shown: shown.map((s) => ({ id: s.id, score: s.score ?? 0.5, parts: s.parts ?? parts })),
      countedReactions: [],
      deleted: false,
      updatedAt,
    }),
  );
}

/** The state the App keeps for its comment on Hello-World#number. */
export async function commentStateOf(store: Store, number = 1): Promise<any> {
  const raw = await store.getState(keys.comment(FULL, number));
  return raw ? JSON.parse(raw) : undefined;
}
