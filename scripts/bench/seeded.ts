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

const SYLLABLES = ['ka', 'lo', 'mir', 'tes', 'van', 'dor', 'pel', 'qui', 'ros', 'nex', 'bal', 'sun', 'fe', 'gri', 'ho'];

/**
 * ~30,000 distinct made-up words (a realistic vocabulary for pools and tasks), to be drawn with
 * zipf(): a few common, a long tail of rare ones. The learn-steady, recall and action sections share it.
 */
export function longTailVocabulary(next: () => number, size = 30_000): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const n = 2 + Math.floor(next() * 3);
    let word = '';
    for (let i = 0; i < n; i++) word += pick(SYLLABLES, next);
    words.add(word);
  }
  return [...words];
}

/** One word of a longTailVocabulary, drawn with a Zipf-like law (rank ~ 1 / u: heavy head, long tail). */
export function zipf(words: readonly string[], next: () => number): string {
  const rank = Math.min(words.length - 1, Math.floor(1 / Math.max(next(), 1e-6)) - 1 + Math.floor(next() * 3));
  return words[rank] as string;
}

/** `count` words of the vocabulary drawn with zipf(), space-separated */
export function zipfWords(words: readonly string[], next: () => number, count: number): string {
  return Array.from({ length: count }, () => zipf(words, next)).join(' ');
}
