/**
 * npm run eval:kinds [-- DIR ...]: how the task-kind reader reads each set's issue-phrased tasks
 * (without a DIR: the reading sets of eval/sets, m, p, q, r and s)
 * (symptoms.jsonl: failures; offtopic-issues.jsonl: by kind) and commit subjects, per set; and,
 * for bug reports labelled with the routine they need (routines.jsonl), which routine kind recall
 * reads first. Answer keys are read here only.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTaskKindOf } from '../../src/core/retrieval/task-kind.js';
import { taskRoutines } from '../../src/services/recall.js';
import { issueTask, readJsonl } from './data.js';

const verbose = process.argv.includes('--verbose');
const SETS = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'eval', 'sets');
const named = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const dirs = named.length > 0 ? named : ['m', 'p', 'q', 'r', 's'].map((set) => join(SETS, set));
if (named.length === 0)
  console.error(`eval:kinds: the reading sets of ${SETS} (m, p, q, r, s); name others to read them`);
for (const dir of dirs)
  if (
    !['symptoms.jsonl', 'offtopic-issues.jsonl', 'fixes.jsonl', 'routines.jsonl'].some((f) => existsSync(join(dir, f)))
  ) {
    console.error(
      `eval:kinds: no issues at ${dir} (symptoms.jsonl, offtopic-issues.jsonl, fixes.jsonl or routines.jsonl)`,
    );
    process.exit(2);
  }
for (const dir of dirs) {
  const rows: { task: string; kind: string; repo: string }[] = [];
  const symptoms = join(dir, 'symptoms.jsonl');
  if (existsSync(symptoms))
    for (const s of readJsonl<{ title: string; body: string; repo: string }>(symptoms))
      rows.push({ task: issueTask(s), kind: 'failure', repo: s.repo });
  const off = join(dir, 'offtopic-issues.jsonl');
  if (existsSync(off))
    for (const s of readJsonl<{ title: string; body: string; kind: string; repo: string }>(off))
      rows.push({ task: issueTask(s), kind: s.kind, repo: s.repo });
  // a set of issues only (m/) has no fixes file
  const fixes = join(dir, 'fixes.jsonl');
  if (existsSync(fixes))
    for (const s of readJsonl<{ subject: string; repo: string }>(fixes))
      rows.push({ task: s.subject, kind: 'subject-fix', repo: s.repo });
  // bug reports labelled with the routine kind they need: read as failures, and their routine
  const labelled = join(dir, 'routines.jsonl');
  const routines = existsSync(labelled)
    ? readJsonl<{ title: string; body: string; routine: string }>(labelled).map((s) => ({ ...s, task: issueTask(s) }))
    : [];
  for (const s of routines) rows.push({ task: s.task, kind: 'failure', repo: '' });
  const table = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const reading = readTaskKindOf(row.task);
    const counts = table.get(row.kind) ?? new Map<string, number>();
    counts.set(reading.kind, (counts.get(reading.kind) ?? 0) + 1);
    table.set(row.kind, counts);
    const right = row.kind === reading.kind || (row.kind === 'subject-fix' && reading.kind === 'failure');
    const badly = row.kind === 'failure' ? reading.kind !== 'failure' : !right && reading.kind === 'failure';
    if (verbose && badly)
      console.log(
        `  ${row.kind} read as ${reading.kind} (f ${reading.failure}, ${reading.other?.kind ?? '-'} ${reading.other?.score ?? 0}): ${row.task.replace(/\s+/g, ' ').slice(0, 150)}`,
      );
  }
  console.log(dir);
  for (const [kind, counts] of table) {
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    console.log(`  ${kind.padEnd(12)} ${total}: ${[...counts].map(([k, n]) => `${k} ${n}`).join(', ')}`);
  }
  if (routines.length > 0) printRoutines(routines);
}

/** Per labelled routine: how many reports recall reads with it first, and with it among its kinds. */
function printRoutines(reports: readonly { task: string; routine: string }[]): void {
  const byRoutine = new Map<string, { n: number; first: number; among: number }>();
  for (const report of reports) {
    const read = taskRoutines(report.task).map((c) => c.kind as string);
    const counts = byRoutine.get(report.routine) ?? { n: 0, first: 0, among: 0 };
    counts.n += 1;
    if (read[0] === report.routine) counts.first += 1;
    if (read.includes(report.routine)) counts.among += 1;
    byRoutine.set(report.routine, counts);
    if (verbose && read[0] !== report.routine)
      console.log(
        `  ${report.routine} read as ${read.join(', ') || 'none'}: ${report.task.replace(/\s+/g, ' ').slice(0, 150)}`,
      );
  }
  const all = [...byRoutine.values()].reduce(
    (a, c) => ({ n: a.n + c.n, first: a.first + c.first, among: a.among + c.among }),
    { n: 0, first: 0, among: 0 },
  );
  console.log(`  routine read first ${all.first} of ${all.n}, among the kinds read ${all.among} of ${all.n}`);
  for (const [routine, c] of [...byRoutine].sort())
    console.log(`    ${routine.padEnd(22)} ${c.n}: first ${c.first}, among ${c.among}`);
}
