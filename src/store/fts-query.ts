/**
 * Plain text → safe full-text queries. User text is never passed through as query syntax: it is cut
 * into word tokens (letters and digits only), stop words dropped, and the tokens OR-joined.
 */
import { MEMORY_LEVELS, type MemoryLevel } from '../core/types.js';
import type { SearchOptions } from './store.js';

const STOP_WORDS = new Set(
  `a an and are as at be but by for from has have if in into is it its no not of on or so such that the their then there
these they this to was were when where which while will with i we you he she them our your do does did can could
should would how what why`.split(/\s+/),
);

/** At most this many distinct tokens are searched (a pasted log must not make a huge query). */
export const MAX_QUERY_TOKENS = 32;

/** The distinct, lower-cased search tokens of a text; empty when nothing searchable is left. */
export function queryTokens(text: string): string[] {
  const tokens = new Set<string>();
  for (const match of text
    .normalize('NFKC')
    .toLowerCase()
    .matchAll(/[\p{L}\p{N}]+/gu)) {
    const token = match[0];
    if (token.length < 2 || token.length > 64 || STOP_WORDS.has(token)) continue;
    tokens.add(token);
    if (tokens.size >= MAX_QUERY_TOKENS) break;
  }
  return [...tokens];
}

/** FTS5 MATCH expression: every token quoted (no operator can survive), OR-joined. */
export function fts5Query(tokens: string[]): string {
  return tokens.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ');
}

/** PostgreSQL to_tsquery expression: tokens are letters and digits only, OR-joined. */
export function tsQuery(tokens: string[]): string {
  return tokens
    .map((t) => t.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter(Boolean)
    .join(' | ');
}

/**
 * What a store's searchLexical searches: the query's tokens, the levels, and the key its cached
 * result goes under; undefined when nothing can match (no token, or no room for a result).
 */
export function lexicalSearch(
  query: string,
  options: SearchOptions,
): { tokens: string[]; levels: MemoryLevel[]; key: string } | undefined {
  const tokens = queryTokens(query);
  if (tokens.length === 0 || options.limit <= 0) return undefined;
  const levels = [...new Set(options.level ?? MEMORY_LEVELS)];
  return { tokens, levels, key: JSON.stringify([levels, options.status ?? null, options.limit, tokens]) };
}
