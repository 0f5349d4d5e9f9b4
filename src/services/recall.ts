/**
 * recall: task text → the most relevant memories the requester may see, ranked.
 * Hybrid: lexical search (the store's full-text engine, or the in-memory BM25 index) always, with
 * the task's own words and with the vocabulary of the validation routines the task points to;
 * dense vectors when an embedder is configured; then the routine match, a bounded quality prior
 * (votes, support, recency, outcomes), diversity, top-k with a minimum relevance.
 */
import type { Retriever, ScoredId, SearchOptions } from '../core/retrieval/memory-index.js';
import { searchableText } from '../core/retrieval/memory-index.js';
import {
  adviceTerms,
  combine,
  DEFAULT_MIN_SCORE,
  diversify,
  nearDuplicateTerms,
  normalizeList,
  qualityPrior,
  routineMatch,
  sortRanked,
  WEIGHTS_HYBRID,
  WEIGHTS_LEXICAL_ONLY,
  type FusionMethod,
  type RankedCandidate,
  type RankingWeights,
} from '../core/retrieval/ranking.js';
import { cueOutranksLesson, rankLessons, STRONG_CUE } from '../core/knowledge/lessons.js';
import {
  detectRoutinesInText,
  ROUTINE_VOCABULARY,
  type RoutineCue,
  type RoutineKind,
} from '../core/knowledge/routines.js';
import { readTaskKindOf, type TaskKind, type TaskKindReading } from '../core/retrieval/task-kind.js';
import { specificText } from '../core/retrieval/task-focus.js';
import { termSet, terms, withoutFencedCode, withoutRunnerLines, withoutTemplateSetup } from '../core/text.js';
import type { Memory, MemoryLevel, Provenance, RecallHit, Requester } from '../core/types.js';
import { sameTitle } from '../core/insight-text.js';
import { isLearnedLesson, namesPhrase, phraseOfLesson } from '../core/knowledge/learned-lessons.js';
import { DEFAULT_RECALL_STATUSES, maySee, mayServeLevel } from '../core/visibility.js';
import type { Clock, Embedder, Logger, Redactor, TaskReader, TaskReadingByModel } from '../ports/index.js';

export interface RecallDeps {
  /** a Store, or a MemoryIndex over a pool file: anything that can search and load memories */
  store: Retriever;
  embedder?: Embedder;
  /** redacts the task before it is sent to the embedder (an LLM provider); a failure skips the vectors */
  redactor?: Redactor;
  /** reads the task by a model (its kind and routines) in place of the rules, redacting it itself; absent: the rules read it */
  taskReader?: TaskReader;
  logger: Logger;
  clock: Clock;
}

export interface RecallOptions {
  /** default 3 */
  k?: number;
  /** default 'insight' */
  level?: MemoryLevel;
  /** results below this fused score are dropped (default: the engine's relevance bar) */
  minScore?: number;
  /** drop memories whose every source is in this repository (for "transferred only" comments) */
  excludeRepo?: string;
  /** keep only memories whose every source is in this repository (concrete levels, served only at home) */
  onlyRepo?: string;
  /** how candidate lists are fused (default 'weighted'; 'rrf' kept for comparison in the eval) */
  fusion?: FusionMethod;
  /**
   * answer a task that describes no failure (documentation, a release, a feature request) too;
   * default false: validation routines are noise there, so recall stays silent
   */
  anyTask?: boolean;
  /**
   * the kinds of task answered (default: failures only, as the App comments); an agent about to
   * build a feature may be given routines too (AGENT_TASK_KINDS)
   */
  taskKinds?: readonly TaskKind[];
  /**
   * a memory recall may rank at all (the Action's screen of a pool file): one refused is never
   * ranked, so it never folds into, or stands for, another
   */
  admit?: (memory: Memory) => boolean;
}

/** The routine a failure task that names none most likely needs, as a weak cue. */
export const FALLBACK_ROUTINE: Readonly<RoutineCue> = { kind: 'edge-input', weight: 0.3 };

/** The share of the routine match a kind's checklist (the rules' insight with no lesson of its own) gets. */
const TEMPLATE_ROUTINE_SHARE = 0.5;

/** The weight of the second routine a model reads in a task (its first weighs 1). */
const SECOND_MODEL_ROUTINE = 0.6;

/** The prior's bonus for an insight learned in two or more repositories. */
const MULTI_REPO_PRIOR = 0.25;

/** How many candidates each list fetches before policy filtering and ranking. */
const CANDIDATES = 60;
/** At most this many detected routines expand the query. */
const EXPANDED_ROUTINES = 3;

export async function recall(
  deps: RecallDeps,
  requester: Requester,
  task: string,
  options: RecallOptions = {},
): Promise<RecallHit[]> {
  const k = options.k ?? 3;
  if (k <= 0 || task.trim() === '') return [];
  const reading = readTask(task);
  const byModel = await deps.taskReader?.read(task);
  const kind = byModel?.taskKind ?? reading.kind.kind;
  if (!options.anyTask && !(options.taskKinds ?? ['failure']).includes(kind)) return [];
  const level = options.level ?? 'insight';
  const minScore = options.minScore ?? DEFAULT_MIN_SCORE;
  const fusion = options.fusion ?? 'weighted';
  const search = {
    level: [level],
    status: requester.statuses ?? DEFAULT_RECALL_STATUSES,
    limit: Math.max(CANDIDATES, k * 10),
  };
  const tenant = requester.tenant;

  // 1. candidates: the task's words, the routine vocabulary, and vectors; the routines its words
  //    point to are read without the generic words of failure ("crash" says nothing of which)
  const { specific, lessons } = (reading.words ??= readWords(task));
  const routines = byModel ? routinesByModel(byModel, reading) : routinesOfReading(reading);
  // the lessons the rules read count where the model's routines agree with their kind
  const named = byModel ? lessons.filter((l) => routines.some((r) => r.kind === l.lesson.kind)) : lessons;
  const lessonWeights = new Map(named.map((l) => [l.lesson.id, l.score / named[0]!.score]));
  const expansion = routines
    .slice(0, EXPANDED_ROUTINES)
    .map((r) => ROUTINE_VOCABULARY[r.kind])
    .join(' ');
  // the three searches run together: the store's full-text engine works while the vectors are scored
  const [lexical, expanded, vector] = await Promise.all([
    deps.store.searchLexical(tenant, task, search),
    expansion ? deps.store.searchLexical(tenant, expansion, search) : Promise.resolve([]),
    vectorCandidates(deps, tenant, task, search),
  ]);

  // 2. load; the policy filter applies to every candidate as it is scored
  const ids = [...new Set([...lexical, ...expanded, ...vector].map((h) => h.id))];
  if (ids.length === 0) return [];
  // shared (cached) objects when the retriever offers them: read here, copied before they leave
  const shared = deps.store.readMemories !== undefined;
  const loaded = shared
    ? await (deps.store.readMemories as NonNullable<Retriever['readMemories']>).call(deps.store, tenant, ids)
    : await deps.store.getMemories(tenant, ids, { provenance: 'sample' });
  const visible = (m: Memory) =>
    m.level === level &&
    maySee(m, requester) &&
    mayServeLevel(m, requester) &&
    (options.admit === undefined || options.admit(m)) &&
    !onlyFrom(m, options.excludeRepo) &&
    (options.onlyRepo === undefined || onlyFrom(m, options.onlyRepo));

  // 3. score parts, normalized over what the requester may see (a hidden memory sets no scale)
  const shown = loaded.filter(visible);
  const seen = new Set(shown.map((m) => m.id));
  const lexNorm = normalizeList(
    lexical.filter((h) => seen.has(h.id)),
    fusion,
    'lexical',
  );
  const expNorm = normalizeList(
    expanded.filter((h) => seen.has(h.id)),
    fusion,
    'lexical',
  );
  const vecNorm = normalizeList(vector, fusion, 'vector');
  const has = termLookup(deps.store, tenant);
  const queryTerms = [...new Set(terms(task).filter((t) => !/^\d+$/.test(t)))];
  const specificTerms = [...new Set(terms(specific).filter((t) => !/^\d+$/.test(t)))];
  const weights: RankingWeights = vector.length > 0 ? WEIGHTS_HYBRID : WEIGHTS_LEXICAL_ONLY;
  const now = deps.clock.now();
  const byId = new Map<string, Memory>();
  const ranked: RankedCandidate[] = [];
  for (const m of shown) {
    byId.set(m.id, m);
    ranked.push(
      combine(
        {
          id: m.id,
          lexical: lexicalPart(lexNorm.get(m.id) ?? 0, coverage(queryTerms, m, has)),
          vector: vecNorm.get(m.id) ?? 0,
          routine: routinePart(routines, m, expNorm.get(m.id) ?? 0, lessonWeights, task),
          // a lesson several repositories taught outranks a singleton of equal match
          prior: Math.min(1, qualityPrior(m, now) + (repositories(m) >= 2 ? MULTI_REPO_PRIOR : 0)),
        },
        weights,
      ),
    );
  }

  // 4. relevance bar, order, diversity, top-k
  const textOf = (id: string) => {
    const m = byId.get(id);
    if (!m) return new Set<string>();
    const known = featuresOf(m);
    known.advice ??= adviceTerms(m);
    return known.advice;
  };
  // a task that names no routine and shares no specific word with any insight has nothing to
  // transfer, whatever its generic words of failure match ("crash", "error")
  // a failure read as no routine at all leans to edge inputs only where an insight shares its words
  const guessOnly = routines.length === 1 && routines[0] === FALLBACK_ROUTINE;
  const relevant = ranked.filter((r) => r.fused >= minScore && !(guessOnly && r.lexical === 0));
  // evidence of a routine: a routine the model read, a lesson, or a cue among the task's specific
  // words ("crash" alone is none)
  // a feature request needs the sharper evidence: what it builds names a lesson or a routine
  const evidence =
    (byModel !== undefined && byModel.routines.length > 0) ||
    lessons.length > 0 ||
    relevant.some((r) => isLearnedLesson(byId.get(r.id)!.lesson) && r.routine > 0) ||
    detectRoutinesInText(specific).length > 0 ||
    (reading.kind.kind === 'failure' &&
      relevant.some((r) => coverage(specificTerms, byId.get(r.id) as Memory, has) > 0));
  if (!evidence && !options.anyTask) return [];
  // one lesson, one result: insights of the same lesson or title fold into the best one's sources
  const folded = new Map<string, Memory[]>();
  const kept = diversify(
    sortRanked(relevant),
    k,
    (a, b) => sameTeaching(byId.get(a.id)!, byId.get(b.id)!) || nearDuplicateTerms(textOf(a.id), textOf(b.id)),
    (into, item) => folded.set(into.id, [...(folded.get(into.id) ?? []), byId.get(item.id)!]),
  );
  return kept.map((r) => {
    const cached = byId.get(r.id) as Memory;
    const memory = withFolded(shared ? structuredClone(cached) : cached, folded.get(r.id));
    return {
      memory,
      score: round(r.score),
      parts: {
        lexical: round(r.lexical),
        vector: round(r.vector),
        routine: round(r.routine),
        prior: round(r.prior),
        fused: round(r.fused),
      },
      transferred: transferred(memory, requester),
    };
  });
}

/** Two insights that teach one lesson: the same catalog lesson, or the same title. */
function sameTeaching(a: Memory, b: Memory): boolean {
  if (sameTitle(a.title, b.title)) return true;
  return a.lesson !== null && a.lesson === b.lesson;
}

/** The memory with the sources of the insights folded into it (each source once). */
function withFolded(memory: Memory, folded: readonly Memory[] | undefined): Memory {
  if (!folded || folded.length === 0) return memory;
  return {
    ...memory,
    provenance: unionProvenance(
      memory.provenance,
      folded.flatMap((m) => m.provenance),
    ),
  };
}

function unionProvenance(a: readonly Provenance[], b: readonly Provenance[]): Provenance[] {
  const union = new Map<string, Provenance>();
  for (const p of [...a, ...b]) {
    const key = `${p.repo.toLowerCase()}@${p.ref}`;
    if (!union.has(key)) union.set(key, p);
  }
  return [...union.values()];
}

/** Distinct repositories among a memory's (sampled) sources. */
function repositories(memory: Memory): number {
  return new Set(memory.provenance.map((p) => p.repo.toLowerCase())).size;
}

/** What recall reads in a task's text before any search (the same for every recall of that text). */
interface TaskReading {
  task: string;
  /** what kind of task it is: a failure, a feature request, a question… */
  kind: TaskKindReading;
  /** read when the task is answered */
  words?: {
    /** the task without its generic words of failure */
    specific: string;
    lessons: ReturnType<typeof rankLessons>;
    /** the routines its words point to */
    named: RoutineCue[];
  };
}

/**
 * The tasks read last: a caller often recalls a task again soon (the withheld check recalls it as a
 * more private reader, after the recall API has served other requests meanwhile), and reading it
 * runs a few hundred patterns. Readings are shared: read-only.
 */
const readings = new Map<string, TaskReading>();
/** readings kept (more than the recall API serves at once), least recently used dropped first */
const KEPT_READINGS = 128;
/** and their tasks' characters in all (a pasted log is long) */
const KEPT_READING_CHARS = 1_000_000;
let readingChars = 0;

function readTask(task: string): TaskReading {
  let reading = readings.get(task);
  if (reading) readings.delete(task);
  else {
    reading = { task, kind: readTaskKindOf(task) };
    readingChars += task.length;
  }
  readings.set(task, reading);
  while (readings.size > KEPT_READINGS || (readingChars > KEPT_READING_CHARS && readings.size > 1)) {
    const oldest = readings.keys().next().value as string;
    readings.delete(oldest);
    readingChars -= oldest.length;
  }
  return reading;
}

/** What kind of task a text is (read once per text, shared with the recall of it). */
export function taskKindOf(task: string): TaskKind {
  return readTask(task).kind.kind;
}

/** What kind of task a text is as recall reads it: by the model when deps have a reader and it answers, else by the rules. */
export async function taskKindFor(deps: RecallDeps, task: string): Promise<TaskKind> {
  return (await deps.taskReader?.read(task))?.taskKind ?? taskKindOf(task);
}

/**
 * The routines a task points to, strongest first: the kinds of the lessons it names, else the
 * kinds its words point to; a failure that names none leans weakly to edge inputs.
 */
export function taskRoutines(task: string): RoutineCue[] {
  return routinesOfReading(readTask(task));
}

function routinesOfReading(reading: TaskReading): RoutineCue[] {
  const { lessons, named } = (reading.words ??= readWords(reading.task));
  const kinds = withLessonKinds(named, lessons);
  // a failure that names no routine is most often an edge input (the commonest class of bug): a weak prior
  return kinds.length > 0 || reading.kind.kind !== 'failure' ? kinds : [FALLBACK_ROUTINE];
}

/**
 * The routines a model read in the task, its main one first, with the facet the rules read of the
 * same kind; the rules' routines when the model named none.
 */
function routinesByModel(model: TaskReadingByModel, reading: TaskReading): RoutineCue[] {
  if (model.routines.length === 0) return routinesOfReading(reading);
  const named = reading.words?.named ?? [];
  return model.routines.map((kind, at) => {
    const facet = named.find((cue) => cue.kind === kind)?.facet;
    return { kind, weight: at === 0 ? 1 : SECOND_MODEL_ROUTINE, ...(facet ? { facet } : {}) };
  });
}

function readWords(text: string): NonNullable<TaskReading['words']> {
  // a CI runner's lines say a step failed, not what failed ("Process completed with exit code 1")
  // nor an issue template's questions about the reporter's setup ("OS: Windows 11")
  const task = withoutTemplateSetup(withoutRunnerLines(text));
  // the lessons read the code too (an error line in a block names one); the kinds' cues read the prose
  const prose = withoutFencedCode(task);
  return { specific: specificText(task), lessons: rankLessons(task), named: detectRoutinesInText(prose) };
}

/** The task's words: half the list's normalized rank score, half the share of task terms the memory contains. */
function lexicalPart(listScore: number, covered: number): number {
  return 0.5 * listScore + 0.5 * covered;
}

/**
 * The routine tags matching the task's routines, the lesson the task names (when the insight
 * teaches it), and a small share for the routine vocabulary search.
 */
function routinePart(
  routines: readonly RoutineCue[],
  memory: Memory,
  expandedScore: number,
  lessons: ReadonlyMap<string, number>,
  task: string,
): number {
  const lesson = memory.lesson ?? undefined;
  // a lesson learned from the organization is named by its phrase
  const learned = isLearnedLesson(lesson) && namesPhrase(task, phraseOfLesson(lesson!)) ? 1 : 0;
  if (routines.length === 0) return 0.25 * learned;
  const lessonMatch = lesson === undefined ? 0 : (lessons.get(lesson) ?? learned);
  // a kind's checklist (the rules' insight with no lesson of its own) matches the kind, not the
  // task: half the share; a model's insight states its own lesson, catalog or not
  const specific = lesson === undefined && memory.writer !== 'model' ? TEMPLATE_ROUTINE_SHARE : 1;
  return specific * (0.6 * routineMatch(routines, memory) + 0.15 * expandedScore) + 0.25 * lessonMatch;
}

/** The routine kinds of the lessons a task names, added to the kinds its words point to. */
function withLessonKinds(
  routines: readonly RoutineCue[],
  lessons: readonly { lesson: { kind: RoutineKind }; score: number }[],
): RoutineCue[] {
  // a lesson is the sharper reading: the kinds its words point to only count when it names none,
  // except a strong cue, which also outranks a lesson named by one weak word (the learn side's rule)
  const weights = new Map<RoutineKind, RoutineCue>(
    routines.filter((r) => lessons.length === 0 || r.weight >= STRONG_CUE).map((r) => [r.kind, { ...r }]),
  );
  for (const found of lessons.slice(0, 3)) {
    if (cueOutranksLesson(routines[0], found)) continue;
    const { lesson, score } = found;
    const known = weights.get(lesson.kind);
    const weight = Math.min(2, score) * 0.5;
    if (known) known.weight = Math.round((known.weight + weight) * 100) / 100;
    else weights.set(lesson.kind, { kind: lesson.kind, weight });
  }
  return [...weights.values()].sort((a, b) => b.weight - a.weight);
}

/** The dense-vector candidates, or none without an embedder (or when embedding fails). */
async function vectorCandidates(
  deps: RecallDeps,
  tenant: string,
  task: string,
  search: SearchOptions,
): Promise<ScoredId[]> {
  if (!deps.embedder) return [];
  try {
    const query = deps.redactor ? await deps.redactor.redact(task) : task;
    const [embedded] = await deps.embedder.embed([query]);
    return embedded ? await deps.store.searchVector(tenant, embedded, deps.embedder.model, search) : [];
  } catch (error) {
    deps.logger.warn('recall: embedding failed, ranking lexically', { error: String(error) });
    return [];
  }
}

interface TextFeatures {
  /** the words lexical search sees (coverage of the task's terms) */
  words: Set<string>;
  /** the words that say what it advises (diversity; computed when first needed) */
  advice?: Set<string>;
}

/**
 * Text features per memory object. A memory's text never changes in place (a store write makes a
 * new object), so retrievers that hand out the same objects across queries (a store's memory cache,
 * a MemoryIndex) pay for the tokenizing once; fresh objects are simply computed again.
 */
const features = new WeakMap<Memory, TextFeatures>();

function featuresOf(memory: Memory): TextFeatures {
  let known = features.get(memory);
  if (!known) {
    known = { words: termSet(searchableText(memory)) };
    features.set(memory, known);
  }
  return known;
}

/** Whether a memory's searchable text holds a term. */
type TermLookup = (memory: Memory, term: string) => boolean;

/** From the retriever's index when it has one (no tokenizing), else from the memory's text. */
function termLookup(store: Retriever, tenant: string): TermLookup {
  if (!store.hasTerm) return (memory, term) => featuresOf(memory).words.has(term);
  const indexed = store.hasTerm.bind(store);
  return (memory, term) => indexed(tenant, memory.id, term) ?? featuresOf(memory).words.has(term);
}

function coverage(queryTerms: readonly string[], memory: Memory, has: TermLookup): number {
  if (queryTerms.length === 0) return 0;
  let covered = 0;
  for (const t of queryTerms) if (has(memory, t)) covered += 1;
  return covered / queryTerms.length;
}

function sameRepo(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** Every source of the memory is in this repository. */
function onlyFrom(memory: Memory, repo: string | undefined): boolean {
  return repo !== undefined && memory.provenance.length > 0 && memory.provenance.every((p) => sameRepo(p.repo, repo));
}

function transferred(memory: Memory, requester: Requester): boolean {
  if (requester.repo === undefined) return false;
  const repo = requester.repo;
  return !memory.provenance.some((p) => sameRepo(p.repo, repo));
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/**
 * The hits with their memories' complete provenance, for showing them (the CLI's recall, a
 * comment's source links, the eval): recall reads only each memory's sample of sources (bounded),
 * so this one extra read of the few hits shown is what a growing provenance costs.
 */
export async function withCompleteProvenance(
  store: Retriever,
  tenant: string,
  hits: RecallHit[],
): Promise<RecallHit[]> {
  const sampled = hits.filter((hit) => hit.memory.provenanceCount !== undefined);
  if (sampled.length === 0) return hits;
  const full = new Map(
    (
      await store.getMemories(
        tenant,
        sampled.map((hit) => hit.memory.id),
      )
    ).map((memory) => [memory.id, memory]),
  );
  return hits.map((hit) => {
    const memory = full.get(hit.memory.id);
    if (hit.memory.provenanceCount === undefined || !memory) return hit;
    // only the provenance is taken from the second read (with the sources folded into the hit):
    // the rest is what recall ranked and filtered
    const { provenanceCount: _count, ...rest } = hit.memory;
    return { ...hit, memory: { ...rest, provenance: unionProvenance(memory.provenance, hit.memory.provenance) } };
  });
}
