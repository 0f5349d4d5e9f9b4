/**
 * Recall ranking, pure: fuse the lexical and vector candidate lists, add the routine match,
 * a bounded quality prior, keep the top results diverse, and drop weak matches.
 *
 * relevance ("fused") = W_LEX·lexical + W_VEC·vector + W_ROUTINE·routine   (each part in [0, 1])
 * score               = relevance + PRIOR_WEIGHT·prior                       (prior in [−1, 1])
 * The prior can move a hit by at most PRIOR_WEIGHT, so it only reorders hits whose relevance
 * differs by less than 2·PRIOR_WEIGHT: it never lifts a weak match over a clearly better one,
 * and the minimum score is applied to relevance alone.
 */
import { adviceOf } from '../insight-text.js';
import { facetOf } from '../knowledge/identity.js';
import type { RoutineCue } from '../knowledge/routines.js';
import { jaccard, termSet } from '../text.js';
import type { Memory, MemoryIdentity } from '../types.js';

export interface ScoredIdLike {
  id: string;
  score: number;
}

export type FusionMethod = 'weighted' | 'rrf';

export interface RankingWeights {
  lexical: number;
  vector: number;
  routine: number;
}

/** Offline (no vectors): the routine match leads (0.6; across four labelled sets 0.4 / 0.6 scored best, +0.00 to +0.02 lenient on each, against 0.5 / 0.5) and the task's words follow. */
export const WEIGHTS_LEXICAL_ONLY: RankingWeights = { lexical: 0.4, vector: 0, routine: 0.6 };
/** With an embedder: dense similarity carries a third. */
export const WEIGHTS_HYBRID: RankingWeights = { lexical: 0.3, vector: 0.35, routine: 0.35 };

export const PRIOR_WEIGHT = 0.05;
/** Default relevance bar: below it, recall returns nothing rather than a weak match. */
export const DEFAULT_MIN_SCORE = 0.2;
/** Two insights whose word sets overlap at least this much are near-identical (diversity, merging). */
export const NEAR_DUPLICATE_JACCARD = 0.9;
/** Two insights whose vectors are at least this similar are near-identical. */
export const NEAR_DUPLICATE_COSINE = 0.95;
const RRF_K = 60;
/** A facet of the right kind but not the one the task names. */
export const FACET_MISMATCH = 0.75;

/**
 * One candidate list → a [0, 1] value per id. 'weighted': score divided by the list's best
 * score (cosine lists are used as they are, floored at 0). 'rrf': reciprocal rank, scaled so the
 * first rank is 1.
 */
export function normalizeList(
  hits: readonly ScoredIdLike[],
  method: FusionMethod,
  kind: 'lexical' | 'vector',
): Map<string, number> {
  const out = new Map<string, number>();
  if (method === 'rrf') {
    hits.forEach((h, i) => out.set(h.id, (RRF_K + 1) / (RRF_K + 1 + i)));
    return out;
  }
  if (kind === 'vector') {
    for (const h of hits) out.set(h.id, Math.max(0, Math.min(1, h.score)));
    return out;
  }
  const best = Math.max(0, ...hits.map((h) => h.score));
  for (const h of hits) out.set(h.id, best > 0 ? Math.max(0, h.score) / best : 0);
  return out;
}

/**
 * How well a memory's routines match the routines detected in the task: the share of the
 * task's routine weight that the memory covers; its main (first) routine counts fully, the
 * others two thirds; a different facet of the same kind (a text-encoding insight for a
 * time-zone task) counts FACET_MISMATCH of that.
 */
export function routineMatch(
  taskRoutines: readonly RoutineCue[],
  memory: Pick<MemoryIdentity, 'routines' | 'facet'>,
): number {
  const total = taskRoutines.reduce((sum, c) => sum + c.weight, 0);
  if (total <= 0) return 0;
  const kinds = memory.routines;
  let matched = 0;
  for (const cue of taskRoutines) {
    const at = kinds.indexOf(cue.kind);
    if (at < 0) continue;
    const facet = facetOf(memory, cue.kind);
    const sameFacet = cue.facet === undefined || facet === undefined || cue.facet === facet;
    matched += cue.weight * (at === 0 ? 1 : 2 / 3) * (sameFacet ? 1 : FACET_MISMATCH);
  }
  return matched / total;
}

/**
 * Quality prior in [−1, 1]: net votes, support (fixes backing it), outcomes of runs that used
 * it, and recency of the last update.
 */
export function qualityPrior(memory: Pick<Memory, 'votes' | 'support' | 'outcomes' | 'updatedAt'>, now: Date): number {
  const votes = Math.tanh((memory.votes.up - memory.votes.down) / 3);
  const support = Math.min(1, Math.log2(Math.max(1, memory.support)) / 4);
  const { success, failure } = memory.outcomes;
  const outcomes = (success - failure) / (success + failure + 2);
  const updated = Date.parse(memory.updatedAt);
  const ageDays = Number.isNaN(updated) ? 0 : Math.max(0, (now.getTime() - updated) / 86_400_000);
  const recency = 2 * Math.exp(-ageDays / 730) - 1;
  const prior = 0.4 * votes + 0.3 * support + 0.2 * outcomes + 0.1 * recency;
  return Math.max(-1, Math.min(1, prior));
}

export interface RankedCandidate {
  id: string;
  lexical: number;
  vector: number;
  routine: number;
  prior: number;
  /** relevance: the weighted parts, without the prior */
  fused: number;
  /** fused + PRIOR_WEIGHT · prior */
  score: number;
}

export function combine(
  parts: { id: string; lexical: number; vector: number; routine: number; prior: number },
  weights: RankingWeights,
): RankedCandidate {
  const { id, lexical, vector, routine, prior } = parts;
  const fused = weights.lexical * lexical + weights.vector * vector + weights.routine * routine;
  // a literal, not a spread: recall combines every candidate of every request
  return { id, lexical, vector, routine, prior, fused, score: fused + PRIOR_WEIGHT * prior };
}

/** Sorted best first; ties broken by id so the order is stable. */
export function sortRanked<T extends { score: number; id: string }>(items: T[]): T[] {
  return items.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Keeps the best items in order, skipping any that is near-identical to one already kept
 * (the `similar` predicate decides), up to k.
 */
export function diversify<T>(
  items: readonly T[],
  k: number,
  similar: (a: T, b: T) => boolean,
  fold?: (into: T, item: T) => void,
): T[] {
  const kept: T[] = [];
  for (const item of items) {
    const twin = kept.find((other) => similar(item, other));
    if (twin !== undefined) fold?.(twin, item);
    else if (kept.length < k) kept.push(item);
    else if (!fold) break;
  }
  return kept;
}

/** True when two word sets are near-identical. */
export function nearDuplicateTerms(
  a: ReadonlySet<string>,
  b: ReadonlySet<string>,
  threshold = NEAR_DUPLICATE_JACCARD,
): boolean {
  return jaccard(a, b) >= threshold;
}

/**
 * The words that say what an insight advises: title, description and content without its examples
 * sentence and the qualifiers (second-routine clauses, per-ecosystem run hints), so the same
 * routine learned from other fixes, in two ecosystems, or with another side aspect, compares as
 * the same.
 */
export function adviceTerms(memory: {
  title: string;
  description: string;
  content: string;
  examples: readonly string[];
}): Set<string> {
  return termSet(`${memory.title}\n${memory.description}\n${adviceOf(memory)}`);
}
