import { describe, expect, it } from 'vitest';
import {
  adviceTerms,
  combine,
  diversify,
  nearDuplicateTerms,
  normalizeList,
  PRIOR_WEIGHT,
  qualityPrior,
  routineMatch,
  sortRanked,
  WEIGHTS_LEXICAL_ONLY,
} from '../../../src/core/retrieval/ranking.js';
import { jaccard, rawTokens, stem, termSet } from '../../../src/core/text.js';
import { sampleMemory } from '../../helpers/sample-memory.js';

const NOW = new Date('2025-01-01T00:00:00Z');

describe('text', () => {
  it('splits camelCase, lower-cases, cuts at punctuation and drops one-letter tokens', () => {
    expect(rawTokens('parseISO returns a `null` for x.y-z')).toEqual(['parse', 'iso', 'returns', 'null', 'for']);
  });

  it('stems common suffixes so parsing/parsed/parses meet', () => {
    expect(new Set(['parsing', 'parsed', 'parses'].map(stem)).size).toBe(1);
    expect(jaccard(termSet('listeners leaking'), termSet('listener leaks'))).toBe(1);
  });
});

describe('fusion', () => {
  it('weighted: divides by the best lexical score; vectors stay cosine, floored at 0', () => {
    expect([
      ...normalizeList(
        [
          { id: 'a', score: 8 },
          { id: 'b', score: 2 },
        ],
        'weighted',
        'lexical',
      ),
    ]).toEqual([
      ['a', 1],
      ['b', 0.25],
    ]);
    expect([
      ...normalizeList(
        [
          { id: 'a', score: 0.7 },
          { id: 'b', score: -0.2 },
        ],
        'weighted',
        'vector',
      ),
    ]).toEqual([
      ['a', 0.7],
      ['b', 0],
    ]);
  });

  it('rrf: reciprocal rank, first rank = 1, decreasing', () => {
    const rrf = normalizeList(
      [
        { id: 'a', score: 8 },
        { id: 'b', score: 7 },
        { id: 'c', score: 1 },
      ],
      'rrf',
      'lexical',
    );
    expect(rrf.get('a')).toBe(1);
    expect(rrf.get('b')!).toBeLessThan(1);
    expect(rrf.get('c')!).toBeLessThan(rrf.get('b')!);
  });

  it('routine match: the main routine counts fully, a secondary one less, none zero', () => {
    const task = [{ kind: 'encoding-locale' as const, weight: 1 }];
    const of = (...routines: string[]) => ({ routines, facet: null });
    expect(routineMatch(task, of('encoding-locale'))).toBe(1);
    expect(routineMatch(task, of('edge-input', 'encoding-locale'))).toBeCloseTo(2 / 3);
    expect(routineMatch(task, of('edge-input'))).toBe(0);
    expect(routineMatch([], of('edge-input'))).toBe(0);
  });

  it('routine match: another facet of the right kind counts less than the named one', () => {
    const task = [{ kind: 'encoding-locale' as const, weight: 1, facet: 'time' }];
    const time = routineMatch(task, { routines: ['encoding-locale'], facet: 'encoding-locale/time' });
    const text = routineMatch(task, { routines: ['encoding-locale'], facet: 'encoding-locale/text' });
    expect(time).toBe(1);
    expect(text).toBeLessThan(time);
    expect(text).toBeGreaterThan(0);
  });
});

describe('quality prior', () => {
  it('stays within [-1, 1] for extreme standing', () => {
    const best = qualityPrior(
      {
        votes: { up: 1e6, down: 0 },
        support: 1e6,
        outcomes: { success: 1e6, failure: 0 },
        updatedAt: NOW.toISOString(),
      },
      NOW,
    );
    const worst = qualityPrior(
      {
        votes: { up: 0, down: 1e6 },
        support: 1,
        outcomes: { success: 0, failure: 1e6 },
        updatedAt: '1990-01-01T00:00:00Z',
      },
      NOW,
    );
    expect(best).toBeLessThanOrEqual(1);
    expect(worst).toBeGreaterThanOrEqual(-1);
    expect(best).toBeGreaterThan(0.9);
    expect(worst).toBeLessThan(-0.6);
  });

  it('rises with votes, support and success', () => {
    const base = {
      votes: { up: 0, down: 0 },
      support: 1,
      outcomes: { success: 0, failure: 0 },
      updatedAt: NOW.toISOString(),
    };
    const p = qualityPrior(base, NOW);
    expect(qualityPrior({ ...base, votes: { up: 3, down: 0 } }, NOW)).toBeGreaterThan(p);
    expect(qualityPrior({ ...base, support: 5 }, NOW)).toBeGreaterThan(p);
    expect(qualityPrior({ ...base, outcomes: { success: 4, failure: 0 } }, NOW)).toBeGreaterThan(p);
  });

  it('never lifts a loved weak match over a clearly more relevant one', () => {
    const strong = combine({ id: 'strong', lexical: 0.7, vector: 0, routine: 0.7, prior: -1 }, WEIGHTS_LEXICAL_ONLY);
    const loved = combine({ id: 'loved', lexical: 0.55, vector: 0, routine: 0.55, prior: 1 }, WEIGHTS_LEXICAL_ONLY);
    expect(strong.fused - loved.fused).toBeGreaterThan(2 * PRIOR_WEIGHT);
    expect(sortRanked([loved, strong]).map((r) => r.id)).toEqual(['strong', 'loved']);
    // but it does break near-ties
    const a = combine({ id: 'a', lexical: 0.6, vector: 0, routine: 0.6, prior: -0.5 }, WEIGHTS_LEXICAL_ONLY);
    const b = combine({ id: 'b', lexical: 0.59, vector: 0, routine: 0.59, prior: 0.5 }, WEIGHTS_LEXICAL_ONLY);
    expect(sortRanked([a, b]).map((r) => r.id)).toEqual(['b', 'a']);
  });
});

describe('diversity', () => {
  it('skips items near-identical to one already kept, up to k', () => {
    const items = [
      'empty input crashes the parser',
      'the parser crashes on empty input',
      'time zone offsets are wrong',
      'leaks listeners',
    ];
    const kept = diversify(items, 2, (a, b) => nearDuplicateTerms(termSet(a), termSet(b)));
    expect(kept).toEqual(['empty input crashes the parser', 'time zone offsets are wrong']);
  });

  it('compares what insights advise, ignoring their per-ecosystem run hints', () => {
    const advice = {
      title: 'Test boundaries',
      description: 'Bugs hide at the edges.',
      content: 'Add a test for empty input.',
      examples: [],
    };
    const go = { ...advice, content: `${advice.content} In a Go module, run it with \`go test ./...\`.` };
    const npm = {
      ...advice,
      content: `${advice.content} In a Node.js package, run it with \`npm test\` on every supported Node.js version.`,
    };
    expect(jaccard(adviceTerms(go), adviceTerms(npm))).toBe(1);
    expect(adviceTerms(sampleMemory()).size).toBeGreaterThan(5);
  });

  it('compares what insights advise without the examples their content lists, as their field has them', () => {
    const advice = { title: 'Test boundaries', description: 'Bugs hide at the edges.' };
    const one = { ...advice, content: 'Add a test for empty input. Seen in: a crash on an empty body.' };
    const other = { ...advice, content: 'Add a test for empty input. Seen in: a panic without arguments.' };
    const listed = (m: typeof one, examples: string[]) => adviceTerms({ ...m, examples });
    expect(jaccard(listed(one, ['a crash on an empty body']), listed(other, ['a panic without arguments']))).toBe(1);
    // a sentence that is not the examples' (a model's own words, a person's edit) is advice like the rest
    expect(listed(other, [])).toContain('panic');
  });
});
