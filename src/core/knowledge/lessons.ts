/**
 * Lessons: what a fix specifically teaches, in repository-agnostic words. A catalog of lessons
 * that recur in software everywhere, each with the condition that breaks, the behaviour that
 * fails and the check that catches it, and the general words that point to it. A fix (or a task)
 * that names one of them gets that lesson; fixes that teach the same lesson merge into one
 * insight; a fix that names none keeps its own condition as its lesson (see the rules abstractor).
 * Each lesson is written in its routine kind's entry (src/knowledge/kinds/); this module reads them.
 *
 * The cues are general software vocabulary, written from how these bugs are described anywhere,
 * not from any repository's words; each needs a score of 1 to count, so one common word alone
 * ("default", "error") never names a lesson. Pure: no I/O.
 */
import { catalogLessons, KINDS } from './kinds/index.js';
import type { RoutineCue, RoutineKind } from './routines.js';
import { cueText, cueWeight } from '../text.js';

export interface Lesson {
  id: string;
  kind: RoutineKind;
  /** names the lesson: the condition and what breaks */
  title: string;
  /** one sentence: why it breaks */
  description: string;
  /** one to three sentences: the check that would have caught it */
  check: string;
  cues: readonly (readonly [RegExp, number])[];
}

/** Every kind's lessons (src/knowledge/kinds/), in catalog order: of two equally named, the first wins. */
export const LESSONS: readonly Lesson[] = catalogLessons<RoutineKind>(KINDS).map(({ kind, lesson }) => ({
  id: lesson.id,
  kind,
  title: lesson.title,
  description: lesson.description,
  check: lesson.check,
  cues: lesson.cues,
}));

/**
 * The lesson a text names most, with its score; none below the bar of 1. With `kind`, only that
 * kind's lessons (the fix's files or checks already say which kind it is).
 */
export function detectLesson(
  texts: readonly (readonly [string, number])[],
  kind?: RoutineKind,
): { lesson: Lesson; score: number } | undefined {
  const read = texts.filter(([raw]) => raw !== '').map(([raw, factor]) => [readable(raw), factor] as const);
  let best: { lesson: Lesson; score: number } | undefined;
  for (const lesson of LESSONS) {
    if (kind !== undefined && lesson.kind !== kind) continue;
    let score = 0;
    for (const [text, factor] of read)
      score += Math.round(Math.min(cueWeight(lesson.cues, text.text, text.lower), 2.5) * factor * 100) / 100;
    if (score >= 1 && (!best || score > best.score)) best = { lesson, score };
  }
  return best;
}

/** A cue this strong (a platform name, an architecture) says the kind by itself. */
export const STRONG_CUE = 1.2;

/**
 * Whether a text's strongest cue outranks a lesson it names: a strong cue of another kind beats a
 * lesson named by one weak word ("32-bit" says platform even where "target" names a build lesson).
 * The same rule on both sides: the rules abstractor reading a fix, recall reading a task.
 */
export function cueOutranksLesson(
  strongest: RoutineCue | undefined,
  found: { lesson: { kind: RoutineKind }; score: number },
): boolean {
  return (
    strongest !== undefined &&
    strongest.weight >= STRONG_CUE &&
    found.score < STRONG_CUE &&
    found.lesson.kind !== strongest.kind
  );
}

/** Every lesson a text names, best first (scores of at least `min`). */
export function rankLessons(raw: string, min = 1): { lesson: Lesson; score: number }[] {
  const found: { lesson: Lesson; score: number }[] = [];
  const text = readable(raw);
  for (const lesson of LESSONS) {
    const sum = Math.round(cueWeight(lesson.cues, text.text, text.lower) * 100) / 100;
    if (sum >= min) found.push({ lesson, score: Math.min(sum, 2.5) });
  }
  return found.sort((a, b) => b.score - a.score);
}

/** A text as the cues read it: as written, and lowercased for the patterns that dropped their `i` flag. */
interface Readable {
  text: string;
  lower: string;
}

function readable(raw: string): Readable {
  const text = cueText(raw);
  return { text, lower: text.toLowerCase() };
}

export function lessonById(id: string): Lesson | undefined {
  return LESSONS.find((l) => l.id === id);
}

/** The lesson tag written on insights for people (the code reads `Memory.lesson`). */
export function lessonTag(id: string): string {
  return `lesson:${id}`;
}
