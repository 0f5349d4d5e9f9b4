/**
 * An insight's identity (Memory's MemoryIdentity fields and `writer`): what the code reads of it,
 * and the one place it is derived from the strings that held it before it had fields of its own.
 * A memory written before (schema 6 and older; a pool file without the fields) carried it in its
 * tags (`lesson:<id>`, `routine:<kind>`, `facet:<kind>/<facet>`), its content's closing "Seen in:
 * …." sentence and its `model`. `legacyIdentity` reads them once: the schema-7 migration of both
 * stores and the pool file reader use it; nothing else parses tags or content for identity. Pure.
 */
import { examplesOf } from '../insight-text.js';
import { RULES_MODEL, type MemoryIdentity, type MemoryLevel, type MemoryWriter } from '../types.js';
import { isLearnedLesson } from './learned-lessons.js';
import { ROUTINE_KINDS, type RoutineKind } from './routines.js';

/** The identity fields and the writer: what every memory carries besides its text. */
export type FullIdentity = MemoryIdentity & { writer: MemoryWriter };

/** What a memory written before the identity fields holds them in. */
export interface LegacyMemory {
  level: MemoryLevel;
  tags: readonly string[];
  content: string;
  model: string;
}

const LESSON_TAG = 'lesson:';
const ROUTINE_TAG = 'routine:';
const FACET_TAG = 'facet:';

/**
 * The identity a memory written before the fields held, read from its tags, content and model as
 * the code of that time read it: the first `lesson:` tag; the known routine kinds of its
 * `routine:` tags in tag order, each once; the first `facet:` tag of the first of those kinds that
 * has one (the rules wrote one facet, of the main kind); an
 * insight's examples from its content's closing "Seen in: …." sentence; the rules' or a model's
 * text by its `model`, and a rule-written insight of a `learned-…` lesson as learned.
 */
export function legacyIdentity(memory: LegacyMemory): FullIdentity {
  const lesson = memory.tags.find((t) => t.startsWith(LESSON_TAG))?.slice(LESSON_TAG.length);
  const routines: string[] = [];
  for (const tag of memory.tags) {
    if (!tag.startsWith(ROUTINE_TAG)) continue;
    const kind = tag.slice(ROUTINE_TAG.length);
    if ((ROUTINE_KINDS as readonly string[]).includes(kind) && !routines.includes(kind)) routines.push(kind);
  }
  const facets = memory.tags.filter((t) => t.startsWith(FACET_TAG)).map((t) => t.slice(FACET_TAG.length));
  let facet: string | undefined;
  for (const kind of routines) if ((facet ??= facets.find((f) => f.startsWith(`${kind}/`))) !== undefined) break;
  const insight = memory.level === 'insight';
  const writer: MemoryWriter =
    memory.model !== RULES_MODEL ? 'model' : insight && isLearnedLesson(lesson) ? 'learned' : 'rules';
  return {
    lesson: lesson ?? null,
    routines,
    facet: facet ?? null,
    examples: insight ? examplesOf(memory.content) : [],
    writer,
  };
}

/** The facet a memory's identity gives for a routine kind ("time" for "encoding-locale/time"), if any. */
export function facetOf(identity: Pick<MemoryIdentity, 'facet'>, kind: string): string | undefined {
  const { facet } = identity;
  return facet !== null && facet.startsWith(`${kind}/`) ? facet.slice(kind.length + 1) : undefined;
}

/** A memory's main routine kind when this version knows it. */
export function mainRoutine(identity: Pick<MemoryIdentity, 'routines'>): RoutineKind | undefined {
  const kind = identity.routines[0];
  return kind !== undefined && (ROUTINE_KINDS as readonly string[]).includes(kind) ? (kind as RoutineKind) : undefined;
}

/** The facet field of a kind's narrower routine. */
export function facetField(kind: RoutineKind, facet: string): string {
  return `${kind}/${facet}`;
}

/**
 * The tags that say an identity for people, in the order the abstractors write them: each routine
 * kind, the facet, the lesson (`routine:edge-input`, `facet:edge-input/empty`, `lesson:empty-input`).
 */
export function identityTags(identity: Pick<MemoryIdentity, 'lesson' | 'routines' | 'facet'>): string[] {
  const tags = identity.routines.map((kind) => `${ROUTINE_TAG}${kind}`);
  if (identity.facet !== null) tags.push(`${FACET_TAG}${identity.facet}`);
  if (identity.lesson !== null) tags.push(`${LESSON_TAG}${identity.lesson}`);
  return tags;
}
