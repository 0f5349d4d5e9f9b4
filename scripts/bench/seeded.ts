/** Deterministic pseudo-random helpers for the benches, so every run builds the same data. */

/** mulberry32: a small, fast, seeded generator of numbers in [0, 1). */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One item of the list, chosen by the generator. */
export function pick<T>(items: readonly T[], next: () => number): T {
  return items[Math.floor(next() * items.length)] as T;
}

/** Things a bug report is about, shared by the generated git history and the generated insights. */
export const BUG_SUBJECTS = [
  'request body',
  'invoice date',
  'session token',
  'CSV header',
  'cache key',
  'retry delay',
  'page cursor',
  'locale string',
  'file path',
  'config value',
];
