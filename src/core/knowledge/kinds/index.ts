/**
 * Every routine kind's entry, in the engine's order: a tie between two kinds of equal weight goes
 * to the one listed first, and lessons are read kind by kind in this order (see `catalogLessons`).
 */
import type { KindEntry, LessonEntry } from '../entry.js';
import { apiCompat } from './api-compat.js';
import { buildPackaging } from './build-packaging.js';
import { ciConfig } from './ci-config.js';
import { concurrencyAsync } from './concurrency-async.js';
import { configEnv } from './config-env.js';
import { dataMigration } from './data-migration.js';
import { dependencyCompat } from './dependency-compat.js';
import { edgeInput } from './edge-input.js';
import { encodingLocale } from './encoding-locale.js';
import { errorHandling } from './error-handling.js';
import { lintFormat } from './lint-format.js';
import { performanceResource } from './performance-resource.js';
import { platformCompat } from './platform-compat.js';
import { regressionTest } from './regression-test.js';
import { securityValidation } from './security-validation.js';
import { typeCheck } from './type-check.js';

export const KINDS = [
  edgeInput,
  encodingLocale,
  platformCompat,
  concurrencyAsync,
  performanceResource,
  errorHandling,
  securityValidation,
  apiCompat,
  dependencyCompat,
  typeCheck,
  lintFormat,
  buildPackaging,
  ciConfig,
  configEnv,
  dataMigration,
  // the fallback: a fix that changed tests but names no other routine
  regressionTest,
] as const;

export type RoutineKind = (typeof KINDS)[number]['kind'];

/** The same entries, each read as an entry of any routine kind. */
export const KIND_ENTRIES: readonly KindEntry<RoutineKind>[] = KINDS;

/**
 * The order in which the kinds of files a fix touched are read: evidence lines list them in this
 * order, and of two kinds the files show equally strongly, the first is the fix's. Every kind with
 * `files` is listed once.
 */
export const FILE_CUE_ORDER: readonly RoutineKind[] = [
  'ci-config',
  'dependency-compat',
  'build-packaging',
  'type-check',
  'encoding-locale',
  'data-migration',
  'lint-format',
  'platform-compat',
  'concurrency-async',
  'config-env',
  'security-validation',
];

/** A lesson as the engine reads it: its entry and the kind it belongs to. */
export interface KindLesson<K extends string = RoutineKind> {
  kind: K;
  lesson: LessonEntry;
}

/**
 * Every lesson in catalog order: kind by kind, each kind's lessons as its entry lists them, and a
 * lesson with `after` right behind the lesson it names. A lesson whose `after` names no lesson is
 * left out (the schema rejects it).
 */
export function catalogLessons<K extends string>(kinds: readonly KindEntry<K>[]): KindLesson<K>[] {
  const followers = new Map<string, KindLesson<K>[]>();
  for (const { kind, lessons } of kinds)
    for (const lesson of lessons)
      if (lesson.after !== undefined)
        followers.set(lesson.after, [...(followers.get(lesson.after) ?? []), { kind, lesson }]);
  const ordered: KindLesson<K>[] = [];
  const place = (entry: KindLesson<K>): void => {
    ordered.push(entry);
    for (const follower of followers.get(entry.lesson.id) ?? []) place(follower);
  };
  for (const { kind, lessons } of kinds)
    for (const lesson of lessons) if (lesson.after === undefined) place({ kind, lesson });
  return ordered;
}
