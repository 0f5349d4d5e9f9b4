/**
 * The schema of the engine's knowledge (src/core/knowledge/kinds/): checked by a test and at build time
 * (`npm run check-knowledge`, part of `npm run check-dist`), never when a program starts, so the
 * Action and the CLI pay nothing for it; a lesson learned from the organization is checked with
 * the same lesson schema when learn makes it (`lessonProblems`). Each entry must be well formed on its own (non-empty
 * texts, sane weights, titles a reader can act on), and the entries together must agree: lesson ids
 * unique across kinds, every `after` naming a lesson, every kind of check and of file read once.
 */
import { z } from 'zod';
import { CHECK_KINDS } from '../types.js';
import type { KindEntry, LessonEntry } from './entry.js';
import { catalogLessons, FILE_CUE_ORDER, KINDS } from './kinds/index.js';
import { learnedLesson } from './learned-lessons.js';
import type { RoutineKind } from './routines.js';
import { writtenTitleDefect } from './titles.js';

/** The largest weight one cue may add: a cue that decides alone is written as one, not as a huge number. */
const MAX_WEIGHT = 3;

const slug = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be lower-case words joined by hyphens');
const text = z
  .string()
  .trim()
  .min(1, { message: 'must not be empty', abort: true })
  .refine((s) => !/\s{2,}/.test(s), 'must not hold runs of spaces');
const sentence = text.refine((s) => s.split(/(?<=\.)\s/).length === 1, 'must be one sentence');
const title = text.superRefine((s, ctx) => {
  const defect = writtenTitleDefect(s);
  if (defect) ctx.addIssue({ code: 'custom', message: `"${s}" ${defect}` });
});
const weight = z.number().gt(0, 'a weight must be above 0').max(MAX_WEIGHT, `a weight must be at most ${MAX_WEIGHT}`);
/** A pattern the engine can test again and again: a global or sticky one keeps state between tests. */
const pattern = z
  .instanceof(RegExp, { message: 'must be a regular expression' })
  .refine((re) => !re.global && !re.sticky, 'must not have the g or y flag (it would keep state between texts)')
  .refine((re) => !re.test(''), 'must not match an empty text');
const cues = z.array(z.tuple([pattern, weight])).min(1, 'must hold at least one cue');

const template = z.strictObject({
  label: text,
  title,
  description: sentence,
  check: text,
  why: text,
  also: text,
  step: text,
});

const facet = z.strictObject({ name: slug, cue: pattern, template: template.optional() });

const lesson = z.strictObject({
  id: slug,
  after: slug.optional(),
  title: title.refine((s) => s.split(' ').length > 5, 'must name a lesson in more than five words, not a category'),
  description: sentence,
  check: text.refine((s) => s.length > 40, 'must say what to check, in more than 40 characters'),
  cues,
});

const kind = z
  .strictObject({
    kind: slug,
    template,
    facets: z.array(facet).min(2, 'a kind with facets has at least two').optional(),
    learnedRule: text.regex(
      /^[A-Z][^{]*\{p\}[^{]*$/,
      'must be a rule starting in upper case that names the phrase {p} once',
    ),
    vocabulary: text,
    textCues: cues,
    casedCues: cues.optional(),
    files: z.strictObject({ evidence: text, cues }).optional(),
    checks: z.partialRecord(z.enum(CHECK_KINDS), weight).optional(),
    lessons: z.array(lesson),
  })
  .superRefine((entry, ctx) => {
    const facets = entry.facets ?? [];
    if (facets[0]?.template)
      ctx.addIssue({
        code: 'custom',
        path: ['facets', 0, 'template'],
        message: "the first facet's routine is the kind's template",
      });
    facets.forEach((f, i) => {
      if (i > 0 && !f.template)
        ctx.addIssue({
          code: 'custom',
          path: ['facets', i, 'template'],
          message: `facet ${f.name} needs its own template`,
        });
      if (facets.findIndex((g) => g.name === f.name) !== i)
        ctx.addIssue({ code: 'custom', path: ['facets', i, 'name'], message: `facet ${f.name} is named twice` });
    });
  });

/** Problems between entries: what no single entry can show. */
function crossProblems(kinds: readonly KindEntry[], fileOrder: readonly string[]): string[] {
  const problems: string[] = [];
  const names = kinds.map((k) => k.kind);
  for (const [i, name] of names.entries()) if (names.indexOf(name) !== i) problems.push(`kind ${name} has two entries`);

  const owner = new Map<string, string>();
  for (const { kind: k, lessons } of kinds)
    for (const { id } of lessons) {
      const first = owner.get(id);
      if (first !== undefined) problems.push(`lesson id ${id} is used twice (in ${first} and in ${k})`);
      else owner.set(id, k);
    }
  for (const { kind: k, lessons } of kinds)
    for (const { id, after } of lessons) {
      if (after === undefined) continue;
      const of = owner.get(after);
      if (of === undefined) problems.push(`lesson ${id} (${k}) is read after ${after}, which is no lesson`);
      else if (of === k) problems.push(`lesson ${id} is read after ${after} of its own kind: list it there instead`);
    }
  const total = kinds.reduce((n, k) => n + k.lessons.length, 0);
  const placed = new Set(catalogLessons(kinds).map((l) => l.lesson.id));
  if (placed.size !== total && problems.length === 0)
    problems.push(
      `lessons ${[...owner.keys()].filter((id) => !placed.has(id)).join(', ')} are read after each other in a circle`,
    );

  for (const check of CHECK_KINDS) {
    const by = kinds.filter((k) => k.checks?.[check] !== undefined).map((k) => k.kind);
    if (by.length !== 1)
      problems.push(
        `the check kind ${check} must point to exactly one routine kind, not ${by.length} (${by.join(', ')})`,
      );
  }

  const withFiles = kinds.filter((k) => k.files).map((k) => k.kind);
  for (const k of withFiles)
    if (!fileOrder.includes(k)) problems.push(`kind ${k} has file cues but is not in FILE_CUE_ORDER`);
  for (const [i, k] of fileOrder.entries()) {
    if (!withFiles.includes(k)) problems.push(`FILE_CUE_ORDER lists ${k}, which has no file cues`);
    if (fileOrder.indexOf(k) !== i) problems.push(`FILE_CUE_ORDER lists ${k} twice`);
  }
  return problems;
}

/** Where in an entry an issue is, by name: "lesson empty-input cues[2][0]", "facet boundary template". */
function placeOf(entry: KindEntry, path: readonly PropertyKey[]): string {
  const parts: string[] = [];
  for (let i = 0; i < path.length; i++) {
    const [part, next] = [path[i], path[i + 1]];
    if (part === 'lessons' && typeof next === 'number') parts.push(`lesson ${entry.lessons[next]?.id ?? next}`);
    else if (part === 'facets' && typeof next === 'number') parts.push(`facet ${entry.facets?.[next]?.name ?? next}`);
    else if (typeof part === 'number') parts.push(`${parts.pop() ?? ''}[${part}]`);
    else parts.push(String(part));
    if ((part === 'lessons' || part === 'facets') && typeof next === 'number') i++;
  }
  return parts.join(' ') || 'entry';
}

/** A phrase to try each kind's learned-lesson rule with. */
const SAMPLE_PHRASE = 'trailing slash';

/**
 * The problems of a lesson entry, catalog or learned ("title: … begins with a repair verb"); a
 * lesson learned from the organization is checked with it before it is stored.
 */
export function lessonProblems(entry: LessonEntry): string[] {
  const { id, after, title, description, check, cues } = entry;
  const parsed = lesson.safeParse({ id, ...(after === undefined ? {} : { after }), title, description, check, cues });
  return parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.') || 'lesson'}: ${issue.message}`);
}

/** Each kind's learned-lesson rule must make a lesson the catalog's schema accepts. */
function learnedRuleProblems(kinds: readonly KindEntry[]): string[] {
  return kinds.flatMap((entry) =>
    lessonProblems(
      learnedLesson(SAMPLE_PHRASE, entry.kind as RoutineKind, entry.template.check, entry.learnedRule),
    ).map((problem) => `${entry.kind}: learnedRule makes a lesson whose ${problem}`),
  );
}

/** Every problem of the knowledge, each naming its kind, lesson or field; empty when it is sound. */
export function knowledgeProblems(
  kinds: readonly KindEntry[] = KINDS,
  fileOrder: readonly string[] = FILE_CUE_ORDER,
): string[] {
  const problems: string[] = [];
  for (const entry of kinds) {
    const parsed = kind.safeParse(entry);
    if (!parsed.success)
      for (const issue of parsed.error.issues)
        problems.push(`${entry.kind}: ${placeOf(entry, issue.path)}: ${issue.message}`);
  }
  return [...problems, ...crossProblems(kinds, fileOrder), ...learnedRuleProblems(kinds)];
}

/** Throws one error listing every problem of the knowledge. */
export function assertKnowledge(kinds?: readonly KindEntry[], fileOrder?: readonly string[]): void {
  const problems = knowledgeProblems(kinds, fileOrder);
  if (problems.length > 0)
    throw new Error(`The knowledge has ${problems.length} problem(s):\n- ${problems.join('\n- ')}`);
}
