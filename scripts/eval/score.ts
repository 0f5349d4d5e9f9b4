/**
 * Scoring one set of queries against one pool: precision@3 by share of sources (lenient, strict,
 * lesson), the answered share, and how the top-3 slots spread over insights (a hub fills many).
 */
import type { Fix, RecallHit } from '../../src/core/types.js';
import { silentLogger, systemClock, type TaskReader } from '../../src/ports/index.js';
import { recall, withCompleteProvenance } from '../../src/services/recall.js';
import type { Store } from '../../src/store/store.js';
import { key, type Answer } from './data.js';

export const TENANT = 'eval';
export const K = 3;

export type Relevant = (a: Answer, b: Answer) => boolean;

export const realLabels = (a: Answer) =>
  [a.primary, a.secondary].filter((x): x is string => x !== null && x !== 'regression-test');
export const lenient: Relevant = (a, b) => realLabels(a).some((x) => realLabels(b).includes(x));
export const strict: Relevant = (a, b) => a.primary === b.primary;
export const lesson: Relevant = (a, b) => a.keys.some((k) => b.keys.includes(k));

/** A query: the fix it stands for, and the task text recalled with (its subject, or its issue). */
export interface Query {
  fix: Fix;
  task: string;
}

/** Relevance of one hit: the share of its sources outside the query's repository that are relevant. */
export function hitRelevance(hit: RecallHit, query: Fix, answers: Map<string, Answer>, relevant: Relevant): number {
  const answer = answers.get(key(query.repo, query.ref));
  const sources = hit.memory.provenance.filter((p) => p.repo.toLowerCase() !== query.repo.toLowerCase());
  if (!answer || sources.length === 0) return 0;
  let sum = 0;
  for (const source of sources) {
    const other = answers.get(key(source.repo, source.ref));
    if (other && relevant(answer, other)) sum += 1;
  }
  return sum / sources.length;
}

export interface Sums {
  lenient: number;
  strict: number;
  lesson: number;
  lessonQueries: number;
  answered: number;
  queries: number;
  /** top-3 slots filled, by insight title (titles, not ids: each LORO pool has its own ids) */
  slots: Map<string, number>;
}

export const emptySums = (): Sums => ({
  lenient: 0,
  strict: 0,
  lesson: 0,
  lessonQueries: 0,
  answered: 0,
  queries: 0,
  slots: new Map(),
});

export function addSums(into: Sums, from: Sums): void {
  into.lenient += from.lenient;
  into.strict += from.strict;
  into.lesson += from.lesson;
  into.lessonQueries += from.lessonQueries;
  into.answered += from.answered;
  into.queries += from.queries;
  for (const [title, n] of from.slots) into.slots.set(title, (into.slots.get(title) ?? 0) + n);
}

export interface Score {
  lenient: number;
  strict: number;
  /** lesson-level precision@3 over the queries that can score, or undefined without lessons */
  lesson?: number;
  lessonQueries: number;
  /** the share of queries that got at least one insight */
  answered: number;
  /** the busiest insight's share of all top-3 slots (K × queries), and its title */
  busiest: { share: number; title: string };
}

export function toScore(s: Sums, withLessons: boolean): Score {
  const [title, most] = [...s.slots].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  return {
    lenient: s.lenient / s.queries,
    strict: s.strict / s.queries,
    ...(withLessons && s.lessonQueries > 0 ? { lesson: s.lesson / s.lessonQueries } : {}),
    lessonQueries: s.lessonQueries,
    answered: s.answered / s.queries,
    busiest: { share: most / (K * Math.max(1, s.queries)), title },
  };
}

/** A query can score at lesson level when another repository's fix shares one of its keys. */
function canScoreLesson(query: Fix, pool: readonly Fix[], answers: Map<string, Answer>): boolean {
  const answer = answers.get(key(query.repo, query.ref));
  if (!answer || answer.keys.length === 0) return false;
  return pool.some((f) => f.repo !== query.repo && lesson(answer, answers.get(key(f.repo, f.ref))!));
}

/** the hits with complete provenance (recall reads a sample of each memory's sources; hits are scored by all of them) */
async function recallFor(store: Store, query: Query, reader: TaskReader | undefined): Promise<RecallHit[]> {
  const deps = { store, logger: silentLogger, clock: systemClock, ...(reader ? { taskReader: reader } : {}) };
  const hits = await recall(deps, { tenant: TENANT }, query.task, {
    k: K,
    excludeRepo: query.fix.repo,
  });
  return withCompleteProvenance(store, TENANT, hits);
}

export async function scoreQueries(
  store: Store,
  queries: readonly Query[],
  pool: readonly Fix[],
  answers: Map<string, Answer>,
  sums: Sums,
  verbose: boolean,
  reader?: TaskReader,
): Promise<Map<Query, RecallHit[]>> {
  const hitsOf = new Map<Query, RecallHit[]>();
  for (const query of queries) {
    const { fix } = query;
    const hits = await recallFor(store, query, reader);
    hitsOf.set(query, hits);
    sums.queries += 1;
    if (hits.length > 0) sums.answered += 1;
    for (const hit of hits) sums.slots.set(hit.memory.title, (sums.slots.get(hit.memory.title) ?? 0) + 1);
    const rel = (r: Relevant) => hits.map((h) => hitRelevance(h, fix, answers, r));
    const len = rel(lenient);
    sums.lenient += len.reduce((s, r) => s + r, 0) / K;
    sums.strict += rel(strict).reduce((s, r) => s + r, 0) / K;
    if (canScoreLesson(fix, pool, answers)) {
      sums.lessonQueries += 1;
      sums.lesson += rel(lesson).reduce((s, r) => s + r, 0) / K;
    }
    if (verbose) {
      const a = answers.get(key(fix.repo, fix.ref));
      console.log(
        `${a?.primary}/${a?.secondary ?? '-'} [${a?.keys.join(',')}]  ${query.task.replace(/\s+/g, ' ').slice(0, 100)}`,
      );
      hits.forEach((h, i) =>
        console.log(
          `    ${len[i]!.toFixed(2)} ${h.score.toFixed(3)} (lex ${h.parts.lexical} rou ${h.parts.routine} pri ${h.parts.prior}) ${h.memory.title.slice(0, 80)}`,
        ),
      );
    }
  }
  return hitsOf;
}
