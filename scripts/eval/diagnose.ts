/** Where leave-one-repository-out precision is lost (npm run eval -- --diagnose). */
import type { Fix, RecallHit } from '../../src/core/types.js';
import type { RoutineKind } from '../../src/core/knowledge/routines.js';
import type { TaskReader } from '../../src/ports/index.js';
import { FALLBACK_ROUTINE, taskRoutines, withCompleteProvenance } from '../../src/services/recall.js';
import type { Store } from '../../src/store/store.js';
import { key, type Answer } from './data.js';
import { hitRelevance, K, lenient, realLabels, TENANT, type Query } from './score.js';

/**
 * Where leave-one-repository-out precision is lost (--diagnose): the task side (is the routine
 * the task points to first one of its real labels?) and the learn side (is the first routine of
 * the insight a fix was merged into one of that fix's real labels?). Queries and fixes whose only
 * label is regression-test are left out of both.
 */
export interface Diagnosis {
  tasks: number;
  taskRight: number;
  /** no routine named (only the fallback, or none) */
  taskNone: number;
  fixes: number;
  fixRight: number;
  /** the fix taught nothing kept as an insight, or its insight has no routine tag */
  fixNone: number;
  confusion: Map<string, number>;
  learnConfusion: Map<string, number>;
  /** lenient precision@3 summed over the queries the task side read right, and over the others */
  precisionRight: number;
  precisionWrong: number;
  /** hits of right-read queries: how many carry the task's routine first, and their summed relevance */
  sameKindHits: number;
  sameKindRelevance: number;
  otherKindHits: number;
  otherKindRelevance: number;
}

export const emptyDiagnosis = (): Diagnosis => ({
  tasks: 0,
  taskRight: 0,
  taskNone: 0,
  fixes: 0,
  fixRight: 0,
  fixNone: 0,
  confusion: new Map(),
  learnConfusion: new Map(),
  precisionRight: 0,
  precisionWrong: 0,
  sameKindHits: 0,
  sameKindRelevance: 0,
  otherKindHits: 0,
  otherKindRelevance: 0,
});

/**
 * The routine recall reads first in a task: the reader's (a model's, recorded or the labels'), as
 * recall takes it, else the rules'; undefined when none is named (the rules' fallback included).
 */
async function firstRoutine(task: string, reader: TaskReader | undefined): Promise<RoutineKind | undefined> {
  const byReader = (await reader?.read(task))?.routines[0];
  if (byReader !== undefined) return byReader;
  const first = taskRoutines(task)[0];
  return first === undefined || first === FALLBACK_ROUTINE ? undefined : first.kind;
}

/** `hitsOf`: what scoreQueries recalled for each query; `reader`: the task reader recall was given */
export async function diagnoseTasks(
  hitsOf: Map<Query, RecallHit[]>,
  answers: Map<string, Answer>,
  d: Diagnosis,
  reader?: TaskReader,
): Promise<void> {
  for (const [{ fix, task }, hits] of hitsOf) {
    const real = realLabels(answers.get(key(fix.repo, fix.ref))!);
    if (real.length === 0) continue;
    d.tasks += 1;
    const kind = await firstRoutine(task, reader);
    const first = kind === undefined ? undefined : { kind };
    if (!first) d.taskNone += 1;
    const precision = hits.reduce((sum, h) => sum + hitRelevance(h, fix, answers, lenient), 0) / K;
    if (first && real.includes(first.kind)) {
      d.taskRight += 1;
      d.precisionRight += precision;
      for (const hit of hits) {
        const relevance = hitRelevance(hit, fix, answers, lenient);
        if (hit.memory.routines[0] === first.kind) {
          d.sameKindHits += 1;
          d.sameKindRelevance += relevance;
        } else {
          d.otherKindHits += 1;
          d.otherKindRelevance += relevance;
        }
      }
    } else {
      d.precisionWrong += precision;
      const pair = `${real[0]} read as ${first?.kind ?? 'nothing'}`;
      d.confusion.set(pair, (d.confusion.get(pair) ?? 0) + 1);
    }
  }
}

export async function diagnoseLearning(store: Store, pool: readonly Fix[], answers: Map<string, Answer>, d: Diagnosis) {
  const insights = await store.listMemories(TENANT, { level: ['insight'] });
  const complete = await withCompleteProvenance(
    store,
    TENANT,
    insights.map((memory) => ({ memory }) as RecallHit),
  );
  const kindOf = new Map<string, string | undefined>();
  for (const { memory } of complete)
    for (const p of memory.provenance) kindOf.set(key(p.repo, p.ref), memory.routines[0]);
  for (const fix of pool) {
    const real = realLabels(answers.get(key(fix.repo, fix.ref))!);
    if (real.length === 0) continue;
    d.fixes += 1;
    const kind = kindOf.get(key(fix.repo, fix.ref));
    if (kind === undefined) d.fixNone += 1;
    else if (real.includes(kind)) d.fixRight += 1;
    if (kind === undefined || !real.includes(kind)) {
      const pair = `${real[0]} learned as ${kind ?? 'nothing'}`;
      d.learnConfusion.set(pair, (d.learnConfusion.get(pair) ?? 0) + 1);
    }
  }
}

/** The diagnosis as figures (shares in [0, 1]), for --json and for the text report. */
export function summarize(d: Diagnosis) {
  const share = (n: number, of: number) => n / Math.max(1, of);
  const commonest = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([pair, count]) => ({ pair, count }));
  return {
    taskSide: { queries: d.tasks, right: share(d.taskRight, d.tasks), noneNamed: share(d.taskNone, d.tasks) },
    learnSide: { poolFixes: d.fixes, right: share(d.fixRight, d.fixes), noInsight: share(d.fixNone, d.fixes) },
    precisionWhenRight: share(d.precisionRight, d.taskRight),
    precisionWhenWrong: share(d.precisionWrong, d.tasks - d.taskRight),
    hitsWhenRight: {
      sameKind: d.sameKindHits,
      sameKindRelevance: share(d.sameKindRelevance, d.sameKindHits),
      otherKind: d.otherKindHits,
      otherKindRelevance: share(d.otherKindRelevance, d.otherKindHits),
      empty: K * d.taskRight - d.sameKindHits - d.otherKindHits,
    },
    taskMisses: commonest(d.confusion),
    learnMisses: commonest(d.learnConfusion),
  };
}

/** The diagnosis of the subjects' recall, with the learn side; that of the issues' tasks, without it. */
export function printDiagnosis(d: ReturnType<typeof summarize>, tasks: 'subject' | 'issue' = 'subject'): void {
  const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
  const list = (misses: { pair: string; count: number }[]) => misses.map((m) => `${m.pair} ×${m.count}`).join('; ');
  const { taskSide, learnSide, hitsWhenRight: hits } = d;
  console.log(`\ndiagnosis of ${tasks} tasks, leave-one-repository-out (labels other than regression-test):`);
  console.log(
    `  task side: the first routine ${tasks === 'subject' ? 'a subject' : 'an issue'} points to is a real label for ${pct(taskSide.right)} of ${taskSide.queries} (no routine named: ${pct(taskSide.noneNamed)})`,
  );
  if (tasks === 'subject')
    console.log(
      `  learn side: the first routine of a fix's insight is a real label for ${pct(learnSide.right)} of ${learnSide.poolFixes} pool fixes (no insight or routine: ${pct(learnSide.noInsight)})`,
    );
  console.log(
    `  lenient precision@3 when the task side is right: ${d.precisionWhenRight.toFixed(3)}; when it is wrong: ${d.precisionWhenWrong.toFixed(3)}`,
  );
  console.log(
    `  their hits: ${hits.sameKind} of the task's routine (relevance ${hits.sameKindRelevance.toFixed(2)}), ${hits.otherKind} of another (relevance ${hits.otherKindRelevance.toFixed(2)}), ${hits.empty} empty slots`,
  );
  console.log(`  commonest task-side misses: ${list(d.taskMisses)}`);
  if (tasks === 'subject') console.log(`  commonest learn-side misses: ${list(d.learnMisses)}`);
}
