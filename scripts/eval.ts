/**
 * npm run eval [-- path/to/fixes.jsonl ...] [--offtopic FILE] [--json] [--verbose] [--diagnose] [--samples N]
 *   [--kinds-from-labels | --read-by-model [--record FILE] | --readings FILE]
 *   [--abstract-by-model [--record-abstractions FILE] | --abstractions FILE]
 *
 * The protocol of ../shared/eval-dev/README.md, offline (rule-based abstraction, lexical recall):
 * 1. plain: learn every fix of the set into one fresh temporary SQLite pool (tenant "eval"); for
 *    each fix, recall top 3 insights with its task, excluding insights whose every source is in
 *    the query's repository;
 * 2. leave-one-repository-out (LORO): for each repository R, learn only the other repositories'
 *    fixes and query R's tasks: the honest figure for repositories the engine has never seen;
 * 3. three kinds of task, each plain and LORO: the fix's commit subject, and (when symptoms.jsonl is
 *    beside the fixes) the issue a user would have filed before the fix, title and body, and its
 *    title alone;
 * 4. precision@3, share-of-sources: a merged insight's sources for a query are its provenance
 *    entries outside the query's repository, and the hit counts as the share of those that are
 *    relevant. Lenient and strict by the labels of fixes.jsonl; lesson-level by the keys of
 *    lessons.jsonl beside it (mean over the queries that share a key with another repository's fix);
 * 5. the answered share, and the busiest insight's share of all top-3 slots (a hub wins unrelated tasks);
 * 6. silence: off-topic commit subjects (--offtopic), and off-topic issues (offtopic-issues.jsonl
 *    beside the fixes) by kind; a feature request counts as wrong when answered as a failure;
 * 7. the pool's shape: insights per 100 fixes, sources per insight, titles two active insights
 *    share, titles that are not a well-formed rule, and N insights picked at random (seeded).
 * 8. --kinds-from-labels: recall's task reader (a model's, in the App) played by the labels: every
 *    bug task read as a failure needing its labelled routines. The ceiling of a model's reading.
 *    --read-by-model: the configured model reads every task (OPENAI_API_KEY, MEMORY_TRANSFER_READ_MODEL),
 *    off-topic ones included: that model's own figures (it needs the network); --record FILE keeps its
 *    readings, and --readings FILE plays recorded readings back offline (tasks without one: the rules).
 * 9. --abstract-by-model: the pools are learned by the configured model (the LLM abstractor, as `learn`
 *    with an API key), each fix asked once per run; --record-abstractions FILE keeps its answers, and
 *    --abstractions FILE learns with the same abstractor answered from FILE, offline.
 * 10. several fixes files: their sets as one organization of all their repositories (one pool of
 *    every fix, leave one repository out of it), each set's lessons and issues read beside its fixes.
 * The labels, lessons and issues are read here, by the scorer, and nowhere else.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRulesAbstractor } from '../src/abstraction/rules-abstractor.js';
import { createTaskReader } from '../src/abstraction/llm-task-reader.js';
import { isOnline, llmConfigFromEnv } from '../src/config/llm.js';
import type { Fix, Memory } from '../src/core/types.js';
import { createRedactor } from '../src/security/redact.js';
import { learnFixes } from '../src/services/learn.js';
import { silentLogger, systemClock, type Abstractor, type Logger, type TaskReader } from '../src/ports/index.js';
import { recall, taskKindFor } from '../src/services/recall.js';
import { readFixesFile } from '../src/sources/fixes-file.js';
import { openStore } from '../src/store/open-store.js';
import type { Store } from '../src/store/store.js';
import {
  key,
  readAnswers,
  readOfftopicIssues,
  readOfftopicSubjects,
  readSymptoms,
  type Answer,
  type OfftopicTask,
} from './eval/data.js';
import { defaultEvalSet, evalDevFolder } from './eval-set.js';
import { labelReader } from './eval/label-reader.js';
import { recordedReader, recording } from './eval/recorded-readings.js';
import { recordingAbstractor, replayedAbstractor } from './eval/recorded-abstractions.js';
import { diagnoseLearning, diagnoseTasks, emptyDiagnosis, printDiagnosis, summarize } from './eval/diagnose.js';
import { countLeaks, defectiveTitles, sample, sharedTitles, sourceDistribution } from './eval/pool-shape.js';
import { addSums, emptySums, K, scoreQueries, TENANT, toScore, type Query, type Score } from './eval/score.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const EVAL_DEV = evalDevFolder(REPO_ROOT);

/** a commit subject, an issue's title and body, or its title alone (an issue filed without a body) */
type Mode = 'subject' | 'issue' | 'title';

/** An issue's title: the first line of its task. */
const titleOf = (task: string): string => task.split('\n')[0]!;

async function learnPool(
  fixes: readonly Fix[],
  abstractor: Abstractor,
): Promise<{ store: Store; dir: string; seconds: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'memory-transfer-eval-'));
  const store = await openStore(join(dir, 'pool.db'));
  const started = Date.now();
  await learnFixes(
    {
      store,
      abstractor,
      redactor: createRedactor(),
      logger: silentLogger,
      clock: systemClock,
    },
    fixes,
  );
  return { store, dir, seconds: (Date.now() - started) / 1000 };
}

async function dispose(pool: { store: Store; dir: string }): Promise<void> {
  await pool.store.close();
  rmSync(pool.dir, { recursive: true, force: true });
}

type Baselines = { bm25?: [number, number]; random?: [number, number]; ceiling?: [number, number] };

/** The baselines of one set (baseline.mjs beside it, else eval-dev's), or of several sets joined. */
function baselines(paths: readonly string[]): Baselines {
  if (paths.length === 1) return baselinesOf(paths[0]!);
  const dir = mkdtempSync(join(tmpdir(), 'memory-transfer-eval-sets-'));
  try {
    const joined = join(dir, 'fixes.jsonl');
    writeFileSync(joined, paths.map((p) => readFileSync(p, 'utf8').trimEnd()).join('\n') + '\n');
    return baselinesOf(joined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function baselinesOf(path: string): Baselines {
  const script = existsSync(join(dirname(path), 'baseline.mjs'))
    ? join(dirname(path), 'baseline.mjs')
    : join(EVAL_DEV, 'baseline.mjs');
  if (!existsSync(script)) return {};
  const out = execFileSync(process.execPath, [script, path], { encoding: 'utf8' });
  const pick = (label: RegExp): [number, number] | undefined => {
    const m = new RegExp(`${label.source}\\s+([0-9.]+)\\s+([0-9.]+)`).exec(out);
    return m ? [Number(m[1]), Number(m[2])] : undefined;
  };
  const bm25 = pick(/BM25[^\n]*\)/);
  const random = pick(/random expectation/);
  const ceiling = pick(/ceiling \(perfect ranking\)/);
  return { ...(bm25 && { bm25 }), ...(random && { random }), ...(ceiling && { ceiling }) };
}

/** Off-topic commit subjects: --offtopic, the set's own offtopic.jsonl, eval-dev's, or the project's own set. */
function offtopicSubjectsFile(explicit: string | undefined, fixesPath: string): string | undefined {
  if (explicit !== undefined && !existsSync(explicit)) {
    console.error(`eval: no off-topic file at ${explicit} (--offtopic takes a JSON Lines file of { "subject" })`);
    process.exit(2);
  }
  const candidates = [
    explicit,
    join(dirname(fixesPath), 'offtopic.jsonl'),
    join(EVAL_DEV, 'offtopic.jsonl'),
    join(REPO_ROOT, 'scripts', 'eval-offtopic.jsonl'),
  ];
  return candidates.find((p): p is string => p !== undefined && existsSync(p));
}

interface OfftopicResult {
  tasks: number;
  /** by kind: the share answered as the App answers (failures only) */
  answered: Record<string, number>;
  /** feature requests answered as the Action answers (features too) but not read as a feature */
  featuresAsFailure?: number;
  /** feature requests read as a feature */
  featuresRead?: number;
}

/**
 * Who writes the pools' insights: the rules, the configured model (--abstract-by-model, its answers
 * kept with --record-abstractions FILE), or recorded answers (--abstractions FILE).
 */
function abstractorFor(args: string[]): Abstractor {
  const file = flag(args, '--abstractions');
  if (file !== undefined)
    return replaying(file, replayedAbstractor, 'fixes have no recorded abstraction', 'the rules learned them');
  if (!args.includes('--abstract-by-model')) return createRulesAbstractor();
  const config = llmConfigFromEnv(process.env);
  if (!isOnline(config)) {
    console.error('eval: --abstract-by-model needs OPENAI_API_KEY (and OPENAI_BASE_URL for another endpoint)');
    process.exit(2);
  }
  const record = flag(args, '--record-abstractions');
  return recordingAbstractor(config, record === undefined ? undefined : resolve(record), consoleWarnings);
}

/** The model's reader, its readings appended to FILE when --record names one. */
function withRecord(reader: TaskReader, file: string | undefined): TaskReader {
  return file === undefined ? reader : recording(reader, resolve(file));
}

/**
 * A recording played back (--readings, --abstractions), or a clear exit when the file is missing or
 * malformed; at the end, how many tasks or fixes it had no answer for.
 */
function replaying<T extends { missing: () => number }>(
  file: string,
  open: (path: string) => T,
  unanswered: string,
  instead: string,
): T {
  try {
    const replayed = open(resolve(file));
    process.on('exit', () => {
      if (replayed.missing() > 0) console.error(`eval: ${replayed.missing()} ${unanswered} in ${file}; ${instead}`);
    });
    return replayed;
  } catch (error) {
    console.error(`eval: ${(error as Error).message}`);
    process.exit(2);
  }
}

/** The configured model as recall's reader of tasks (--read-by-model), or a clear exit without a key. */
function modelReader(): TaskReader {
  const config = llmConfigFromEnv(process.env);
  const reader = createTaskReader(config, consoleWarnings);
  if (!reader) {
    console.error(
      'eval: --read-by-model needs OPENAI_API_KEY (and OPENAI_BASE_URL for another endpoint), and MEMORY_TRANSFER_READ_MODEL other than rules',
    );
    process.exit(2);
  }
  // every task read once for the whole run (the passes of leave-one-repository-out ask the same tasks)
  const readings = new Map<string, ReturnType<TaskReader['read']>>();
  return {
    read(task) {
      if (!readings.has(task)) readings.set(task, reader.read(task));
      return readings.get(task)!;
    },
  };
}

/** The reader's warnings (a task the model could not read), on stderr. */
const consoleWarnings: Logger = { ...silentLogger, warn: (message) => console.error(`eval: ${message}`) };

async function offtopicAnswered(
  store: Store,
  tasks: readonly OfftopicTask[],
  verbose: boolean,
  reader: TaskReader | undefined,
): Promise<OfftopicResult> {
  const deps = { store, logger: silentLogger, clock: systemClock, ...(reader ? { taskReader: reader } : {}) };
  const answered: Record<string, [number, number]> = {};
  let features = 0;
  let asFailure = 0;
  let read = 0;
  for (const { task, kind } of tasks) {
    const hits = await recall(deps, { tenant: TENANT }, task, { k: K });
    const counts = (answered[kind] ??= [0, 0]);
    counts[1] += 1;
    if (hits.length > 0) {
      counts[0] += 1;
      if (verbose)
        console.log(
          `  off-topic ${kind} answered: ${task.replace(/\s+/g, ' ').slice(0, 80)} → ${hits[0]!.memory.title.slice(0, 60)}`,
        );
    }
    if (kind === 'feature') {
      features += 1;
      const reading = await taskKindFor(deps, task);
      if (reading === 'feature') read += 1;
      else if ((await recall(deps, { tenant: TENANT }, task, { k: K, taskKinds: ['failure', 'feature'] })).length > 0)
        asFailure += 1;
    }
  }
  return {
    tasks: tasks.length,
    answered: Object.fromEntries(Object.entries(answered).map(([k, [a, n]]) => [k, a / n])),
    ...(features > 0 ? { featuresAsFailure: asFailure / features, featuresRead: read / features } : {}),
  };
}

interface ModeResult {
  plain: Score;
  leaveOneRepositoryOut: Score;
  perRepository: Record<string, Score>;
  offtopic?: OfftopicResult;
}

function flag(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

/**
 * One or more labelled sets read as one: several sets are one organization of all their
 * repositories (each set's lessons, issues and off-topic issues beside its own fixes). Issues are
 * tasks only when every set has them.
 */
async function readSets(paths: readonly string[]): Promise<{
  fixes: Fix[];
  answers: Map<string, Answer>;
  symptoms: Map<Fix, string> | undefined;
  offtopicIssues: OfftopicTask[] | undefined;
}> {
  const sets = await Promise.all(
    paths.map(async (path) => {
      const fixes = await readFixesFile(path, { tenant: TENANT, visibility: 'public' });
      return {
        fixes,
        answers: readAnswers(path),
        symptoms: readSymptoms(path, fixes),
        offtopic: readOfftopicIssues(path),
      };
    }),
  );
  const withIssues = sets.every((set) => set.symptoms !== undefined);
  const offtopic = sets.flatMap((set) => set.offtopic ?? []);
  return {
    fixes: sets.flatMap((set) => set.fixes),
    answers: new Map(sets.flatMap((set) => [...set.answers])),
    symptoms: withIssues ? new Map(sets.flatMap((set) => [...set.symptoms!])) : undefined,
    offtopicIssues: offtopic.length > 0 ? offtopic : undefined,
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const verbose = args.includes('--verbose');
  const diagnose = args.includes('--diagnose');
  const valued = new Set([
    '--offtopic',
    '--samples',
    '--readings',
    '--record',
    '--abstractions',
    '--record-abstractions',
  ]);
  const pathArgs = args.filter((a, i) => !a.startsWith('--') && !valued.has(args[i - 1] ?? ''));
  let paths: string[];
  if (pathArgs.length > 0) paths = pathArgs.map((p) => resolve(p));
  else {
    const chosen = defaultEvalSet(REPO_ROOT);
    console.error(chosen.note);
    paths = [chosen.fixes];
  }
  for (const path of paths)
    if (!existsSync(path)) {
      console.error(`eval: no fixes file at ${path} (pass its path: npm run eval -- path/to/fixes.jsonl)`);
      process.exit(2);
    }
  const samples = Number(flag(args, '--samples') ?? 10);

  const { fixes, answers, symptoms, offtopicIssues } = await readSets(paths);
  const withLessons = [...answers.values()].some((a) => a.keys.length > 0);
  const subjectsFile = offtopicSubjectsFile(flag(args, '--offtopic'), paths[0]!);
  const offtopicSubjects = subjectsFile ? readOfftopicSubjects(subjectsFile) : undefined;
  const modes: Mode[] = symptoms ? ['subject', 'issue', 'title'] : ['subject'];
  function queriesOf(mode: Mode, of: readonly Fix[]): Query[] {
    return of.map((fix) => ({
      fix,
      task: mode === 'subject' ? fix.title : mode === 'issue' ? symptoms!.get(fix)! : titleOf(symptoms!.get(fix)!),
    }));
  }
  const reader = args.includes('--kinds-from-labels')
    ? labelReader(
        modes.flatMap((mode) =>
          queriesOf(mode, fixes).map(({ fix, task }) => ({ task, answer: answers.get(key(fix.repo, fix.ref)) })),
        ),
      )
    : args.includes('--read-by-model')
      ? withRecord(modelReader(), flag(args, '--record'))
      : flag(args, '--readings') !== undefined
        ? replaying(flag(args, '--readings')!, recordedReader, 'tasks have no recorded reading', 'the rules read them')
        : undefined;

  const abstractor = abstractorFor(args);

  // 1. plain: one pool of every fix
  const pool = await learnPool(fixes, abstractor);
  const results: Partial<Record<Mode, ModeResult>> = {};
  let insights: Memory[];
  try {
    for (const mode of modes) {
      const sums = emptySums();
      if (verbose) console.log(`\n== plain, ${mode} tasks`);
      await scoreQueries(pool.store, queriesOf(mode, fixes), fixes, answers, sums, verbose, reader);
      const offtopic =
        mode === 'issue'
          ? offtopicIssues
          : mode === 'title'
            ? offtopicIssues?.map((t) => ({ ...t, task: titleOf(t.task) }))
            : offtopicSubjects;
      results[mode] = {
        plain: toScore(sums, withLessons),
        leaveOneRepositoryOut: toScore(emptySums(), withLessons),
        perRepository: {},
        ...(offtopic ? { offtopic: await offtopicAnswered(pool.store, offtopic, verbose, reader) } : {}),
      };
    }
    insights = await pool.store.listMemories(TENANT, { level: ['insight'] });
  } finally {
    await dispose(pool);
  }

  // 2. leave one repository out: one pool per held-out repository serves both kinds of task
  const repos = [...new Set(fixes.map((f) => f.repo))];
  const loroSums = Object.fromEntries(modes.map((m) => [m, emptySums()])) as Record<Mode, ReturnType<typeof emptySums>>;
  const diagnosis = emptyDiagnosis();
  const issueDiagnosis = emptyDiagnosis();
  for (const repo of repos) {
    const rest = fixes.filter((f) => f.repo !== repo);
    const held = fixes.filter((f) => f.repo === repo);
    const one = await learnPool(rest, abstractor);
    try {
      for (const mode of modes) {
        const sums = emptySums();
        const hitsOf = await scoreQueries(one.store, queriesOf(mode, held), fixes, answers, sums, false, reader);
        if (diagnose && mode === 'subject') {
          await diagnoseTasks(hitsOf, answers, diagnosis, reader);
          await diagnoseLearning(one.store, rest, answers, diagnosis);
        }
        if (diagnose && mode === 'issue') await diagnoseTasks(hitsOf, answers, issueDiagnosis, reader);
        results[mode]!.perRepository[repo] = toScore(sums, withLessons);
        addSums(loroSums[mode], sums);
      }
    } finally {
      await dispose(one);
    }
  }
  for (const mode of modes) results[mode]!.leaveOneRepositoryOut = toScore(loroSums[mode], withLessons);

  const leaks = countLeaks(insights, new Map(fixes.map((f) => [key(f.repo, f.ref), f])));
  const base = baselines(paths);
  const picked = sample(insights, samples).map((m) => ({
    title: m.title,
    description: m.description,
    content: m.content,
    sources: m.provenance.map((p) => `${p.repo}@${p.ref.slice(0, 8)}`),
  }));
  const result = {
    fixes: fixes.length,
    repositories: repos.length,
    insights: insights.length,
    insightsPer100Fixes: (100 * insights.length) / fixes.length,
    sourcesPerInsight: sourceDistribution(insights),
    tasks: results,
    baselines: base,
    sharedTitles: sharedTitles(insights),
    defectiveTitles: defectiveTitles(insights),
    insightsNamingTheirSource: leaks.count,
    sample: picked,
    ...(diagnose ? { diagnosis: summarize(diagnosis) } : {}),
    ...(diagnose && modes.includes('issue') ? { issueDiagnosis: summarize(issueDiagnosis) } : {}),
  };
  if (json) {
    console.log(JSON.stringify(result, null, 2));
    return;
  }
  printReport(result, repos, modes);
  console.log(`insights naming a path, symbol or string of their source fix: ${leaks.count}`);
  for (const example of leaks.examples) console.log(`  ${example}`);
  if (result.diagnosis) printDiagnosis(result.diagnosis);
  if (result.issueDiagnosis) printDiagnosis(result.issueDiagnosis, 'issue');
  console.log(`\n${picked.length} insights picked at random:`);
  for (const p of picked)
    console.log(`- ${p.title}\n  ${p.description}\n  ${p.content}\n  sources: ${p.sources.join(', ')}`);
}

function printReport(
  result: {
    fixes: number;
    insights: number;
    insightsPer100Fixes: number;
    sourcesPerInsight: Record<string, number>;
    tasks: Partial<Record<Mode, ModeResult>>;
    baselines: Baselines;
    sharedTitles: string[];
    defectiveTitles: string[];
  },
  repos: string[],
  modes: Mode[],
): void {
  const pct = (x?: number) => (x === undefined ? '   - ' : `${(100 * x).toFixed(0).padStart(4)}%`);
  const f3 = (n?: number) => (n === undefined ? '  -  ' : n.toFixed(3));
  const row = (name: string, s: Partial<Score>) =>
    `  ${name.padEnd(44)} ${f3(s.lenient)}   ${f3(s.strict)}   ${f3(s.lesson)}  ${pct(s.answered)}   ${pct(s.busiest?.share)}`;
  console.log(
    `${result.fixes} fixes from ${repos.length} repositories → ${result.insights} insights (${result.insightsPer100Fixes.toFixed(0)} per 100 fixes)`,
  );
  console.log(`sources per insight: ${JSON.stringify(result.sourcesPerInsight)}`);
  for (const mode of modes) {
    const r = result.tasks[mode]!;
    console.log(
      `\n${{ subject: 'commit subjects', issue: 'issues (title and body)', title: 'issue titles alone' }[mode]} as tasks: precision@${K}, share of sources; lesson over ${r.plain.lessonQueries} queries`,
    );
    console.log('                                               lenient  strict   lesson  answered  busiest');
    console.log(row('plain (one pool)', r.plain));
    console.log(row('leave-one-repository-out', r.leaveOneRepositoryOut));
    for (const repo of repos) console.log(row(`  LORO ${repo}`, r.perRepository[repo]!));
    console.log(`  busiest insight (LORO): ${r.leaveOneRepositoryOut.busiest.title}`);
    if (r.offtopic) {
      const kinds = Object.entries(r.offtopic.answered)
        .map(([k, v]) => `${k} ${pct(v).trim()}`)
        .join(', ');
      console.log(`  off-topic answered (${r.offtopic.tasks}): ${kinds}`);
      if (r.offtopic.featuresAsFailure !== undefined)
        console.log(
          `  feature requests read as features: ${pct(r.offtopic.featuresRead).trim()}; answered as a failure: ${pct(r.offtopic.featuresAsFailure).trim()}`,
        );
    }
  }
  const base = result.baselines;
  if (base.bm25)
    console.log(row('BM25 (subject -> subject+paths) baseline', { lenient: base.bm25[0], strict: base.bm25[1] }));
  if (base.random) console.log(row('random expectation', { lenient: base.random[0], strict: base.random[1] }));
  console.log(
    `\ntitles shared by active insights: ${result.sharedTitles.length}${result.sharedTitles.length ? ` (${result.sharedTitles.slice(0, 5).join('; ')})` : ''}`,
  );
  console.log(`titles that are not a well-formed rule: ${result.defectiveTitles.length}`);
  for (const t of result.defectiveTitles.slice(0, 8)) console.log(`  ${t}`);
}

await main();
