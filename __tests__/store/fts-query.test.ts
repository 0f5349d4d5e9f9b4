import { describe, expect, it } from 'vitest';
import {
  fts5Query,
  fts5ScopedQuery,
  MAX_QUERY_TOKENS,
  queryTokens,
  scopeText,
  tsQuery,
} from '../../src/store/fts-query.js';

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

  it('scopes an FTS5 query to a tenant, levels and statuses', () => {
    const q = fts5ScopedQuery(['x'], 'acme', ['insight'], ['active', 'proposed']);
    expect(q).toBe(
      'scope : "zt097099109101" AND scope : ("zl3") AND scope : ("zs1" OR "zs0") AND {title description content tags} : ("x")',
    );
    expect(scopeText('acme', 'insight', 'active')).toBe('zt097099109101 zl3 zs1');
    expect(fts5ScopedQuery(['x'], 'a', [], [])).toContain('"zlnone"');
  });

  it('builds a tsquery of plain lexemes', () => {
    expect(tsQuery(['date', 'utc', '13'])).toBe('date | utc | 13');
  });
});
