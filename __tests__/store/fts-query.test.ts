import { describe, expect, it } from 'vitest';
import { fts5Query, MAX_QUERY_TOKENS, queryTokens, tsQuery } from '../../src/store/fts-query.js';

describe('queryTokens', () => {
  it('keeps distinct lower-cased words and numbers, without stop words or operators', () => {
    expect(queryTokens('Date parsing breaks for users in UTC+13 (and NEAR the "edge")!')).toEqual([
      'date',
      'parsing',
      'breaks',
      'users',
      'utc',
      '13',
      'near',
      'edge',
    ]);
  });

  it('keeps letters of any script and caps the number of tokens', () => {
    expect(queryTokens('Ünïcode 日本語 テスト')).toEqual(['ünïcode', '日本語', 'テスト']);
    const many = Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ');
    expect(queryTokens(many)).toHaveLength(MAX_QUERY_TOKENS);
  });

  it('returns nothing for punctuation or stop words only', () => {
    expect(queryTokens('"( OR * AND -')).toEqual([]);
    expect(queryTokens('"NEAR( OR *')).toEqual(['near']);
    expect(queryTokens('the and of it')).toEqual([]);
    expect(queryTokens('')).toEqual([]);
  });
});

describe('query builders', () => {
  it('quotes every FTS5 token and OR-joins them', () => {
    expect(fts5Query(['near', 'or'])).toBe('"near" OR "or"');
  });

  it('builds a tsquery of plain lexemes', () => {
    expect(tsQuery(['date', 'utc', '13'])).toBe('date | utc | 13');
  });
});
