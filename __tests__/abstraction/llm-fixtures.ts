/** Fixes and memories shared by the LLM abstractor and specificity tests. */
import type { Fix } from '../../src/core/types.js';
import type { AbstractedMemory } from '../../src/ports/index.js';

export function makeFix(overrides: Partial<Fix> = {}): Fix {
  return {
    tenant: 'acme',
    repo: 'acme/http-kit',
    visibility: 'private',
    sourceKind: 'pull_request',
    ref: '42',
    url: 'https://github.com/acme/http-kit/pull/42',
    title: 'Fix `retryLimit` ignored when `retry` is a number',
    problem: 'Passing a number as the retry option dropped the default "exponential backoff with jitter" setting.',
    change: [
      '--- a/source/core/normalize-options.ts',
      '+++ b/source/core/normalize-options.ts',
      '-  options.retry = { limit: input.retry };',
      '+  options.retry = { ...defaults.retry, limit: normalizeRetryLimit(input.retry) };',
      "+  if (!options.retry.methods) throw new TypeError('retry methods missing');",
    ].join('\n'),
    files: ['source/core/normalize-options.ts', 'test/retry.ts', 'index.ts'],
    testsChanged: true,
    signals: [{ kind: 'tests-added', name: 'test/retry.ts' }],
    authors: ['octocat'],
    trusted: true,
    language: 'TypeScript',
    date: '2026-11-02T10:00:00Z',
    ...overrides,
  };
}

export function makeInsight(title: string, description: string, content: string): AbstractedMemory {
  return {
    level: 'insight',
    title,
    description,
    content,
    body: { level: 'insight', insight: { title, description, content } },
    tags: ['routine:regression-test'],
    lesson: null,
    routines: ['regression-test'],
    facet: null,
    examples: [],
    evidence: ['tests changed in the same change'],
  };
}

/** A valid model answer for makeFix() (names nothing of the fix). */
export const goodAnswer = {
  workflow: {
    goal: 'Confirm that short-form option values keep every default.',
    steps: [
      'Write a test passing the short form of the option.',
      'Assert each default field survives.',
      'Run the suite.',
    ],
  },
  summary: {
    task_summary: 'An option given in short form silently dropped its defaults.',
    experience_summary: 'A test that asserts the merged defaults catches this class of bug.',
  },
  insight: {
    title: 'Assert merged defaults when options accept a short form',
    description: 'Use this when an option can be given as a shorthand value or as a full object.',
    content:
      'Add a regression test that passes the shorthand and asserts every default field of the full object. The fix worked because defaults were merged before the shorthand was applied.',
  },
  tags: { routine: ['config-env', 'regression-test'], check: ['unit'], language: 'typescript', tool: 'npm' },
};
