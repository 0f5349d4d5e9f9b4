/** What the pool says: insights per fix, sources per insight, shared titles, glued titles, leaks, a sample. */
import { leaksSource } from '../../src/abstraction/specificity.js';
import type { Fix, Memory } from '../../src/core/types.js';
import { titleDefect } from '../../src/core/knowledge/titles.js';
import { key } from './data.js';

export function countLeaks(insights: Memory[], fixesByKey: Map<string, Fix>): { count: number; examples: string[] } {
  let count = 0;
  const examples: string[] = [];
  for (const insight of insights) {
    const text = [insight.title, insight.description, insight.content].join('\n');
    const leaks = insight.provenance.flatMap((p) => {
      const fix = fixesByKey.get(key(p.repo, p.ref));
      return fix ? leaksSource(text, fix) : [];
    });
    if (leaks.length > 0) {
      count += 1;
      if (examples.length < 5) examples.push(`${insight.id}: ${leaks.slice(0, 3).join(', ')}`);
    }
  }
  return { count, examples };
}

/** Sources per insight, in buckets. */
export function sourceDistribution(insights: Memory[]): Record<string, number> {
  const buckets: Record<string, number> = { '1': 0, '2': 0, '3-5': 0, '6-10': 0, '>10': 0 };
  for (const m of insights) {
    const n = m.provenance.length;
    const b = n <= 1 ? '1' : n === 2 ? '2' : n <= 5 ? '3-5' : n <= 10 ? '6-10' : '>10';
    buckets[b] = (buckets[b] ?? 0) + 1;
  }
  return buckets;
}

/** Titles held by more than one active insight. */
export function sharedTitles(insights: Memory[]): string[] {
  const count = new Map<string, number>();
  for (const m of insights.filter((i) => i.status === 'active'))
    count.set(m.title.toLowerCase(), (count.get(m.title.toLowerCase()) ?? 0) + 1);
  return [...count].filter(([, n]) => n > 1).map(([title, n]) => `${title} ×${n}`);
}

export function defectiveTitles(insights: Memory[]): string[] {
  return insights
    .filter((i) => i.status === 'active')
    .flatMap((i) => {
      const defect = titleDefect(i.title);
      return defect ? [`${i.title} (${defect})`] : [];
    });
}

/** A small seeded generator, so the sample is the same from run to run. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export function sample<T>(items: readonly T[], n: number, seed = 11): T[] {
  const random = seeded(seed);
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, n);
}
