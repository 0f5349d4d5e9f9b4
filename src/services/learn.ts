/**
 * learn: fix → memories in the pool.
 * Pipeline: skip if already learned → strip hidden text → redact secrets (a failure aborts the fix:
 * nothing is abstracted or stored) → abstract → specificity check + screen → embed → merge with a
 * near-duplicate insight (support +1, provenance appended, visibility = most private) → store and
 * mark the fix learned. The decision (already learned? create or merge?) and the writes run in one
 * tenant transaction (Store.tenantTransaction), so concurrent learns in any process lose nothing.
 * Untrusted fixes produce `proposed` memories that are never recalled until approved.
 * A fix the rules abstracted because the model failed is recorded as learned by fallback and
 * abstracted again by a later run with a model (no --force needed). learnFixes runs the
 * abstractions ahead, as many at once as the abstractor allows, and writes in input order.
 */
import { memoryId } from '../core/ids.js';
import { searchableText } from '../core/retrieval/memory-index.js';
import { mergeExamples, sameTitle } from '../core/insight-text.js';
import { facetOf } from '../core/knowledge/identity.js';
import { adviceTerms, NEAR_DUPLICATE_COSINE, NEAR_DUPLICATE_JACCARD } from '../core/retrieval/ranking.js';
import { jaccard, termSet } from '../core/text.js';
import type { Fix, Memory, MemoryStatus, MemoryWriter, Provenance } from '../core/types.js';
import { MEMORY_STATUSES } from '../core/types.js';
import { mostPrivate } from '../core/visibility.js';
import { describeError } from '../core/errors.js';
import { checkSpecificity } from '../abstraction/specificity.js';
import { asLearnedLesson } from './learned-lessons.js';
import { mapStrings, redactFix, redactKnownPatterns, redactRef } from '../security/redact.js';
import { stripHiddenText } from '../security/sanitize.js';
import { screenInsightText } from '../security/screen.js';
import type { Store } from '../store/store.js';
import type { AbstractedMemory, Abstraction, Abstractor, Clock, Embedder, Logger, Redactor } from '../ports/index.js';
import { reembedInsights } from './reembed.js';

export interface LearnDeps {
  store: Store;
  abstractor: Abstractor;
  embedder?: Embedder;
  redactor: Redactor;
  logger: Logger;
  clock: Clock;
}

export interface LearnOptions {
  /** new insights of trusted fixes start as `proposed` too (review: dashboard|comment) */
  requireReview?: boolean;
  /** learn again even if this fix was learned before */
  force?: boolean;
}

export interface LearnResult {
  repo: string;
  ref: string;
  skipped?: 'already-learned';
  /** ids of memories created */
  created: string[];
  /** ids of existing insights strengthened by this fix */
  merged: string[];
  /** would-be insights refused by the specificity check or the screen */
  rejected: { title: string; reason: string }[];
  /** set when the fix was not learned at all (redaction failed): nothing was stored */
  failed?: string;
  /** set when the model failed and the rules wrote the memories: why (a later run with a model retries) */
  fallback?: string;
  /** set when this fix had been learned by fallback before and was abstracted again */
  retried?: true;
  /** insights written without a vector although an embedder is configured (it failed, or its circuit was open) */
  withoutVectors?: number;
}

export interface LearnSummary {
  fixes: number;
  skipped: number;
  created: number;
  merged: number;
  rejected: number;
  /** fixes that could not be learned (e.g. redaction failed); they stay unlearned */
  failed: number;
  /** fixes the rules abstracted because the model failed (a later run with a model retries them) */
  fallbacks: number;
  /** those fixes by reason ("timeout": 3, "circuit open": 9) */
  fallbackReasons: Record<string, number>;
  /** fixes learned by fallback before, abstracted again in this run */
  retried: number;
  /**
   * insights stored without a vector because the embedder failed or its endpoint's circuit was
   * open; `reembed`, or the end of the next run whose embeddings all succeed, fills them in
   */
  withoutVectors: number;
  /** vectors filled in at the end of this run for insights stored without one before */
  vectorsFilled: number;
}

/** Steps 1–2 of learning a fix (sanitize, redact, abstract): they may run ahead of the writes. */
type Abstracted = { redacted: Fix; abstraction: Abstraction } | { failed: string };

/** The fix's insight as a lesson learned from the organization, when it is one (and still passes the checks). */
async function learnedLessonOf(
  deps: LearnDeps,
  fix: Fix,
  accepted: AbstractedMemory[],
): Promise<{ replaces: AbstractedMemory; memory: AbstractedMemory; sources: Provenance[] } | undefined> {
  const insight = accepted.find((m) => m.level === 'insight');
  if (!insight) return undefined;
  const learned = await asLearnedLesson(deps.store, fix, insight);
  if (!learned) return undefined;
  const checked = vet(learned.memory, fix);
  if ('reason' in checked) return undefined;
  return { replaces: insight, memory: mapStrings(checked.memory, redactKnownPatterns), sources: learned.sources };
}

/**
 * The insight a source fix created on its own (its kind's checklist, backed by it alone), removed
 * once a lesson learned from the organization names that fix: one fix, one lesson.
 */
async function retireSupersededChecklist(store: Store, source: Provenance): Promise<void> {
  const id = memoryId(source.tenant, source.repo, source.ref, 'insight');
  const own = await store.getMemory(source.tenant, id);
  if (!own || own.support !== 1 || own.lesson !== null || own.votes.up > 0) return;
  if (own.provenance.some((p) => p.repo !== source.repo || p.ref !== source.ref)) return;
  await store.deleteMemory(source.tenant, id);
}

/** An insight with no lesson and no routine beyond "pin it with a regression test". */
function onlyPinsATest(memory: AbstractedMemory): boolean {
  return memory.lesson === null && (memory.routines[0] ?? 'regression-test') === 'regression-test';
}

/** Evidence lines kept on one insight at most (merges append new ones). */
const MAX_EVIDENCE = 12;
/** Near-duplicate candidates examined per new insight. */
const MERGE_CANDIDATES = 10;

export async function learnFix(
  deps: LearnDeps,
  given: Fix,
  options: LearnOptions = {},
  /** (learnFixes) the abstraction of this fix, already under way */
  ahead?: Promise<Abstracted | undefined>,
): Promise<LearnResult> {
  // the ref is part of the natural key stored as learned: cleared of secrets before its first use
  const fix: Fix = { ...given, ref: redactRef(given.ref) };
  const result: LearnResult = { repo: fix.repo, ref: fix.ref, created: [], merged: [], rejected: [] };
  const { store, logger } = deps;
  const toLearn = await needsLearning(deps, fix, options);
  if (toLearn === 'no') return { ...result, skipped: 'already-learned' };
  if (toLearn === 'retry-fallback') result.retried = true;

  // 1–2. sanitize, redact, abstract (a redaction failure stops here)
  const prepared = (await ahead) ?? (await abstractFix(deps, fix));
  if ('failed' in prepared) return { ...result, failed: prepared.failed };
  const { redacted, abstraction } = prepared;
  if (abstraction.fallback) result.fallback = abstraction.fallback.reason;

  // 2. check what may be stored
  const accepted: AbstractedMemory[] = [];
  for (const memory of abstraction.memories) {
    const checked = vet(memory, redacted);
    if ('reason' in checked) {
      result.rejected.push({ title: memory.title, reason: checked.reason });
      logger.info('learn: memory rejected', {
        repo: fix.repo,
        ref: fix.ref,
        level: memory.level,
        reason: checked.reason,
      });
    } else accepted.push(mapStrings(checked.memory, redactKnownPatterns));
  }

  // 3. embed the insights (a failure only costs the vectors)
  const insights = accepted.filter((m) => m.level === 'insight');
  let vectors: Float32Array[] = [];
  if (deps.embedder && insights.length > 0) {
    try {
      vectors = await deps.embedder.embed(insights.map((m) => searchableText(m)));
    } catch (error) {
      logger.warn('learn: embedding failed, stored without vectors', {
        repo: fix.repo,
        ref: fix.ref,
        error: describeError(error),
      });
    }
  }

  // 4. decide (create, merge or skip) and write in one transaction that serializes against every
  //    other writer of the tenant, so no concurrent learn reads the same support or decides to
  //    create the same insight (the slow steps above stay outside it)
  const now = deps.clock.now().toISOString();
  const status: MemoryStatus = !fix.trusted || options.requireReview ? 'proposed' : 'active';
  const provenance = provenanceOf(redacted);
  let learned: Awaited<ReturnType<typeof learnedLessonOf>>;
  const decided = await store.tenantTransaction(fix.tenant, async () => {
    if ((await needsLearning(deps, fix, options)) === 'no') return undefined;
    // 2b. a lesson the catalog does not name, whose phrase the fixes of another repository name too,
    //     becomes the lesson of that phrase, with their fixes among its sources
    learned = abstraction.writer === 'rules' ? await learnedLessonOf(deps, redacted, accepted) : undefined;
    if (learned) accepted.splice(accepted.indexOf(learned.replaces), 1, learned.memory);
    // "pin every fix with a test" teaches another repository nothing: a fix whose insight says only
    // that, and whose phrase no other repository names, keeps its concrete levels alone
    else if (abstraction.writer === 'rules') {
      const checklist = accepted.findIndex((m) => m.level === 'insight' && onlyPinsATest(m));
      if (checklist >= 0) accepted.splice(checklist, 1);
    }

    const created: string[] = [];
    const merged: string[] = [];
    // a merge appends one provenance entry (`source`) instead of rewriting the whole list
    const writes: { memory: Memory; vector?: Float32Array; source?: Provenance }[] = [];
    for (const memory of accepted) {
      const id = memoryId(fix.tenant, fix.repo, fix.ref, memory.level);
      const vector =
        memory.level === 'insight'
          ? vectors[insights.indexOf(memory === learned?.memory ? learned.replaces : memory)]
          : undefined;
      const existing = await store.getMemory(fix.tenant, id, { provenance: 'sample' });
      if (existing) {
        // relearning the same fix: refresh the text, keep the standing it earned
        // (a fix learned by fallback before: the model's text replaces the rules', examples and all)
        const writer = memory === learned?.memory ? 'learned' : abstraction.writer;
        const refreshed = refresh(existing, memory, { model: abstraction.model, writer }, now, !result.retried);
        writes.push({ memory: refreshed, ...(vector ? { vector } : {}) });
        continue;
      }
      if (memory.level === 'insight') {
        const writer = memory === learned?.memory ? 'learned' : abstraction.writer;
        const target = await findNearDuplicate(deps, fix, memory, vector, status, writer);
        if (target) {
          writes.push({ memory: strengthen(target, memory, provenance, now), source: provenance });
          merged.push(target.id);
          continue;
        }
      }
      writes.push({
        memory: {
          id,
          tenant: fix.tenant,
          level: memory.level,
          title: memory.title,
          description: memory.description,
          content: memory.content,
          body: memory.body,
          tags: memory.tags,
          lesson: memory.lesson,
          routines: memory.routines,
          facet: memory.facet,
          examples: memory.examples,
          evidence: memory.evidence.slice(0, MAX_EVIDENCE),
          provenance: [provenance, ...(memory === learned?.memory ? learned.sources : [])],
          visibility: mostPrivate([
            fix.visibility,
            ...(memory === learned?.memory ? learned.sources : []).map((p) => p.visibility),
          ]),
          status,
          votes: { up: 0, down: 0 },
          support: 1 + (memory === learned?.memory ? learned.sources.length : 0),
          uses: 0,
          outcomes: { success: 0, failure: 0 },
          model: abstraction.model,
          writer: memory === learned?.memory ? 'learned' : abstraction.writer,
          createdAt: now,
          updatedAt: now,
        },
        ...(vector ? { vector } : {}),
      });
      created.push(id);
    }
    // a source fix's own checklist insight, now taught by the learned lesson, gives way to it
    for (const source of learned?.sources ?? []) await retireSupersededChecklist(store, source);
    // 5. store, then remember the fix (same transaction)
    let withoutVectors = 0;
    for (const write of writes) {
      // the same fix already backs it (relearned): nothing changes
      if (write.source && !(await store.appendProvenance(fix.tenant, write.memory.id, write.source))) continue;
      await store.putMemory(write.memory);
      if (write.vector && deps.embedder)
        await store.putVector(fix.tenant, write.memory.id, write.vector, deps.embedder.model);
      else if (deps.embedder && !write.source && write.memory.level === 'insight') withoutVectors += 1;
    }
    await store.markFixLearned(fix.tenant, fix.repo, fix.ref, result.fallback ? { fallback: result.fallback } : {});
    return { created, merged, withoutVectors };
  });
  // learned by another writer meanwhile: nothing was written
  if (!decided) return { ...result, skipped: 'already-learned' };
  result.created.push(...decided.created);
  result.merged.push(...decided.merged);
  if (decided.withoutVectors > 0) result.withoutVectors = decided.withoutVectors;
  logger.debug('learn: fix learned', {
    repo: fix.repo,
    ref: fix.ref,
    created: result.created.length,
    merged: result.merged.length,
  });
  return result;
}

export async function learnFixes(
  deps: LearnDeps,
  fixes: AsyncIterable<Fix> | Iterable<Fix>,
  options: LearnOptions & { onProgress?: (done: number, total?: number) => void } = {},
): Promise<LearnSummary> {
  const summary: LearnSummary = {
    fixes: 0,
    skipped: 0,
    created: 0,
    merged: 0,
    rejected: 0,
    failed: 0,
    fallbacks: 0,
    fallbackReasons: {},
    retried: 0,
    withoutVectors: 0,
    vectorsFilled: 0,
  };
  const tenants = new Set<string>();
  const total = Array.isArray(fixes) ? fixes.length : undefined;
  // abstractions run ahead (at most `width` at once); writes happen one by one, in input order
  const width = Math.max(1, deps.abstractor.concurrency ?? 1);
  const pending: { fix: Fix; ahead: Promise<Abstracted | undefined> }[] = [];
  const writeNext = async (): Promise<void> => {
    const next = pending.shift();
    if (!next) return;
    const result = await learnFix(deps, next.fix, options, next.ahead);
    summary.fixes += 1;
    if (result.skipped) summary.skipped += 1;
    if (result.failed) summary.failed += 1;
    if (result.retried) summary.retried += 1;
    if (result.fallback) {
      summary.fallbacks += 1;
      summary.fallbackReasons[result.fallback] = (summary.fallbackReasons[result.fallback] ?? 0) + 1;
    }
    summary.created += result.created.length;
    summary.merged += result.merged.length;
    summary.rejected += result.rejected.length;
    summary.withoutVectors += result.withoutVectors ?? 0;
    tenants.add(next.fix.tenant);
    options.onProgress?.(summary.fixes, total);
  };
  for await (const fix of fixes) {
    const ahead = abstractAhead(deps, fix, options);
    // a run stopped by an error (an API key refused) leaves the others unawaited: no unhandled rejection
    ahead.catch(() => undefined);
    pending.push({ fix, ahead });
    if (pending.length >= width) await writeNext();
  }
  while (pending.length > 0) await writeNext();
  // the embeddings answered all run long: fill in the vectors earlier runs could not get
  if (deps.embedder && summary.withoutVectors === 0) {
    for (const tenant of tenants)
      summary.vectorsFilled += await fillMissingVectors({ ...deps, embedder: deps.embedder }, tenant);
  }
  return summary;
}

/** Vectors for the tenant's insights that lack one; a failure is logged and leaves them for later. */
async function fillMissingVectors(deps: LearnDeps & { embedder: Embedder }, tenant: string): Promise<number> {
  try {
    return (await reembedInsights(deps, tenant)).embedded;
  } catch (error) {
    deps.logger.warn('learn: the vectors missing from earlier runs could not be filled in', {
      tenant,
      error: describeError(error),
    });
    return 0;
  }
}

// ---------------------------------------------------------------- steps

/** Whether a fix is to be learned: new, forced, or learned by fallback before and a model is at hand now. */
async function needsLearning(
  deps: LearnDeps,
  fix: Fix,
  options: LearnOptions,
): Promise<'yes' | 'no' | 'retry-fallback'> {
  if (options.force) return 'yes';
  const learned = await deps.store.learnedFix(fix.tenant, fix.repo, fix.ref);
  if (!learned) return 'yes';
  return learned.fallback !== undefined && deps.abstractor.usesModel ? 'retry-fallback' : 'no';
}

/** The abstraction of a fix that needs learning, started before its turn to be written. */
async function abstractAhead(deps: LearnDeps, fix: Fix, options: LearnOptions): Promise<Abstracted | undefined> {
  if ((await needsLearning(deps, fix, options)) === 'no') return undefined;
  return abstractFix(deps, fix);
}

/** What a reader saw, then without secrets (a redaction failure stops here), then abstracted. */
async function abstractFix(deps: LearnDeps, fix: Fix): Promise<Abstracted> {
  const clean = sanitizeFix(fix);
  let redacted: Fix;
  try {
    redacted = await redactFix(clean, deps.redactor);
  } catch (error) {
    deps.logger.error('learn: redaction failed, fix skipped (nothing sent or stored)', {
      repo: fix.repo,
      ref: fix.ref,
      error: describeError(error),
    });
    return { failed: `redaction failed: ${describeError(error)}` };
  }
  return { redacted, abstraction: await deps.abstractor.abstract(redacted) };
}

function sanitizeFix(fix: Fix): Fix {
  const strip = (text: string) => stripHiddenText(text, { trustedAuthor: fix.trusted });
  return {
    ...fix,
    title: strip(fix.title),
    problem: strip(fix.problem),
    change: strip(fix.change),
    signals: fix.signals.map((s) => (s.excerpt === undefined ? s : { ...s, excerpt: strip(s.excerpt) })),
  };
}

/**
 * The specificity check (insight and workflow: the levels that travel; summary and trajectory
 * are the concrete record of the fix by design) and the screen (every level: each can be recalled).
 */
function vet(memory: AbstractedMemory, fix: Fix): { memory: AbstractedMemory } | { reason: string } {
  let checked = memory;
  if (memory.level === 'insight' || memory.level === 'workflow') {
    const specificity = checkSpecificity(memory, fix);
    if (!specificity.ok) return { reason: specificity.reason ?? 'names its source' };
    if (specificity.rewritten) checked = specificity.rewritten;
  }
  // every level can be recalled (--level), so every level is screened, not only insights (security)
  const screen = screenInsightText([checked.title, checked.description, checked.content].join('\n'));
  if (!screen.ok) return { reason: screen.reason ?? 'refused by the screen' };
  return { memory: checked };
}

function provenanceOf(fix: Fix): Provenance {
  return {
    tenant: fix.tenant,
    repo: fix.repo,
    ...(fix.repoId === undefined ? {} : { repoId: fix.repoId }),
    visibility: fix.visibility,
    sourceKind: fix.sourceKind,
    ref: fix.ref,
    ...(fix.url === undefined ? {} : { url: fix.url }),
    authors: fix.authors,
    date: fix.date,
  };
}

/** Two examples name the same condition when most of their words agree. */
const SAME_CONDITION_JACCARD = 0.5;

/**
 * How surely two insights teach the same lesson (0 when they do not): the same catalog lesson;
 * or, for lessons the catalog does not name, the same main routine and the same condition in
 * other words (their examples), or near-identical advice.
 */
function sameLesson(a: AbstractedMemory | Memory, b: AbstractedMemory | Memory, rulesWritten: boolean): number {
  // one title, one insight: whoever wrote them (the catalog, a kind's template, the model)
  if (sameTitle(a.title, b.title)) return 1;
  if (a.lesson !== null || b.lesson !== null) return a.lesson === b.lesson ? 1 : 0;
  const kind = a.routines[0];
  if (kind === undefined || kind !== b.routines[0]) return 0;
  if (facetOf(a, kind) !== facetOf(b, kind)) return 0;
  const examplesA = a.examples;
  const examplesB = b.examples;
  if (examplesA.length > 0 && examplesB.length > 0) {
    const condition = jaccard(termSet(examplesA.join(' ')), termSet(examplesB.join(' ')));
    return condition >= SAME_CONDITION_JACCARD ? condition : 0;
  }
  // a rule-written insight without its condition shares only its routine's advice: not a lesson
  if (examplesA.length > 0 || examplesB.length > 0 || rulesWritten) return 0;
  const advice = jaccard(adviceTerms(a), adviceTerms(b));
  return advice >= NEAR_DUPLICATE_JACCARD ? advice : 0;
}

/**
 * An existing insight of the same tenant with the same routines and near-identical text (or
 * vectors). An untrusted fix may only strengthen insights that are not active yet, so it cannot
 * inflate the standing of what is already served.
 */
async function findNearDuplicate(
  deps: LearnDeps,
  fix: Fix,
  insight: AbstractedMemory,
  vector: Float32Array | undefined,
  status: MemoryStatus,
  writer: MemoryWriter,
): Promise<Memory | undefined> {
  const search = { level: ['insight' as const], status: [...MEMORY_STATUSES], limit: MERGE_CANDIDATES };
  const cosineById = new Map<string, number>();
  if (vector && deps.embedder) {
    for (const hit of await deps.store.searchVector(fix.tenant, vector, deps.embedder.model, search))
      cosineById.set(hit.id, hit.score);
  }
  const lexical = await deps.store.searchLexical(fix.tenant, `${insight.title} ${insight.description}`, search);
  const ids = [...new Set([...cosineById.keys(), ...lexical.map((h) => h.id)])];
  if (ids.length === 0) return undefined;
  let best: { memory: Memory; similarity: number } | undefined;
  for (const candidate of await deps.store.getMemories(fix.tenant, ids, { provenance: 'sample' })) {
    if (candidate.level !== 'insight') continue;
    if (status !== 'active' && candidate.status === 'active') continue;
    // the rules' advice (a kind's template) is shared by every fix of the kind: it alone is no lesson
    const lesson = sameLesson(insight, candidate, writer !== 'model' || candidate.writer !== 'model');
    const cos = cosineById.get(candidate.id) ?? 0;
    // vectors alone never merge two catalog lessons, nor a catalog lesson with a fix's own one
    const bothOwn = insight.lesson === null && candidate.lesson === null;
    if (lesson === 0 && !(bothOwn && cos >= NEAR_DUPLICATE_COSINE)) continue;
    const similarity = Math.max(lesson, cos);
    if (!best || similarity > best.similarity) best = { memory: candidate, similarity };
  }
  return best?.memory;
}

/**
 * The existing insight (read with a sample of its provenance), backed by one more fix: support +1,
 * visibility the most private of its sources, and the new fix's example added. The fix's provenance
 * entry is appended by the store (appendProvenance), which also says when the fix already backs it.
 */
function strengthen(target: Memory, insight: AbstractedMemory, provenance: Provenance, now: string): Memory {
  const { content, examples } = mergeExamples(target, insight.examples);
  return {
    ...target,
    content,
    examples,
    body: withContent(target.body, content),
    // the identity (lesson, routines, facet, writer) stays the target's, and so do the tags that say
    // it; ecosystems and checks accumulate
    tags: [...new Set([...target.tags, ...insight.tags.filter((t) => !/^(routine|facet|lesson):/.test(t))])],
    evidence: [...new Set([...target.evidence, ...insight.evidence])].slice(0, MAX_EVIDENCE),
    visibility: mostPrivate([target.visibility, provenance.visibility]),
    support: target.support + 1,
    updatedAt: now,
  };
}

/** An insight's body with new content (other levels unchanged). */
function withContent(body: Memory['body'], content: string): Memory['body'] {
  return body.level === 'insight' ? { level: 'insight', insight: { ...body.insight, content } } : body;
}

/**
 * The memory of a relearned fix: new text (keeping the examples merged in), same standing. Its tags
 * are both versions' (the new ones first), and so is its identity: the new lesson, else the old
 * one; the new routine kinds, then the old ones not among them; the new facet, else the old one.
 */
function refresh(
  existing: Memory,
  memory: AbstractedMemory,
  by: { model: string; writer: MemoryWriter },
  now: string,
  keepExamples = true,
): Memory {
  const merged =
    memory.level === 'insight' && keepExamples
      ? mergeExamples(memory, existing.examples)
      : { content: memory.content, examples: memory.examples };
  return {
    ...existing,
    title: memory.title,
    description: memory.description,
    content: merged.content,
    body: withContent(memory.body, merged.content),
    tags: [...new Set([...memory.tags, ...existing.tags])],
    lesson: memory.lesson ?? existing.lesson,
    routines: [...new Set([...memory.routines, ...existing.routines])],
    facet: memory.facet ?? existing.facet,
    examples: merged.examples,
    evidence: [...new Set([...memory.evidence, ...existing.evidence])].slice(0, MAX_EVIDENCE),
    model: by.model,
    writer: by.writer,
    updatedAt: now,
  };
}
