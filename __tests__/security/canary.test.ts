/**
 * Leak prevention end to end: a canary planted in a private repository's fix is learned (with a
 * model that copies it into every level), then every output a public repository of the same org,
 * an internal one, or another org can get is searched for it: recall at every level, the App's
 * comment, the Action's injection from the server and from an exported pool file.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recallInMemory } from '../../src/action/local-recall.js';
import { renderSuggestionComment } from '../../src/core/rendering/comment-render.js';
import { parsePoolEntries, serializePool } from '../../src/core/retrieval/pool-file.js';
import { renderInjection, toInjectedInsights } from '../../src/core/rendering/render-injection.js';
import type { MemoryLevel, RecallHit, Requester } from '../../src/core/types.js';
import { MEMORY_LEVELS, MEMORY_STATUSES } from '../../src/core/types.js';
import { escapeMarkdown, markdownLink } from '../../src/security/markdown.js';
import { createRedactor } from '../../src/security/redact.js';
import { updateRepoVisibility } from '../../src/services/governance.js';
import { learnFix } from '../../src/services/learn.js';
import { recall } from '../../src/services/recall.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { GOOD_ANSWER, llmAbstractor, makeFix, mockLlm, recordingLogger, tempDir } from './e2e-helpers.js';

const CANARY = 'quokka7319canary';
const dir = tempDir('mt-canary-');
const clock = { now: () => new Date('2026-11-03T00:00:00Z') };
let store: Store;

/** a model that writes the canary into every level, as if the private fix's wording leaked into it */
const leaky = () => ({
  workflow: {
    goal: `Check the ${CANARY} parser before merging a fix.`,
    steps: [`Reproduce the ${CANARY} failure.`, 'Run the suite.'],
  },
  summary: {
    task_summary: `The ${CANARY} parser crashed on empty input.`,
    experience_summary: `A regression test for ${CANARY} confirmed the fix.`,
  },
  insight: {
    title: `Pin ${CANARY} empty input with a regression test`,
    description: `Use this when the ${CANARY} parser crashes on an empty input.`,
    content: `Write the failing test for the empty ${CANARY} input first, then fix the guard and run the suite.`,
  },
  tags: GOOD_ANSWER.tags,
});

beforeAll(async () => {
  store = await openStore(join(dir.path, 'pool.db'));
  const logger = recordingLogger();
  const bodies: string[] = [];
  mockLlm(1, bodies, leaky);
  mockLlm(2, bodies);
  const deps = { store, abstractor: llmAbstractor(logger), redactor: createRedactor(), logger, clock };
  const secret = makeFix({
    repo: 'acme/vault',
    visibility: 'private',
    ref: '9',
    url: 'https://github.com/acme/vault/pull/9',
    title: `Fix ${CANARY} parser crash on empty input`,
    problem: `The ${CANARY} parser crashed on an empty payload.`,
    change: `+ if (!${CANARY}) return [];`,
  });
  await learnFix(deps, secret);
  await learnFix(deps, makeFix({ repo: 'acme/site', visibility: 'public', ref: '1' }));
  await learnFix(deps, makeFix({ repo: 'other/app', tenant: 'other', visibility: 'public', ref: '1' }));
  const all = await store.listMemories('acme', { status: [...MEMORY_STATUSES], limit: 1000 });
  // the canary did reach the pool (private), so the checks below are not vacuous
  expect(all.some((m) => m.content.includes(CANARY) || m.title.includes(CANARY))).toBe(true);
});
afterAll(async () => {
  await store.close();
  dir.remove();
});

const TASKS = [`${CANARY} parser crashes on empty input`, 'parser crash on empty input regression test', CANARY];

function outputsFor(hits: RecallHit[], requester: Requester): string {
  const ctx = {
    escape: escapeMarkdown,
    link: (text: string, url: string) => markdownLink(text, url, 'https://github.com'),
    githubUrl: 'https://github.com',
    requester,
  };
  const injected = toInjectedInsights(hits, requester);
  return [
    JSON.stringify(hits),
    hits.length ? renderSuggestionComment(hits, ctx) : '',
    JSON.stringify(injected),
    renderInjection(injected, { maxChars: 100_000 }).markdown,
  ].join('\n');
}

async function everything(requester: Requester): Promise<string> {
  const out: string[] = [];
  const exported = serializePool(
    { tenant: 'acme', exportedAt: clock.now().toISOString() },
    await store.listMemories('acme', { limit: 1000 }),
  );
  const { entries } = parsePoolEntries(Buffer.from(exported));
  for (const level of MEMORY_LEVELS as readonly MemoryLevel[]) {
    for (const task of TASKS) {
      const hits = await recall({ store, logger: recordingLogger(), clock }, requester, task, {
        k: 10,
        level,
        minScore: 0,
      });
      out.push(outputsFor(hits, requester));
      // the Action in pool-file mode, given the whole org's export
      const local = await recallInMemory(entries, requester, task, { k: 10, level, minScore: 0 });
      out.push(outputsFor(local, requester));
    }
  }
  return out.join('\n');
}

describe('a canary from a private repository', () => {
  it('is recalled in the private repository itself (the check can see it)', async () => {
    expect(await everything({ tenant: 'acme', repo: 'acme/vault', visibility: 'private' })).toContain(CANARY);
  });

  it.each([
    ['a public repository of the same org', { tenant: 'acme', repo: 'acme/site', visibility: 'public' }],
    ['an internal repository of the same org', { tenant: 'acme', repo: 'acme/wiki', visibility: 'internal' }],
    ['a repository of the same org with unknown visibility', { tenant: 'acme', repo: 'acme/new' }],
    ['a private repository of another org', { tenant: 'other', repo: 'other/app', visibility: 'private' }],
    ['another org spelled like a prefix', { tenant: 'acme-evil', repo: 'acme-evil/x', visibility: 'private' }],
  ] as [string, Requester][])('never appears in any output for %s', async (_name, requester) => {
    expect(await everything(requester)).not.toContain(CANARY);
  });

  it('still never reaches a public repository after the private repository is made public', async () => {
    await updateRepoVisibility(store, 'acme', 'acme/vault', 'public', { now: clock.now() });
    expect(await everything({ tenant: 'acme', repo: 'acme/site', visibility: 'public' })).not.toContain(CANARY);
  });
});
