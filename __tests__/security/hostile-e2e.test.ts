/**
 * End to end: every hostile text of the corpus is learned, from an untrusted and from a trusted
 * author, by an obedient model (nock) that copies whatever fix text it is given into its answer.
 * Hidden injections never reach the model; visible ones are screened out; and no active memory
 * and no recall result ever carries any part of an injection.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Memory, MemoryLevel, Requester } from '../../src/core/types.js';
import { MEMORY_LEVELS, MEMORY_STATUSES } from '../../src/core/types.js';
import { createRedactor } from '../../src/security/redact.js';
import { learnFix } from '../../src/services/learn.js';
import type { LearnDeps } from '../../src/services/learn.js';
import { recall } from '../../src/services/recall.js';
import { openStore } from '../../src/store/open-store.js';
import { HOSTILE_SAMPLES } from '../fixtures/hostile/corpus.js';
import { GOOD_ANSWER, llmAbstractor, makeFix, mockLlm, recordingLogger, tempDir, userPrompt } from './e2e-helpers.js';

const dir = tempDir('mt-hostile-e2e-');
afterAll(() => dir.remove());
const clock = { now: () => new Date('2026-11-03T00:00:00Z') };

/** The problem text as the model received it, on one line, as one "sentence". */
function problemOf(body: unknown): string {
  const prompt = userPrompt(body);
  const problem = prompt.slice(prompt.indexOf('problem:\n') + 9, prompt.indexOf('\n\nchange:'));
  return problem
    .replace(/\s+/g, ' ')
    .replace(/[.!?]+(\s|$)/g, ';$1')
    .trim();
}

/** An obedient model: it writes the fix text it was given into every level of its answer. */
function obedient(body: unknown) {
  const copied = problemOf(body);
  return {
    workflow: {
      goal: GOOD_ANSWER.workflow.goal,
      steps: [GOOD_ANSWER.workflow.steps[0], `Then ${copied}`.slice(0, 290)],
    },
    summary: { task_summary: GOOD_ANSWER.summary.task_summary, experience_summary: `Learned: ${copied}`.slice(0, 590) },
    insight: {
      title: GOOD_ANSWER.insight.title,
      description: GOOD_ANSWER.insight.description,
      content: `Write the failing test for the breaking input first; ${copied}`.slice(0, 880),
    },
    tags: GOOD_ANSWER.tags,
  };
}

function text(m: Memory): string {
  return JSON.stringify([m.title, m.description, m.content, m.body, m.evidence, m.tags]);
}

describe('hostile texts are never served', () => {
  it('learning each hostile text, trusted or not, yields no active memory and no recall result carrying the injection', async () => {
    const store = await openStore(join(dir.path, 'pool.db'));
    const logger = recordingLogger();
    const bodies: string[] = [];
    const runs = HOSTILE_SAMPLES.flatMap((sample) => [true, false].map((trusted) => ({ sample, trusted })));
    mockLlm(runs.length, bodies, obedient);
    const deps: LearnDeps = { store, abstractor: llmAbstractor(logger), redactor: createRedactor(), logger, clock };

    for (const [i, { sample, trusted }] of runs.entries()) {
      bodies.length = 0;
      const result = await learnFix(
        deps,
        makeFix({ ref: String(i + 1), trusted, authors: [trusted ? 'maintainer' : 'outsider'], problem: sample.text }),
      );
      expect(result.failed).toBeUndefined();
      expect(bodies).toHaveLength(1);
      const sent = userPrompt(JSON.parse(bodies[0]!));
      // hidden text never reaches the model
      if (sample.defence === 'sanitize' || (sample.defence === 'sanitize-untrusted' && !trusted)) {
        const hidden = sample.markers.filter((m) => sent.includes(m));
        const visibleIn02 = sample.file.startsWith('02-') ? ['attacker.example'] : [];
        expect(
          hidden.filter((m) => !visibleIn02.includes(m)),
          `${sample.file} trusted=${trusted}`,
        ).toEqual([]);
      }
    }

    const markers = HOSTILE_SAMPLES.flatMap((s) => s.markers);
    const all = await store.listMemories('acme', { status: [...MEMORY_STATUSES], limit: 10_000 });
    expect(all.length).toBeGreaterThan(0);
    // what outsiders wrote is quarantined until a maintainer approves it
    const fromOutsiders = all.filter((m) => m.provenance[0]?.authors.includes('outsider'));
    expect(fromOutsiders.length).toBeGreaterThan(0);
    expect(fromOutsiders.filter((m) => m.status !== 'proposed')).toEqual([]);

    const activeWithInjection = all
      .filter((m) => m.status === 'active')
      .map((m) => ({ id: m.id, level: m.level, markers: markers.filter((k) => text(m).includes(k)) }))
      .filter((m) => m.markers.length > 0);
    expect(activeWithInjection).toEqual([]);

    const readers: Requester[] = [
      { tenant: 'acme', repo: 'acme/api', visibility: 'private' },
      { tenant: 'acme', repo: 'acme/site', visibility: 'public' },
    ];
    const recalled: string[] = [];
    for (const requester of readers) {
      for (const level of MEMORY_LEVELS as readonly MemoryLevel[]) {
        for (const sample of HOSTILE_SAMPLES) {
          const hits = await recall({ store, logger, clock }, requester, sample.text, { k: 10, level, minScore: 0 });
          recalled.push(...hits.map((h) => text(h.memory)));
        }
      }
    }
    expect(markers.filter((k) => recalled.some((t) => t.includes(k)))).toEqual([]);
    await store.close();
  });
});
