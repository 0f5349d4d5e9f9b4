/**
 * recall: task text → the most relevant memories the requester may see, ranked.
 * Hybrid: lexical search (the store's full-text engine, or the in-memory BM25 index) always, with
 * the task's own words and with the vocabulary of the validation routines the task points to;
 * dense vectors when an embedder is configured; then the routine match, a bounded quality prior
 * (votes, support, recency, outcomes), diversity, top-k with a minimum relevance.
 */
import type { Retriever } from '../core/memory-index.js';
import { searchableText } from '../core/memory-index.js';
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
  type RankingWeights,
} from '../core/ranking.js';
import { detectRoutinesInText, ROUTINE_VOCABULARY, type RoutineCue } from '../core/routines.js';
import { termSet, terms } from '../core/text.js';
import type { Memory, MemoryLevel, RecallHit, Requester } from '../core/types.js';
import { DEFAULT_RECALL_STATUSES, maySee } from '../core/visibility.js';
import type { Clock, Embedder, Logger, Redactor } from './ports.js';

export interface RecallDeps {
  /** a Store, or a MemoryIndex over a pool file: anything that can search and load memories */
  store: Retriever;
  embedder?: Embedder;
  /** redacts the task before it is sent to the embedder (an LLM provider); a failure skips the vectors */
  redactor?: Redactor;
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
  /** how candidate lists are fused (default 'weighted'; 'rrf' kept for comparison in the eval) */
  fusion?: FusionMethod;
}

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
  const level = options.level ?? 'insight';
  const minScore = options.minScore ?? DEFAULT_MIN_SCORE;
  const fusion = options.fusion ?? 'weighted';
  const search = {
    level: [level],
    status: requester.statuses ?? DEFAULT_RECALL_STATUSES,
    limit: Math.max(CANDIDATES, k * 10),
  };
  const tenant = requester.tenant;

  // 1. candidates: the task's words, the routine vocabulary, and vectors
  const routines = detectRoutinesInText(task);
  const expansion = routines
    .slice(0, EXPANDED_ROUTINES)
    .map((r) => ROUTINE_VOCABULARY[r.kind])
    .join(' ');
  const [lexical, expanded] = await Promise.all([
    deps.store.searchLexical(tenant, task, search),
    expansion ? deps.store.searchLexical(tenant, expansion, search) : Promise.resolve([]),
  ]);
  let vector: { id: string; score: number }[] = [];
  if (deps.embedder) {
    try {
      const query = deps.redactor ? await deps.redactor.redact(task) : task;
      const [embedded] = await deps.embedder.embed([query]);
      if (embedded) vector = await deps.store.searchVector(tenant, embedded, deps.embedder.model, search);
    } catch (error) {
      deps.logger.warn('recall: embedding failed, ranking lexically', { error: String(error) });
    }
  }

  // 2. load, then apply the policy filter to every candidate
  const ids = [...new Set([...lexical, ...expanded, ...vector].map((h) => h.id))];
  if (ids.length === 0) return [];
  const memories = (await deps.store.getMemories(tenant, ids)).filter(
    (m) => m.level === level && maySee(m, requester) && !onlyFrom(m, options.excludeRepo),
  );

  // 3. score parts
  const lexNorm = normalizeList(lexical, fusion, 'lexical');
  const expNorm = normalizeList(expanded, fusion, 'lexical');
  const vecNorm = normalizeList(vector, fusion, 'vector');
  const queryTerms = [...new Set(terms(task).filter((t) => !/^\d+$/.test(t)))];
  const weights: RankingWeights = vector.length > 0 ? WEIGHTS_HYBRID : WEIGHTS_LEXICAL_ONLY;
  const now = deps.clock.now();
  const byId = new Map(memories.map((m) => [m.id, m]));
  const ranked = memories.map((m) =>
    combine(
      {
        id: m.id,
        lexical: lexicalPart(lexNorm.get(m.id) ?? 0, coverage(queryTerms, m)),
        vector: vecNorm.get(m.id) ?? 0,
        routine: routinePart(routines, m, expNorm.get(m.id) ?? 0),
        prior: qualityPrior(m, now),
      },
      weights,
    ),
  );

  // 4. relevance bar, order, diversity, top-k
  const texts = new Map<string, Set<string>>();
  const textOf = (id: string) => {
    let set = texts.get(id);
    if (!set) {
      const m = byId.get(id);
      set = m ? adviceTerms(m) : new Set<string>();
      texts.set(id, set);
    }
    return set;
  };
  const kept = diversify(sortRanked(ranked.filter((r) => r.fused >= minScore)), k, (a, b) =>
    nearDuplicateTerms(textOf(a.id), textOf(b.id)),
  );
  return kept.map((r) => {
    const memory = byId.get(r.id) as Memory;
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

/** The task's words: half the list's normalized rank score, half the share of task terms the memory contains. */
function lexicalPart(listScore: number, covered: number): number {
  return 0.5 * listScore + 0.5 * covered;
}

/** The routine tags matching the task's routines, with a small share for the routine vocabulary search. */
function routinePart(routines: readonly RoutineCue[], memory: Memory, expandedScore: number): number {
  if (routines.length === 0) return 0;
  return 0.8 * routineMatch(routines, memory.tags) + 0.2 * expandedScore;
}

function coverage(queryTerms: readonly string[], memory: Memory): number {
  if (queryTerms.length === 0) return 0;
  const words = termSet(searchableText(memory));
  return queryTerms.filter((t) => words.has(t)).length / queryTerms.length;
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
