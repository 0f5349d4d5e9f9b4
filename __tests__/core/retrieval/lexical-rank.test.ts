import { describe, expect, it } from 'vitest';
import { rankLexically } from '../../../src/core/retrieval/lexical-rank.js';

const doc = (id: string, title: string, content = 'write a test', description = 'the check', tags: string[] = []) => ({
  id,
  title,
  description,
  content,
  tags,
});

describe('the one lexical ranking', () => {
  const pool = [
    doc('m1', 'Parse the time zone offset', 'check the timezone parsing at midnight'),
    doc('m2', 'Retry a flaky network call', 'with a timeout'),
    doc('m3', 'Guard empty input', 'the parser gets an empty string, a time value missing'),
    doc('m4', 'Time out a hung request', 'parse nothing'),
  ];

  it('orders by BM25 over the candidates, a rare term and a title counting most', () => {
    const hits = rankLexically('time zone parsing fails', pool, 10);
    expect(hits.map((h) => h.id)).toEqual(['m1', 'm4', 'm3']);
    expect(hits.every((h) => h.score > 0)).toBe(true);
    expect(rankLexically('time zone parsing fails', pool, 1).map((h) => h.id)).toEqual(['m1']);
  });

  it('gives the same answer whatever order the engine fetched in, and whatever it fetched besides', () => {
    const expected = rankLexically('time zone parsing fails', pool, 10);
    // an engine with another stemmer fetches a memory holding none of the query's terms
    const extra = doc('m0', 'Unrelated advice', 'about sockets');
    expect(rankLexically('time zone parsing fails', [extra, ...[...pool].reverse()], 10)).toEqual(expected);
  });

  it('breaks an exact tie by id', () => {
    const twins = [doc('mb', 'Same words here'), doc('ma', 'Same words here')];
    expect(rankLexically('words', twins, 2).map((h) => h.id)).toEqual(['ma', 'mb']);
  });

  it('answers nothing for a query of stop words only, or no room', () => {
    expect(rankLexically('the and of', pool, 10)).toEqual([]);
    expect(rankLexically('time', pool, 0)).toEqual([]);
  });
});
