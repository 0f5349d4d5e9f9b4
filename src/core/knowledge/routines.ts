/**
 * The validation-routine cue detector, shared by learn (a fix → routine kinds with weights) and
 * recall (task text → routine kinds), so a task described in other words than the fix that taught
 * an insight still finds it ("date parsing breaks for users in UTC+13" → encoding-locale).
 * The cues are general software vocabulary, not any repository's words, and live with each kind's
 * entry in src/knowledge/kinds/; this module reads them. Pure: no I/O.
 */
import { FILE_CUE_ORDER, KIND_ENTRIES as ENTRIES, type RoutineKind } from './kinds/index.js';
import type { Cue } from './entry.js';
import { cueText, cueWeight, fixProse } from '../text.js';
import type { CheckKind, Fix } from '../types.js';

export type { RoutineKind };

/** Every routine kind, in the engine's order (the first of two equally weighted kinds wins). */
export const ROUTINE_KINDS = ENTRIES.map((entry) => entry.kind) as readonly RoutineKind[] as readonly [
  RoutineKind,
  ...RoutineKind[],
];

export interface RoutineCue {
  kind: RoutineKind;
  /** strength of the evidence, summed over cues and capped; compare within one detection only */
  weight: number;
  /** the narrower routine within the kind, when the kind has several and the text names one */
  facet?: string;
}

/**
 * Narrower routines within a kind: each asks for a different check (a time-zone test is not a
 * multi-byte text test). The first facet of a kind is its default. Kinds without facets have one
 * routine.
 */
export const FACETS: Partial<Record<RoutineKind, readonly (readonly [string, RegExp])[]>> = Object.fromEntries(
  ENTRIES.flatMap(({ kind, facets }) =>
    facets ? [[kind, facets.map((facet) => [facet.name, facet.cue] as const)]] : [],
  ),
);

/** The facet of a kind that a text names most (weighted texts), else the kind's default facet. */
export function detectFacet(kind: RoutineKind, texts: readonly (readonly [string, number])[]): string | undefined {
  const facets = FACETS[kind];
  if (!facets || facets.length === 0) return undefined;
  let best: [string, number] = [facets[0]![0], 0];
  for (const [facet, pattern] of facets) {
    const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
    let score = 0;
    for (const [text, factor] of texts) score += Math.min(2, [...text.matchAll(global)].length) * factor;
    if (score > best[1]) best = [facet, score];
  }
  return best[0];
}

/** The facet named in a text, or undefined when the text names none of the kind's facets. */
function facetNamed(kind: RoutineKind, text: string): string | undefined {
  const facets = FACETS[kind];
  if (!facets) return undefined;
  const facet = detectFacet(kind, [[text, 1]]);
  const pattern = facets.find(([f]) => f === facet)?.[1];
  return pattern && pattern.test(text) ? facet : undefined;
}

/** Cues in prose (titles, bodies, task descriptions). Case-insensitive unless the regex says otherwise. */
const TEXT_CUES = Object.fromEntries(ENTRIES.map((entry) => [entry.kind, entry.textCues])) as Record<
  RoutineKind,
  readonly Cue[]
>;

/** Case-sensitive cues (an ENVIRONMENT_VARIABLE-looking word). */
const CASED_CUES: readonly (readonly [RegExp, RoutineKind, number])[] = ENTRIES.flatMap(({ kind, casedCues = [] }) =>
  casedCues.map(([pattern, weight]) => [pattern, kind, weight] as const),
);

/** Cues in the kinds of files a fix touched. */
const FILE_CUES: readonly (readonly [RegExp, RoutineKind, number])[] = FILE_CUE_ORDER.flatMap((kind) =>
  (ENTRIES[ROUTINE_KINDS.indexOf(kind)]!.files?.cues ?? []).map(
    ([pattern, weight]) => [pattern, kind, weight] as const,
  ),
);

const CHECK_ROUTINE = Object.fromEntries(
  ENTRIES.flatMap(({ kind, checks = {} }) =>
    Object.entries(checks).map(([check, weight]) => [check, { kind, weight }]),
  ),
) as Record<CheckKind, { kind: RoutineKind; weight: number }>;

/** The routine a kind of check gone red then green points to (none for plain test runs). */
export function checkRoutine(check: CheckKind | undefined): RoutineKind | undefined {
  if (!check) return undefined;
  const routine = CHECK_ROUTINE[check];
  return routine.kind === 'regression-test' ? undefined : routine.kind;
}

/** Caps one source of evidence so that a long text cannot outweigh a precise cue. */
const CAP_PER_KIND = 2;

function add(weights: Map<RoutineKind, number>, kind: RoutineKind, weight: number): void {
  weights.set(kind, (weights.get(kind) ?? 0) + weight);
}

/** Routine weights found in one piece of prose, each kind capped. */
function scoreText(raw: string): Map<RoutineKind, number> {
  const found = new Map<RoutineKind, number>();
  if (raw.trim() === '') return found;
  const text = cueText(raw);
  const lower = text.toLowerCase();
  for (const kind of ROUTINE_KINDS) {
    const sum = cueWeight(TEXT_CUES[kind], text, lower);
    if (sum > 0) found.set(kind, Math.min(sum, CAP_PER_KIND));
  }
  for (const [pattern, kind, weight] of CASED_CUES) if (pattern.test(text)) add(found, kind, weight);
  return found;
}

function sorted(weights: Map<RoutineKind, number>, minWeight = 0): RoutineCue[] {
  return [...weights.entries()]
    .filter(([, w]) => w > minWeight)
    .map(([kind, weight]) => ({ kind, weight: Math.round(weight * 100) / 100 }))
    .sort((a, b) => b.weight - a.weight || ROUTINE_KINDS.indexOf(a.kind) - ROUTINE_KINDS.indexOf(b.kind));
}

/** Routine kinds a task description points to, strongest first (regression-test never: it says nothing). */
export function detectRoutinesInText(text: string): RoutineCue[] {
  const weights = scoreText(text);
  weights.delete('regression-test');
  return sorted(weights, 0.25).map((cue) => {
    const facet = facetNamed(cue.kind, text);
    return facet ? { ...cue, facet } : cue;
  });
}

/** The kinds of files a fix touched, as routine cues. */
export function detectRoutinesInFiles(files: readonly string[]): Map<RoutineKind, number> {
  const found = new Map<RoutineKind, number>();
  for (const [pattern, kind, weight] of FILE_CUES) {
    if (files.some((f) => pattern.test(f))) add(found, kind, weight);
  }
  return found;
}

/** Only the fields cue detection reads, so callers can pass a partial fix. */
export type FixForCues = Pick<Fix, 'title' | 'problem' | 'change' | 'files' | 'testsChanged' | 'signals'>;

/**
 * Routine kinds a fix teaches, strongest first. The title counts most, the problem text half,
 * the change summary and the words of file paths less, plus the kinds of files touched and the
 * kinds of checks that went red then green. regression-test comes last as the fallback when the
 * fix changed tests.
 */
export function detectRoutinesInFix(fix: FixForCues): RoutineCue[] {
  const weights = new Map<RoutineKind, number>();
  const sources: [string, number][] = [
    [fix.title, 1],
    [fixProse(fix.problem), 0.5],
    [fix.change, 0.3],
    [fix.files.map((f) => f.replace(/[/._-]+/g, ' ')).join('\n'), 0.25],
  ];
  for (const [text, factor] of sources) {
    for (const [kind, w] of scoreText(text)) add(weights, kind, w * factor);
  }
  for (const [kind, w] of detectRoutinesInFiles(fix.files)) add(weights, kind, w);
  for (const signal of fix.signals) {
    if (signal.kind === 'check-red-green' && signal.check) {
      const routine = CHECK_ROUTINE[signal.check];
      add(weights, routine.kind, routine.weight);
    }
  }
  weights.delete('regression-test');
  const cues = sorted(weights, 0.3).map((cue) => {
    const facet = detectFacet(cue.kind, sources);
    return facet ? { ...cue, facet } : cue;
  });
  if (fix.testsChanged || fix.signals.some((s) => s.kind !== 'check-red-green')) {
    cues.push({ kind: 'regression-test', weight: 0.3 });
  }
  return cues;
}

/**
 * Words that describe each routine, used to expand a recall query so a task phrased in other
 * words still meets the insights of that routine.
 */
export const ROUTINE_VOCABULARY = Object.fromEntries(ENTRIES.map((entry) => [entry.kind, entry.vocabulary])) as Record<
  RoutineKind,
  string
>;

/** The routine tag of a kind, written on memories for people (the code reads `Memory.routines`). */
export function routineTag(kind: RoutineKind): string {
  return `routine:${kind}`;
}

/** The facet tag of a routine kind's narrower routine, written for people (the code reads `Memory.facet`). */
export function facetTag(kind: RoutineKind, facet: string): string {
  return `facet:${kind}/${facet}`;
}
