/** Shared by the end-to-end security tests: a real SQLite pool, the LLM abstractor against nock, a fix. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import { chatCompletion } from '../helpers/openai-server.js';
import { createLlmAbstractor } from '../../src/abstraction/llm-abstractor.js';
import { createRulesAbstractor } from '../../src/abstraction/rules-abstractor.js';
import { createOpenAIClient, llmConfigFromEnv } from '../../src/config/llm.js';
import type { Fix } from '../../src/core/types.js';
import type { Abstractor, Logger } from '../../src/ports/index.js';

export const LLM_BASE = 'https://llm.test';
export const LLM_PATH = '/v1/chat/completions';

export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** A logger that keeps every line (message and fields) so tests can search what was logged. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (message: string, fields?: Record<string, unknown>) => {
    lines.push(`${message} ${fields ? JSON.stringify(fields) : ''}`);
  };
  return { lines, debug: log, info: log, warn: log, error: log };
}

export const GOOD_ANSWER = {
  workflow: {
    goal: 'Confirm that the fix holds for the input that broke it.',
    steps: ['Write a failing regression test for the input.', 'Fix the guard.', 'Run the whole suite.'],
  },
  summary: {
    task_summary: 'A function crashed on an input it did not expect.',
    experience_summary: 'A regression test written before the fix confirmed it.',
  },
  insight: {
    title: 'Pin the breaking input with a regression test',
    description: 'Use this when a crash was caused by an input the code did not expect.',
    content: 'Write the failing test for the breaking input first, then fix the guard and run the suite.',
  },
  tags: { routine: ['regression-test'], check: ['unit'], language: null, tool: null },
};

/** The body of a chat completion answering `answer` (JSON). */
export const completion = (answer: unknown) => chatCompletion(answer);

/** The fix data the abstractor sent, from a chat request body (the user message). */
export function userPrompt(body: unknown): string {
  const messages = (body as { messages?: { role: string; content: string }[] }).messages ?? [];
  return messages.find((m) => m.role === 'user')?.content ?? '';
}

/**
 * Mocks the LLM endpoint for `times` requests; every request body is pushed to `bodies` (raw
 * JSON text). `answer` builds the model's answer from the request (default GOOD_ANSWER).
 */
export function mockLlm(
  times: number,
  bodies: string[],
  answer: (body: unknown) => unknown = () => GOOD_ANSWER,
): nock.Scope {
  return nock(LLM_BASE)
    .post(LLM_PATH)
    .times(times)
    .reply(200, (_uri, body) => {
      bodies.push(typeof body === 'string' ? body : JSON.stringify(body));
      return completion(answer(typeof body === 'string' ? JSON.parse(body) : body));
    });
}

export function llmAbstractor(logger: Logger): Abstractor {
  const config = llmConfigFromEnv({
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: `${LLM_BASE}/v1`,
    MEMORY_TRANSFER_LLM_RETRIES: '0',
  });
  return createLlmAbstractor({
    client: createOpenAIClient(config),
    model: config.abstractModel,
    rules: createRulesAbstractor(),
    logger,
  });
}

export function makeFix(overrides: Partial<Fix> = {}): Fix {
  return {
    tenant: 'acme',
    repo: 'acme/api',
    visibility: 'private',
    sourceKind: 'pull_request',
    ref: '1',
    url: 'https://github.com/acme/api/pull/1',
    title: 'Fix crash on empty request body',
    problem: 'An empty POST body threw a TypeError instead of answering 400.',
    change: '+  if (!body) throw new BadRequest();',
    files: ['src/parse-body.ts', 'test/parse-body.test.ts'],
    testsChanged: true,
    signals: [{ kind: 'check-red-green', check: 'unit', name: 'unit tests', excerpt: 'FAIL test/parse-body.test.ts' }],
    authors: ['octocat'],
    trusted: true,
    language: 'TypeScript',
    date: '2026-11-02T10:00:00Z',
    ...overrides,
  };
}

/** Substrings of a leak worth searching for: the whole, and 16-character windows of a long one. */
export function fragments(leak: string): string[] {
  if (leak.length < 24) return [leak];
  const out: string[] = [];
  for (let i = 0; i + 16 <= leak.length; i += 8) out.push(leak.slice(i, i + 16));
  return out;
}

/** Every leak (or a fragment of it) found in the text. */
export function leaksIn(text: string, leaks: string[]): string[] {
  return leaks.filter((leak) => fragments(leak).some((f) => text.includes(f)));
}
