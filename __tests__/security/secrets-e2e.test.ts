/**
 * End to end: a fix carrying every secret of the corpus is learned with the LLM abstractor (nock),
 * and none of the secrets is in any LLM request body, in the SQLite file (and its -wal), in an
 * export, in a rendered comment or injection, or in the logs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { afterAll, describe, expect, it } from 'vitest';
import { renderSuggestionComment } from '../../src/core/rendering/comment-render.js';
import { serializePool } from '../../src/core/retrieval/pool-file.js';
import { renderInjection, toInjectedInsights } from '../../src/core/rendering/render-injection.js';
import type { Memory, RecallHit, Requester } from '../../src/core/types.js';
import { MEMORY_STATUSES } from '../../src/core/types.js';
import { escapeMarkdown, markdownLink } from '../../src/security/markdown.js';
import { createRedactor } from '../../src/security/redact.js';
import { learnFix } from '../../src/services/learn.js';
import type { LearnDeps } from '../../src/services/learn.js';
import { openStore } from '../../src/store/open-store.js';
import { SECRET_SAMPLES, allLeaks } from '../fixtures/secrets/corpus.js';
import {
  leaksIn,
  llmAbstractor,
  makeFix,
  mockLlm,
  recordingLogger,
  tempDir,
  userPrompt,
  GOOD_ANSWER,
} from './e2e-helpers.js';

const dir = tempDir('mt-secrets-e2e-');
afterAll(() => dir.remove());

const LEAKS = allLeaks();
const clock = { now: () => new Date('2026-11-03T00:00:00Z') };

function hit(memory: Memory): RecallHit {
  return { memory, score: 1, parts: { lexical: 1, vector: 0, routine: 0, prior: 0, fused: 1 }, transferred: false };
}

function bytes(path: string): string {
  return existsSync(path) ? readFileSync(path).toString('latin1') : '';
}

describe('no secret leaves or is stored', () => {
  it('learning fixes full of secrets: zero secrets in LLM requests, the database file, exports, comments, injections, logs', async () => {
    const path = join(dir.path, 'pool.db');
    const store = await openStore(path);
    const logger = recordingLogger();
    const bodies: string[] = [];
    // a model that copies what it was given into its summary: whatever it saw ends up stored
    mockLlm(SECRET_SAMPLES.length, bodies, (body) => ({
      ...GOOD_ANSWER,
      summary: { ...GOOD_ANSWER.summary, experience_summary: userPrompt(body).replace(/\s+/g, ' ').slice(0, 590) },
    }));
    const deps: LearnDeps = { store, abstractor: llmAbstractor(logger), redactor: createRedactor(), logger, clock };

    for (const [i, sample] of SECRET_SAMPLES.entries()) {
      const result = await learnFix(
        deps,
        makeFix({
          ref: String(i + 1),
          visibility: i % 2 === 0 ? 'private' : 'public',
          title: `Fix ${sample.kind}: ${sample.text.split('\n')[0]?.slice(0, 120)}`,
          problem: sample.text,
          change: `+${sample.text.split('\n').join('\n+')}`,
          signals: [{ kind: 'check-red-green', check: 'unit', name: 'unit', excerpt: sample.text }],
        }),
      );
      expect(result.failed).toBeUndefined();
    }

    // 1. the LLM saw every fix, each with its secrets redacted
    expect(bodies).toHaveLength(SECRET_SAMPLES.length);
    expect(leaksIn(bodies.join('\n'), LEAKS)).toEqual([]);
    expect(bodies.join('\n')).toContain('[REDACTED:');

    // 2. the pool holds what was learned, and none of the secrets
    const memories = await store.listMemories('acme', { status: [...MEMORY_STATUSES], limit: 10_000 });
    expect(memories.length).toBeGreaterThan(SECRET_SAMPLES.length);
    expect(memories.some((m) => m.model === 'gpt-5-mini')).toBe(true);
    expect(leaksIn(JSON.stringify(memories), LEAKS)).toEqual([]);
    expect(leaksIn(bytes(path) + bytes(`${path}-wal`), LEAKS)).toEqual([]);

    // 3. an export
    const exported = serializePool({ tenant: 'acme', exportedAt: clock.now().toISOString() }, memories);
    expect(leaksIn(exported, LEAKS)).toEqual([]);

    // 4. the App's comment and the Action's injection, for every memory
    const requester: Requester = { tenant: 'acme', repo: 'acme/api', visibility: 'private' };
    const ctx = {
      escape: escapeMarkdown,
      link: (text: string, url: string) => markdownLink(text, url, 'https://github.com'),
      githubUrl: 'https://github.com',
      requester,
    };
    const rendered: string[] = [];
    for (let i = 0; i < memories.length; i += 3) {
      const hits = memories.slice(i, i + 3).map(hit);
      rendered.push(renderSuggestionComment(hits, ctx));
      rendered.push(renderInjection(toInjectedInsights(hits, requester), { maxChars: 100_000 }).markdown);
    }
    expect(leaksIn(rendered.join('\n'), LEAKS)).toEqual([]);

    // 5. the logs
    expect(leaksIn(logger.lines.join('\n'), LEAKS)).toEqual([]);

    // 6. the file once closed (WAL checkpointed into it)
    await store.close();
    expect(bytes(path).length).toBeGreaterThan(0);
    expect(leaksIn(bytes(path) + bytes(`${path}-wal`), LEAKS)).toEqual([]);
  });

  it('when redaction fails, no LLM request is made and nothing is stored', async () => {
    const path = join(dir.path, 'failing.db');
    const store = await openStore(path);
    const logger = recordingLogger();
    const attempts: string[] = [];
    const onNoMatch = (req: { path?: string }) => attempts.push(String(req.path));
    nock.emitter.on('no match', onNoMatch);
    try {
      const redactor = createRedactor({
        scanner: async () => {
          throw new Error('scanner crashed');
        },
      });
      const deps: LearnDeps = { store, abstractor: llmAbstractor(logger), redactor, logger, clock };
      const sample = SECRET_SAMPLES[0]!;
      const result = await learnFix(deps, makeFix({ problem: sample.text }));
      expect(result.failed).toMatch(/redaction failed/);
      expect(attempts).toEqual([]);
      expect(await store.countMemories('acme', { status: [...MEMORY_STATUSES] })).toBe(0);
      expect(await store.isFixLearned('acme', 'acme/api', '1')).toBe(false);
      expect(leaksIn(logger.lines.join('\n'), sample.leaks)).toEqual([]);
    } finally {
      nock.emitter.removeListener('no match', onNoMatch);
      await store.close();
    }
  });
});
