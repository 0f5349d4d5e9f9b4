/**
 * The shape of one routine kind's entry: everything the engine knows about that kind of validation
 * routine, in one place. Plain data; `schema.ts` checks it (in a test and at build time, never when
 * a program starts). Cue patterns are case-insensitive unless they say otherwise; a cue list's
 * order is kept wherever the engine sums its weights.
 */
import type { CheckKind } from '../types.js';

/** A pattern and the weight it adds when a text shows it. */
export type Cue = readonly [pattern: RegExp, weight: number];

/** The hand-written validation routine an insight is built from when no lesson names the fix. */
export interface Template {
  /** a human name of the failure class, e.g. "empty and boundary input" */
  label: string;
  title: string;
  /** one sentence */
  description: string;
  /** what to check */
  check: string;
  /** why the check would have caught the source fix's bug */
  why: string;
  /** a clause used when this routine is a secondary aspect of another routine's insight */
  also: string;
  /** the workflow step that exercises this routine */
  step: string;
}

/**
 * A narrower routine within a kind: it asks for a different check (a time-zone test is not a
 * multi-byte text test). The first facet of a kind is its default and uses the kind's template.
 */
export interface FacetEntry {
  name: string;
  /** the words that name this facet in a text (counted, up to two matches per text) */
  cue: RegExp;
  /** the facet's own routine; none on the first facet, whose routine is the kind's */
  template?: Template;
}

/**
 * What a fix specifically teaches, in repository-agnostic words: the condition that breaks, why,
 * and the check that catches it. Its cues need a score of 1 to count, so one common word alone
 * ("default", "error") never names a lesson.
 */
export interface LessonEntry {
  /** unique across every kind; stored in insights' `lesson` field (and said in their `lesson:` tag) */
  id: string;
  /**
   * Read right after this lesson (of another kind) instead of among its own kind's lessons. The
   * catalog's order breaks ties between equally named lessons: the earlier one wins.
   */
  after?: string;
  /** names the lesson: the condition and what breaks */
  title: string;
  /** one sentence: why it breaks */
  description: string;
  /** one to three sentences: the check that would have caught it */
  check: string;
  cues: readonly Cue[];
}

export interface KindEntry<K extends string = string> {
  kind: K;
  /** the kind's routine (of its first facet, when it has facets) */
  template: Template;
  facets?: readonly FacetEntry[];
  /**
   * the rule a lesson learned from the organization states for this kind, {p} its phrase
   * ("Test the {p} with empty, missing and boundary values"; core/knowledge/learned-lessons.ts)
   */
  learnedRule: string;
  /** words that describe the routine, added to a recall query that points to this kind */
  vocabulary: string;
  /** cues in prose (titles, bodies, task descriptions), summed and capped per text */
  textCues: readonly Cue[];
  /** cues that read the text as written, case and all (an ENVIRONMENT_VARIABLE-looking word) */
  casedCues?: readonly Cue[];
  /** the kinds of files a fix touched that point to this routine, and how they read in an evidence line */
  files?: { evidence: string; cues: readonly Cue[] };
  /** the kinds of checks that, gone red then green, point to this routine, with their weights */
  checks?: Partial<Record<CheckKind, number>>;
  lessons: readonly LessonEntry[];
}

/** Declares one kind's entry, keeping its name as a literal type (the engine's `RoutineKind`). */
export function defineKind<const K extends string>(entry: KindEntry<K>): KindEntry<K> {
  return entry;
}
