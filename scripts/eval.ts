/**
 * npm run eval [-- path/to/fixes.jsonl] [--offtopic FILE] [--json] [--verbose] [--diagnose] [--samples N]
 *
 * The protocol of docs/quality.md, offline (rule-based abstraction, lexical recall). Without a
 * fixes file it measures ../shared/eval-dev when that is beside the checkout, else the
 * repository's eval/sets/g (./eval-set.ts), and says which:
 * 1. plain: learn every fix of the set into one fresh temporary SQLite pool (tenant "eval"); for
 *    each fix, recall top 3 insights with its subject as the task, excluding insights whose every
 *    source is in the query's repository;
 * 2. leave-one-repository-out (LORO): for each repository R, learn only the other repositories'
 *    fixes and query R's subjects, so nothing the engine learned from R itself (its vocabulary,
 *    its own fix) can help: the honest figure for repositories the engine has never seen;
 * 3. precision@3, share-of-sources: a merged insight has several source fixes; its sources for a
 *    query are its provenance entries outside the query's repository, and the hit counts as the
 *    share of those sources that are relevant, so merging never scores better than listing the
 *    sources one by one. Lenient and strict by the labels of fixes.jsonl; lesson-level by the
 *    keys of lessons.jsonl beside it (mean over the queries that share a key with another
 *    repository's fix);
 * 4. silence: the share of off-topic tasks (documentation, releases, version bumps) that get any
 *    insight, and the share of real fix tasks that get one;
 * 5. the pool's shape: distinct insights per 100 fixes, sources per insight, and N insights
 *    picked at random (seeded), verbatim, for a reader to judge.
 * The labels and lessons are read here, by the scorer, and nowhere else: the engine learns from
 * the fixes file through the ordinary fixes-file source, which drops them unread.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRulesAbstractor } from '../src/abstraction/rules-abstractor.js';
import { leaksSource } from '../src/abstraction/specificity.js';
import { routinesOfTags } from '../src/core/routines.js';
import type { Fix, Memory, RecallHit } from '../src/core/types.js';
import { createRedactor } from '../src/security/redact.js';
import { learnFixes } from '../src/services/learn.js';
import { silentLogger, systemClock } from '../src/services/ports.js';
import { FALLBACK_ROUTINE, recall, taskRoutines, withCompleteProvenance } from '../src/services/recall.js';
import { readFixesFile } from '../src/sources/fixes-file.js';
import { openStore } from '../src/store/open-store.js';
import type { Store } from '../src/store/store.js';
import { defaultEvalSet, evalDevFolder } from './eval-set.js';

const TENANT = 'eval';
const K = 3;
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const EVAL_DEV = evalDevFolder(REPO_ROOT);

interface Answer {
  primary: string;
  secondary: string | null;
  keys: string[];
}

type Relevant = (a: Answer, b: Answer) => boolean;

function key(repo: string, ref: string): string {
  return `${repo.toLowerCase()}@${ref.toLowerCase()}`;
}

function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/** The answer key (labels, and lesson keys when lessons.jsonl is beside the fixes), read only by this scorer. */
function readAnswers(path: string): Map<string, Answer> {
  const answers = new Map<string, Answer>();
  for (const r of readJsonl<{ repo: string; sha: string; labels: { primary: string; secondary: string | null } }>(path))
    answers.set(key(r.repo, r.sha), { ...r.labels, keys: [] });
  const lessons = join(dirname(path), 'lessons.jsonl');
  if (existsSync(lessons)) {
    for (const l of readJsonl<{ repo: string; sha: string; key: string; key2: string | null }>(lessons)) {
      const answer = answers.get(key(l.repo, l.sha));
      if (answer) answer.keys = [l.key, l.key2].filter((k): k is string => k !== null);
    }
  }
  return answers;
}

const realLabels = (a: Answer) =>
  [a.primary, a.secondary].filter((x): x is string => x !== null && x !== 'regression-test');
const lenient: Relevant = (a, b) => realLabels(a).some((x) => realLabels(b).includes(x));
const strict: Relevant = (a, b) => a.primary === b.primary;
const lesson: Relevant = (a, b) => a.keys.some((k) => b.keys.includes(k));

/** Relevance of one hit: the share of its sources outside the query's repository that are relevant. */
function hitRelevance(hit: RecallHit, query: Fix, answers: Map<string, Answer>, relevant: Relevant): number {
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

interface Score {
  lenient: number;
  strict: number;
  /** lesson-level precision@3 over the queries that can score, or undefined without lessons */
  lesson?: number;
  lessonQueries: number;
  /** the share of queries that got at least one insight */
  answered: number;
}

/**
 * Where leave-one-repository-out precision is lost (--diagnose): the task side (is the routine
 * the task points to first one of its real labels?) and the learn side (is the first routine of
 * the insight a fix was merged into one of that fix's real labels?). Queries and fixes whose only
 * label is regression-test are left out of both.
 */
interface Diagnosis {
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

const emptyDiagnosis = (): Diagnosis => ({
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

/** `hitsOf`: what scoreQueries recalled for each query */
function diagnoseTasks(hitsOf: Map<Fix, RecallHit[]>, answers: Map<string, Answer>, d: Diagnosis): void {
  for (const [fix, hits] of hitsOf) {
    const real = realLabels(answers.get(key(fix.repo, fix.ref))!);
    if (real.length === 0) continue;
    d.tasks += 1;
    const routines = taskRoutines(fix.title);
    const first = routines[0];
    if (!first || first === FALLBACK_ROUTINE) d.taskNone += 1;
    const precision = hits.reduce((sum, h) => sum + hitRelevance(h, fix, answers, lenient), 0) / K;
    if (first && real.includes(first.kind)) {
      d.taskRight += 1;
      d.precisionRight += precision;
      for (const hit of hits) {
        const relevance = hitRelevance(hit, fix, answers, lenient);
        if (routinesOfTags(hit.memory.tags)[0] === first.kind) {
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

async function diagnoseLearning(store: Store, pool: readonly Fix[], answers: Map<string, Answer>, d: Diagnosis) {
  const insights = await store.listMemories(TENANT, { level: ['insight'] });
  const complete = await withCompleteProvenance(
    store,
    TENANT,
    insights.map((memory) => ({ memory }) as RecallHit),
  );
  const kindOf = new Map<string, string | undefined>();
  for (const { memory } of complete)
    for (const p of memory.provenance) kindOf.set(key(p.repo, p.ref), routinesOfTags(memory.tags)[0]);
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
function summarize(d: Diagnosis) {
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

function printDiagnosis(d: ReturnType<typeof summarize>): void {
  const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
  const list = (misses: { pair: string; count: number }[]) => misses.map((m) => `${m.pair} ×${m.count}`).join('; ');
  const { taskSide, learnSide, hitsWhenRight: hits } = d;
  console.log('\ndiagnosis, leave-one-repository-out (labels other than regression-test):');
  console.log(
    `  task side: the first routine a subject points to is a real label for ${pct(taskSide.right)} of ${taskSide.queries} (no routine named: ${pct(taskSide.noneNamed)})`,
  );
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
  console.log(`  commonest learn-side misses: ${list(d.learnMisses)}`);
}

interface Sums {
  lenient: number;
  strict: number;
  lesson: number;
  lessonQueries: number;
  answered: number;
  queries: number;
}

const emptySums = (): Sums => ({ lenient: 0, strict: 0, lesson: 0, lessonQueries: 0, answered: 0, queries: 0 });

function toScore(s: Sums, withLessons: boolean): Score {
  return {
    lenient: s.lenient / s.queries,
    strict: s.strict / s.queries,
    ...(withLessons && s.lessonQueries > 0 ? { lesson: s.lesson / s.lessonQueries } : {}),
    lessonQueries: s.lessonQueries,
    answered: s.answered / s.queries,
  };
}

/** A query can score at lesson level when another repository's fix shares one of its keys. */
function canScoreLesson(query: Fix, pool: readonly Fix[], answers: Map<string, Answer>): boolean {
  const answer = answers.get(key(query.repo, query.ref));
  if (!answer || answer.keys.length === 0) return false;
  return pool.some((f) => f.repo !== query.repo && lesson(answer, answers.get(key(f.repo, f.ref))!));
}

/** the hits with complete provenance (recall reads a sample of each memory's sources; hits are scored by all of them) */
async function recallFor(store: Store, fix: Fix): Promise<RecallHit[]> {
  const hits = await recall({ store, logger: silentLogger, clock: systemClock }, { tenant: TENANT }, fix.title, {
    k: K,
    excludeRepo: fix.repo,
  });
  return withCompleteProvenance(store, TENANT, hits);
}

async function scoreQueries(
  store: Store,
  queries: readonly Fix[],
  pool: readonly Fix[],
  answers: Map<string, Answer>,
  sums: Sums,
  verbose: boolean,
): Promise<Map<Fix, RecallHit[]>> {
  const hitsOf = new Map<Fix, RecallHit[]>();
  for (const fix of queries) {
    const hits = await recallFor(store, fix);
    hitsOf.set(fix, hits);
    sums.queries += 1;
    if (hits.length > 0) sums.answered += 1;
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
      console.log(`${a?.primary}/${a?.secondary ?? '-'}  ${fix.title.slice(0, 80)}`);
      hits.forEach((h, i) =>
        console.log(
          `    ${len[i]!.toFixed(2)} ${h.score.toFixed(3)} [${routinesOfTags(h.memory.tags).join(',')}] ${h.memory.title.slice(0, 80)}`,
        ),
      );
    }
  }
  return hitsOf;
}

async function learnPool(fixes: readonly Fix[]): Promise<{ store: Store; dir: string; seconds: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'memory-transfer-eval-'));
  const store = await openStore(join(dir, 'pool.db'));
  const started = Date.now();
  await learnFixes(
    {
      store,
      abstractor: createRulesAbstractor(),
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

function countLeaks(insights: Memory[], fixesByKey: Map<string, Fix>): { count: number; examples: string[] } {
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
function sourceDistribution(insights: Memory[]): Record<string, number> {
  const buckets: Record<string, number> = { '1': 0, '2': 0, '3-5': 0, '6-10': 0, '>10': 0 };
  for (const m of insights) {
    const n = m.provenance.length;
    const b = n <= 1 ? '1' : n === 2 ? '2' : n <= 5 ? '3-5' : n <= 10 ? '6-10' : '>10';
    buckets[b] = (buckets[b] ?? 0) + 1;
  }
  return buckets;
}

/** A small seeded generator, so the sample is the same from run to run. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function sample<T>(items: readonly T[], n: number, seed = 11): T[] {
  const random = seeded(seed);
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, n);
}

function baselines(path: string): { bm25?: [number, number]; random?: [number, number]; ceiling?: [number, number] } {
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

/**
 * Off-topic tasks: `{ subject }` JSON Lines (or plain lines), from --offtopic, the offtopic.jsonl
 * beside the fixes file, eval-dev, or the project's own list.
 */
function readOfftopic(explicit: string | undefined, fixesPath: string): { path: string; tasks: string[] } | undefined {
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
  const path = candidates.find((p): p is string => p !== undefined && existsSync(p));
  if (!path) return undefined;
  const tasks = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => (l.trim().startsWith('{') ? (JSON.parse(l) as { subject: string }).subject : l.trim()));
  return { path, tasks };
}

async function offtopicAnswered(store: Store, tasks: readonly string[], verbose: boolean): Promise<number> {
  let answered = 0;
  for (const task of tasks) {
    const hits = await recall({ store, logger: silentLogger, clock: systemClock }, { tenant: TENANT }, task, { k: K });
    if (hits.length > 0) {
      answered += 1;
      if (verbose) console.log(`  off-topic answered: ${task.slice(0, 70)} → ${hits[0]!.memory.title.slice(0, 60)}`);
    }
  }
  return tasks.length === 0 ? 0 : answered / tasks.length;
}

function flag(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const verbose = args.includes('--verbose');
  const diagnose = args.includes('--diagnose');
  const valued = new Set(['--offtopic', '--samples']);
  const pathArg = args.find((a, i) => !a.startsWith('--') && !valued.has(args[i - 1] ?? ''));
  let path: string;
  if (pathArg) path = resolve(pathArg);
  else {
    const chosen = defaultEvalSet(REPO_ROOT);
    console.error(chosen.note);
    path = chosen.fixes;
  }
  if (!existsSync(path)) {
    console.error(`eval: no fixes file at ${path} (pass its path: npm run eval -- path/to/fixes.jsonl)`);
    process.exit(2);
  }
  const samples = Number(flag(args, '--samples') ?? 10);

  const fixes = await readFixesFile(path, { tenant: TENANT, visibility: 'public' });
  const answers = readAnswers(path);
  const withLessons = [...answers.values()].some((a) => a.keys.length > 0);
  const offtopic = readOfftopic(flag(args, '--offtopic'), path);

  // 1. plain: one pool of every fix
  const pool = await learnPool(fixes);
  let plain: Score;
  let offtopicShare: number | undefined;
  let insights: Memory[];
  try {
    const sums = emptySums();
    await scoreQueries(pool.store, fixes, fixes, answers, sums, verbose);
    plain = toScore(sums, withLessons);
    insights = await pool.store.listMemories(TENANT, { level: ['insight'] });
    if (offtopic) offtopicShare = await offtopicAnswered(pool.store, offtopic.tasks, verbose);
  } finally {
    await dispose(pool);
  }

  // 2. leave one repository out
  const repos = [...new Set(fixes.map((f) => f.repo))];
  const loroSums = emptySums();
  const diagnosis = emptyDiagnosis();
  const perRepo: Record<string, Score> = {};
  for (const repo of repos) {
    const rest = fixes.filter((f) => f.repo !== repo);
    const held = fixes.filter((f) => f.repo === repo);
    const one = await learnPool(rest);
    try {
      const sums = emptySums();
      const hitsOf = await scoreQueries(one.store, held, fixes, answers, sums, false);
      if (diagnose) {
        diagnoseTasks(hitsOf, answers, diagnosis);
        await diagnoseLearning(one.store, rest, answers, diagnosis);
      }
      perRepo[repo] = toScore(sums, withLessons);
      for (const k of Object.keys(sums) as (keyof Sums)[]) loroSums[k] += sums[k];
    } finally {
      await dispose(one);
    }
  }
  const loro = toScore(loroSums, withLessons);

  const leaks = countLeaks(insights, new Map(fixes.map((f) => [key(f.repo, f.ref), f])));
  const base = baselines(path);
  const picked = sample(insights, samples).map((m) => ({
    title: m.title,
    description: m.description,
    content: m.content,
    sources: m.provenance.map((p) => `${p.repo}@${p.ref.slice(0, 8)}`),
  }));
  const result = {
    fixes: fixes.length,
    repositories: repos.length,
    learnSeconds: pool.seconds,
    insights: insights.length,
    insightsPer100Fixes: (100 * insights.length) / fixes.length,
    sourcesPerInsight: sourceDistribution(insights),
    precisionAt3: { plain, leaveOneRepositoryOut: loro, perRepository: perRepo },
    offtopic: offtopic ? { file: offtopic.path, tasks: offtopic.tasks.length, answered: offtopicShare } : null,
    baselines: base,
    insightsNamingTheirSource: leaks.count,
    sample: picked,
    ...(diagnose ? { diagnosis: summarize(diagnosis) } : {}),
  };
  if (json) {
    console.log(JSON.stringify(result, null, 2));
    return;
  }
  const f3 = (n?: number) => (n === undefined ? '  -  ' : n.toFixed(3));
  const row = (name: string, s: { lenient?: number; strict?: number; lesson?: number; answered?: number }) =>
    `  ${name.padEnd(40)} ${f3(s.lenient)}   ${f3(s.strict)}   ${f3(s.lesson)}   ${s.answered === undefined ? '  -  ' : `${(100 * s.answered).toFixed(0).padStart(4)}%`}`;
  console.log(
    `${fixes.length} fixes from ${repos.length} repositories → ${insights.length} insights (${result.insightsPer100Fixes.toFixed(0)} per 100 fixes) in ${pool.seconds.toFixed(1)} s`,
  );
  console.log(`sources per insight: ${JSON.stringify(result.sourcesPerInsight)}`);
  console.log(
    `precision@${K}, share of sources (other repositories only); lesson: mean over the ${plain.lessonQueries} queries that can score`,
  );
  console.log('                                           lenient  strict   lesson  answered');
  console.log(row('memory-transfer, plain (one pool)', plain));
  console.log(row('memory-transfer, leave-one-repository-out', loro));
  for (const repo of repos) console.log(row(`  LORO ${repo}`, perRepo[repo]!));
  if (base.bm25)
    console.log(row('BM25 (subject -> subject+paths) baseline', { lenient: base.bm25[0], strict: base.bm25[1] }));
  if (base.random) console.log(row('random expectation', { lenient: base.random[0], strict: base.random[1] }));
  if (base.ceiling)
    console.log(row('ceiling (perfect ranking)', { lenient: base.ceiling[0], strict: base.ceiling[1] }));
  console.log(
    offtopic
      ? `off-topic tasks answered: ${(100 * (offtopicShare ?? 0)).toFixed(0)}% of ${offtopic.tasks.length} (${offtopic.path}); real fix tasks answered: ${(100 * plain.answered).toFixed(0)}%`
      : 'off-topic: no set found (pass --offtopic FILE)',
  );
  console.log(`insights naming a path, symbol or string of their source fix: ${leaks.count}`);
  for (const example of leaks.examples) console.log(`  ${example}`);
  if (result.diagnosis) printDiagnosis(result.diagnosis);
  console.log(`\n${picked.length} insights picked at random:`);
  for (const p of picked) {
    console.log(`- ${p.title}\n  ${p.description}\n  ${p.content}\n  sources: ${p.sources.join(', ')}`);
  }
}

await main();
