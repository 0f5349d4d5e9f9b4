import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRulesAbstractor } from '../../src/abstraction/rules-abstractor.js';
import { phrasesOf } from '../../src/core/knowledge/learned-lessons.js';
import { silentLogger } from '../../src/ports/index.js';
import { createRedactor } from '../../src/security/redact.js';
import { learnFixes } from '../../src/services/learn.js';
import { traceAbout } from '../../src/abstraction/rules-abstractor.js';
import { recall, withCompleteProvenance } from '../../src/services/recall.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { sampleFix } from '../helpers/sample-fix.js';

const dir = mkdtempSync(join(tmpdir(), 'mt-learned-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const clock = { now: () => new Date('2025-01-01T00:00:00Z') };
let store: Store;
let n = 0;
beforeEach(async () => {
  store = await openStore(join(dir, `pool-${++n}.db`));
});
afterEach(async () => {
  await store.close();
});

const learn = (fixes: Parameters<typeof learnFixes>[1]) =>
  learnFixes(
    { store, abstractor: createRulesAbstractor(), redactor: createRedactor(), logger: silentLogger, clock },
    fixes,
  );

// two repositories of one organization, one phrase the catalog has no lesson for
const kitchen = sampleFix({
  repo: 'acme/kitchen',
  ref: 'k1',
  title: 'Recipe scaling loses the serving size',
  problem: 'Doubling a recipe resets the serving size to one.',
  files: ['src/scale.ts', 'test/scale.test.ts'],
});
const pantry = sampleFix({
  repo: 'acme/pantry',
  ref: 'p1',
  title: 'Shopping list ignores the serving size',
  problem: 'The list is computed for one person whatever the serving size says.',
  files: ['src/list.ts', 'test/list.test.ts'],
});

describe('lessons learned from the organization', () => {
  it('reads adjacent general words as phrases, never names or filler', () => {
    const general = (w: string) => !['qzfrob', 'acme'].includes(w);
    const phrases = phrasesOf('Shopping list ignores the serving size of qzfrob, acme style', general);
    expect(phrases).toEqual(expect.arrayContaining(['shopping list', 'serving size']));
    expect(phrases.join(' ')).not.toMatch(/qzfrob|acme|\bthe\b|\bof\b/);
  });

  it('reads no phrase that ends in a modifier or joins words by a preposition: a lesson is titled by a thing', () => {
    const phrases = phrasesOf(
      'Backwards incompatible header parsing; distinguish between environment variable and trusted publishing',
      () => true,
    );
    expect(phrases).toEqual(expect.arrayContaining(['header parsing', 'environment variable', 'trusted publishing']));
    expect(phrases).not.toContain('backwards incompatible');
    expect(phrases).not.toContain('distinguish between');
  });

  it('reads no phrase of the development process: no code fails on a coverage report or a test suite', () => {
    const phrases = phrasesOf(
      'Xfails do not count towards code coverage but fail the test suite; reach full coverage of the retry queue',
      () => true,
    );
    expect(phrases).toContain('retry queue');
    expect(phrases.join(' ')).not.toMatch(/coverage|suite/);
  });

  it("never reads a language's keywords and literals as a phrase: a line of code is no condition", () => {
    const phrases = phrasesOf(
      'The session cookie check must return true; the async function runs before self import',
      () => true,
    );
    expect(phrases).toEqual(['session cookie', 'cookie check']);
  });

  it('makes a phrase two repositories name a lesson of its own, titled by it, with both sources', async () => {
    await learn([kitchen, pantry]);
    const insights = await store.listMemories('acme', { level: ['insight'] });
    const learned = insights.filter((m) => /serving size/.test(m.title));
    expect(learned).toHaveLength(1);
    expect(learned[0]!.tags).toContain('lesson:learned-serving-size');
    expect(learned[0]!.title).not.toMatch(/^(fix|update|add)\b|:\s*(test|pin)\b/i);
    expect(new Set(learned[0]!.provenance.map((p) => p.repo))).toEqual(new Set(['acme/kitchen', 'acme/pantry']));
    expect(learned[0]!.support).toBe(2);
    // the first fix's own checklist insight gave way to the lesson: one fix, one lesson
    expect(insights.filter((m) => m.provenance.some((p) => p.ref === 'k1'))).toHaveLength(1);
  });

  it('recalls the learned lesson for a task in a third repository that names the phrase', async () => {
    await learn([kitchen, pantry]);
    const hits = await withCompleteProvenance(
      store,
      'acme',
      await recall(
        { store, logger: silentLogger, clock },
        { tenant: 'acme', repo: 'acme/menu', visibility: 'private' },
        'The menu shows the wrong serving size after editing a dish',
        { k: 3 },
      ),
    );
    expect(hits[0]?.memory.title).toMatch(/serving size/);
  });

  it('finds the phrase in the titles of fixes that have no description (most commits)', async () => {
    await learn([
      { ...kitchen, problem: '' },
      { ...pantry, problem: '' },
    ]);
    const insights = await store.listMemories('acme', { level: ['insight'] });
    const learned = insights.filter((m) => m.lesson === 'learned-serving-size');
    expect(learned).toHaveLength(1);
    expect(new Set(learned[0]!.provenance.map((p) => p.repo))).toEqual(new Set(['acme/kitchen', 'acme/pantry']));
  });

  it("reads a trajectory's title and every line of its problem, never its paths or diff", () => {
    const trace = [
      'title: Shopping list ignores the serving size',
      'source: acme/pantry commit p1',
      'problem: The list is computed for one person',
      'whatever the portion count says.',
      'files: src/serving_size.ts',
      'tests changed: yes',
      'change: - const cookie_jar = 1',
    ].join('\n');
    const about = traceAbout(trace);
    expect(about).toMatch(/serving size/);
    expect(about).toMatch(/portion count/);
    expect(about).not.toMatch(/src\/|cookie_jar|acme/);
    // trajectories stored before the title was labelled "title:" said "fix:"
    expect(traceAbout('fix: Recipe scaling loses the serving size\ntests changed: no')).toMatch(/serving size/);
  });

  it("learns no second lesson of one the catalog has: a phrase that names a catalog lesson is that lesson's", async () => {
    await learn([
      {
        ...kitchen,
        title: 'Pass the pool timer to enable the cleanup task',
        problem: 'tests: integration test for pool idle timeout',
      },
      {
        ...pantry,
        title: 'Clear the socket timer once the headers arrive',
        problem: 'The socket must be cleared after the idle timeout so the body can be received.',
      },
    ]);
    const insights = await store.listMemories('acme', { level: ['insight'] });
    expect(insights.some((m) => m.lesson === 'learned-idle-timeout')).toBe(false);
  });

  it('learns no lesson from a phrase only one repository names', async () => {
    await learn([kitchen, { ...pantry, repo: 'acme/kitchen', ref: 'k2' }]);
    const insights = await store.listMemories('acme', { level: ['insight'] });
    expect(insights.some((m) => /serving size/.test(m.title))).toBe(false);
  });
});
