import { describe, expect, it } from 'vitest';
import {
  CANDIDATE_BUDGET,
  MAX_SEARCH_TOKENS,
  SELECTIVE_FROM_ROWS,
  TermStats,
  type TermCounter,
} from '../../src/store/term-stats.js';

/** a counter over fixed document frequencies, recording what it was asked */
function counter(rows: Record<string, number>, df: Record<string, number>) {
  const asked: string[][] = [];
  let levelCounts = 0;
  const counting: TermCounter = {
    levelRows: async () => {
      levelCounts++;
      return new Map(Object.entries(rows));
    },
    tokenRows: async (_level, tokens, cap) => {
      asked.push(tokens);
      return tokens.map((t) => Math.min(df[t] ?? 0, cap));
    },
  };
  return { counting, asked, levelCounts: () => levelCounts };
}

describe('TermStats', () => {
  it('searches every token of a level below SELECTIVE_FROM_ROWS, counting none', async () => {
    const c = counter({ insight: SELECTIVE_FROM_ROWS - 1 }, { a: 900, b: 900 });
    const stats = new TermStats(c.counting);
    expect(await stats.selective('insight', ['a', 'b'])).toEqual(['a', 'b']);
    expect(c.asked).toEqual([]);
  });

  it('keeps the rarest tokens within the candidate budget, at least one, at most MAX_SEARCH_TOKENS', async () => {
    const c = counter({ insight: 10_000 }, { common: 6_000, mid: 900, few: 800, rare: 3, none: 0 });
    const stats = new TermStats(c.counting);
    // 0 + 3 + 800 fit the budget; 900 more would not; `common` is in over half the level
    expect(await stats.selective('insight', ['common', 'mid', 'few', 'rare', 'none'])).toEqual(['none', 'rare', 'few']);
    // every token too common: the rarest is still searched
    expect(await stats.selective('insight', ['common', 'mid'])).toEqual(['mid']);
    const many = Array.from({ length: 20 }, (_, i) => `t${i}`);
    expect(await stats.selective('insight', many)).toHaveLength(MAX_SEARCH_TOKENS);
  });

  it('counts in one call per search, only the tokens not counted yet, stopping past the budget', async () => {
    const c = counter({ insight: 5_000 }, { a: 5, b: 7, c: 9 });
    const stats = new TermStats(c.counting);
    await stats.selective('insight', ['a', 'b']);
    await stats.selective('insight', ['b', 'c', 'a']);
    expect(c.asked).toEqual([['a', 'b'], ['c']]);
    let cap = 0;
    await new TermStats({
      levelRows: c.counting.levelRows,
      tokenRows: async (_level, tokens, at) => {
        cap = at;
        return tokens.map(() => 0);
      },
    }).selective('insight', ['x']);
    expect(cap).toBe(CANDIDATE_BUDGET + 1);
  });

  it('counts again once the pool has changed by a tenth', async () => {
    const c = counter({ insight: 5_000 }, { a: 5 });
    const stats = new TermStats(c.counting);
    await stats.selective('insight', ['a']);
    for (let i = 0; i < 500; i++) stats.noteWrite();
    await stats.selective('insight', ['a']);
    expect(c.asked).toHaveLength(1);
    stats.noteWrite();
    await stats.selective('insight', ['a']);
    expect(c.asked).toHaveLength(2);
    expect(c.levelCounts()).toBe(2);
  });
});
