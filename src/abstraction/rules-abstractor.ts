/**
 * The offline, deterministic abstractor: turns a fix's validation signals (tests changed, checks
 * that went red then green, kinds of files touched, cues in the problem text, the ecosystem) into
 * the four memory levels of the research. The insight is built only from the fixed routine
 * templates plus generic qualifiers, so it names no path, symbol or string of the source fix.
 */
import { cleanExamples, withExamples } from '../core/insight-text.js';
import { fixProse } from '../core/text.js';
import { generalizeSubject, type Vocabulary } from '../core/generalize.js';
import { cueOutranksLesson, detectLesson, type Lesson } from '../core/knowledge/lessons.js';
import { facetField, identityTags } from '../core/knowledge/identity.js';
import { checkSpecificity } from './specificity.js';
import { generalVocabulary } from './vocabulary.js';
import { detectEcosystem, runHint, type Ecosystem } from '../core/knowledge/ecosystem.js';
import {
  checkRoutine,
  detectRoutinesInFiles,
  detectRoutinesInFix,
  type RoutineCue,
  type RoutineKind,
} from '../core/knowledge/routines.js';
import { RULES_MODEL, type Fix, type MemoryIdentity } from '../core/types.js';
import type { AbstractedMemory, Abstraction, Abstractor } from '../ports/index.js';
import { templateFor, type RoutineTemplate } from './routine-templates.js';
import { KIND_ENTRIES as ENTRIES } from '../core/knowledge/kinds/index.js';

export { RULES_MODEL };

/** How the kinds of files touched read in an evidence line. */
const FILE_KIND_EVIDENCE: Partial<Record<RoutineKind, string>> = Object.fromEntries(
  ENTRIES.flatMap(({ kind, files }) => (files ? [[kind, files.evidence]] : [])),
);

const TRACE_LIMITS = { problem: 800, change: 1500, files: 40 } as const;

export interface RoutineChoice {
  primary: RoutineKind;
  /** the narrower routine within the primary kind, when it has several */
  facet?: string;
  secondary?: RoutineKind;
  secondaryFacet?: string;
  cues: RoutineCue[];
}

/** Below this weight a fix's routine kind is a guess: the insight takes none rather than a wrong one. */
const MIN_KIND_WEIGHT = 0.6;

/** The main routine of a fix and, when clearly present too, a second one. */
export function chooseRoutines(fix: Fix): RoutineChoice {
  const cues = detectRoutinesInFix(fix);
  const real = cues.filter((c) => c.kind !== 'regression-test');
  const first = real[0];
  if (!first || first.weight < MIN_KIND_WEIGHT) return { primary: 'regression-test', cues };
  const second = real[1];
  const secondary = second && second.weight >= 0.5 && second.weight >= first.weight * 0.4 ? second : undefined;
  return {
    primary: first.kind,
    ...(first.facet ? { facet: first.facet } : {}),
    ...(secondary
      ? { secondary: secondary.kind, ...(secondary.facet ? { secondaryFacet: secondary.facet } : {}) }
      : {}),
    cues,
  };
}

function mainTemplate(choice: RoutineChoice): RoutineTemplate {
  return templateFor(choice.primary, choice.facet);
}

function secondTemplate(choice: RoutineChoice): RoutineTemplate | undefined {
  return choice.secondary ? templateFor(choice.secondary, choice.secondaryFacet) : undefined;
}

function evidenceOf(fix: Fix, choice: RoutineChoice): string[] {
  const lines: string[] = [];
  if (fix.signals.some((s) => s.kind === 'tests-added')) lines.push('tests were added in the same change');
  if (fix.testsChanged || fix.signals.some((s) => s.kind === 'tests-changed'))
    lines.push('a test changed in the same change');
  else lines.push('no test changed with the fix');
  const checks = new Set(fix.signals.filter((s) => s.kind === 'check-red-green').map((s) => s.check ?? 'other'));
  for (const check of checks) lines.push(`a check of kind ${check} failed then passed`);
  for (const kind of detectRoutinesInFiles(fix.files).keys()) {
    const what = FILE_KIND_EVIDENCE[kind];
    if (what) lines.push(`the change touched ${what}`);
  }
  const described = [choice.primary === 'regression-test' ? undefined : mainTemplate(choice), secondTemplate(choice)];
  for (const template of described) if (template) lines.push(`the fix's description points to ${template.label}`);
  return [...new Set(lines)];
}

/** What the fix's memories teach: its lesson, its (at most two) routine kinds, the main kind's facet. */
function identityOf(choice: RoutineChoice, lesson: LessonChoice): Omit<MemoryIdentity, 'examples'> {
  const kinds = [lesson.kind, choice.primary, choice.secondary].filter(
    (k): k is RoutineKind => k !== undefined && k !== 'regression-test',
  );
  const unique = [...new Set(kinds)].slice(0, 2);
  return {
    lesson: lesson.lesson ? lesson.lesson.id : null,
    routines: unique.length > 0 ? unique : ['regression-test'],
    facet: choice.facet && choice.primary === unique[0] ? facetField(choice.primary, choice.facet) : null,
  };
}

/** The identity's tags for people, then the checks, language and tool. */
function tagsOf(fix: Fix, identity: Omit<MemoryIdentity, 'examples'>, ecosystem: Ecosystem): string[] {
  const tags = identityTags(identity);
  const checks = new Set(fix.signals.filter((s) => s.kind === 'check-red-green').map((s) => s.check ?? 'other'));
  if (fix.testsChanged && checks.size === 0) checks.add('unit');
  for (const check of [...checks].sort()) tags.push(`check:${check}`);
  if (ecosystem.language) tags.push(`lang:${ecosystem.language}`);
  if (ecosystem.tool) tags.push(`tool:${ecosystem.tool}`);
  return tags;
}

/** Names of tests the change added, in general words ("empty pattern"). */
export function addedTestNames(change: string, vocabulary: Vocabulary): string[] {
  const names: string[] = [];
  const patterns = [
    /^\+\s*(?:it|test|describe)(?:\.\w+)?\(\s*(['"`])(.{4,100}?)\1/,
    /^\+\s*(?:async\s+)?def\s+test_?(\w{3,80})\s*\(/,
    /^\+\s*func\s+Test_?(\w{3,80})\s*\(/,
    /^\+\s*(?:pub\s+)?(?:async\s+)?fn\s+(?:test_)?(\w{3,80})\s*\(/,
  ];
  for (const line of change.split('\n')) {
    if (!line.startsWith('+')) continue;
    for (const pattern of patterns) {
      const m = pattern.exec(line);
      if (!m) continue;
      const raw = (m[2] ?? m[1] ?? '')
        .replace(/[_]+/g, ' ')
        .replace(/([a-z])([A-Z])/g, '$1 $2')
        .toLowerCase();
      const words = raw.split(/\s+/).filter((w) => w !== '' && vocabulary.has(w) && !/\d{3,}/.test(w));
      if (words.length >= 2) names.push(words.join(' '));
      break;
    }
    if (names.length >= 3) break;
  }
  return [...new Set(names)];
}

interface LessonChoice {
  /** the catalog lesson the fix names, if any */
  lesson?: Lesson;
  kind: RoutineKind;
  /** the fix's own condition, in general words */
  condition: string;
  tests: string[];
}

export function chooseLesson(fix: Fix, choice: RoutineChoice, vocabulary: Vocabulary): LessonChoice {
  const tests = addedTestNames(fix.change, vocabulary);
  // what the fix did (a CI file, a lint check gone green) outweighs what its words suggest
  const evidence = strongestEvidence(fix);
  const texts: [string, number][] = [
    [fix.title, 1],
    [fixProse(fix.problem.slice(0, 2000)), 0.4],
    [tests.join('\n'), 1],
  ];
  let found = detectLesson(texts, evidence);
  // the fix's own strongest cue may outrank a lesson named by one weak word: then only its kind's lessons count
  const strongest = choice.cues[0];
  if (!evidence && found && cueOutranksLesson(strongest, found)) found = detectLesson(texts, strongest!.kind);
  const [owner = '', name = ''] = fix.repo.split('/');
  const condition = generalizeSubject(fix.title, vocabulary, [owner, name, fix.repo]).text;
  return {
    ...(found ? { lesson: found.lesson } : {}),
    kind: found ? found.lesson.kind : (evidence ?? choice.primary),
    condition,
    tests,
  };
}

/** A routine kind the fix's files or checks show beyond doubt (a workflow file, a lint check gone green). */
function strongestEvidence(fix: Fix): RoutineKind | undefined {
  const weights = detectRoutinesInFiles(fix.files);
  for (const signal of fix.signals) {
    const kind = signal.kind === 'check-red-green' ? checkRoutine(signal.check) : undefined;
    if (kind) weights.set(kind, (weights.get(kind) ?? 0) + 1.5);
  }
  let best: [RoutineKind, number] | undefined;
  for (const [kind, weight] of weights) if (weight >= 1.5 && (!best || weight > best[1])) best = [kind, weight];
  return best?.[0];
}

/** Words a noun phrase may follow in a condition: prepositions, conjunctions, common verbs. */
const STAND_IN_LEADS =
  'in|on|of|for|to|with|without|when|where|from|by|into|at|as|is|are|was|if|after|before|via|than|and|or|uses?|using|calls?|calling|passes|passing|returns?|accepts?|accepting|given|takes?';

/** A generic noun that stands in for a removed source name ("a function", "the file"). */
const STAND_IN = /\b(an?|the) (function|name|component|type|file|flag|special value|project)\b/gi;
/** A stand-in where a noun phrase can stand ("when a function is called"). */
const PLACED_STAND_IN = new RegExp(`(^|\\b(${STAND_IN_LEADS})\\s)${STAND_IN.source}`, 'i');

/** An example sentence fragment: the fix's condition, when it says something in general words. */
function exampleOf(condition: string): string | undefined {
  const generic = STAND_IN;
  // a condition made mostly of stand-ins for the source's names says nothing to another repository
  const standIns = (condition.match(generic) ?? []).length;
  if (standIns >= 2) return undefined;
  // a stand-in reads as a noun phrase only where one can stand ("when a function is called"), not
  // glued to the words around a removed name ("partial a name index entry")
  if (standIns === 1 && !PLACED_STAND_IN.test(condition)) return undefined;
  const general = condition.replace(generic, '');
  // one stand-in reads as a sentence only among enough real words ("a function go vet usage" does not)
  if (general.split(/\s+/).filter((w) => /[a-z]{3,}/i.test(w)).length < (standIns > 0 ? 4 : 2)) return undefined;
  // a fragment after "Seen in:": lower-case unless the first word is a name or an acronym
  return /^[A-Z][a-z]+\b/.test(condition) ? condition[0]!.toLowerCase() + condition.slice(1) : condition;
}

/** The insight's text, and the examples its content closes with (none or the fix's condition). */
function insightOf(
  lesson: LessonChoice,
  choice: RoutineChoice,
  withExample = true,
): { body: AbstractedMemory['body'] & { level: 'insight' }; examples: string[] } {
  const example = withExample ? exampleOf(lesson.condition) : undefined;
  const examples = cleanExamples(example ? [example] : []);
  if (lesson.lesson) {
    const { title, description, check } = lesson.lesson;
    return {
      body: { level: 'insight', insight: { title, description, content: withExamples(check, examples) } },
      examples,
    };
  }
  // a lesson the catalog does not name joins its kind's insight, its condition as an example: a
  // commit's words with a check glued on ("<subject>: test the edge inputs") is no rule to act on
  const template = templateFor(lesson.kind, lesson.kind === choice.primary ? choice.facet : undefined);
  return {
    body: {
      level: 'insight',
      insight: {
        title: template.title,
        description: template.description,
        content: withExamples(`${template.check} ${template.why}`, examples),
      },
    },
    examples,
  };
}

/**
 * The labels of a trajectory's lines, in order. "title", not "fix": a conventional commit's title
 * starts with "fix:" itself (trajectories stored before say "fix").
 */
const TRACE = {
  title: 'title: ',
  source: 'source: ',
  problem: 'problem: ',
  files: 'files: ',
  tests: 'tests changed: ',
  signals: 'signals: ',
  change: 'change: ',
} as const;
const EARLIER_TITLE = 'fix: ';

function traceOf(fix: Fix): string {
  const signals = fix.signals.map(
    (s) => [s.kind, s.check, s.name].filter(Boolean).join(' ') + (s.excerpt ? `: ${s.excerpt}` : ''),
  );
  const lines = [
    `${TRACE.title}${fix.title}`,
    `${TRACE.source}${fix.repo} ${fix.sourceKind} ${fix.ref}`,
    fix.problem ? `${TRACE.problem}${fix.problem.slice(0, TRACE_LIMITS.problem)}` : '',
    fix.files.length > 0 ? `${TRACE.files}${fix.files.slice(0, TRACE_LIMITS.files).join(', ')}` : '',
    `${TRACE.tests}${fix.testsChanged ? 'yes' : 'no'}`,
    signals.length > 0 ? `${TRACE.signals}${signals.join('; ')}` : '',
    fix.change ? `${TRACE.change}${fix.change.slice(0, TRACE_LIMITS.change)}` : '',
  ];
  return lines.filter((l) => l !== '').join('\n');
}

/**
 * The lines of a trajectory's trace that say what the fix was about: its title and every line of
 * its problem; not its source, paths, signals or diff.
 */
export function traceAbout(trace: string): string {
  const other = Object.values(TRACE).filter((label) => label !== TRACE.title && label !== TRACE.problem);
  const about: string[] = [];
  let inProblem = false;
  for (const line of trace.split('\n')) {
    if (line.startsWith(TRACE.title) || line.startsWith(EARLIER_TITLE)) {
      about.push(line);
      inProblem = false;
    } else if (line.startsWith(TRACE.problem)) {
      about.push(line);
      inProblem = true;
    } else if (other.some((label) => line.startsWith(label))) inProblem = false;
    else if (inProblem) about.push(line);
  }
  return about.join('\n');
}

/** The four memory levels of one (already redacted) fix. Deterministic. */
export function abstractWithRules(fix: Fix, vocabulary: Vocabulary = generalVocabulary()): Abstraction {
  const choice = chooseRoutines(fix);
  const lesson = chooseLesson(fix, choice, vocabulary);
  const ecosystem = detectEcosystem(fix.files, fix.language);
  const identity = identityOf(choice, lesson);
  const tags = tagsOf(fix, identity, ecosystem);
  // every level carries the fix's identity; only the insight lists examples
  const concrete = { ...identity, examples: [] };
  const evidence = evidenceOf(fix, choice);
  const main = mainTemplate(choice);

  // the example is the fix's own condition in general words; where the specificity check still finds
  // a name of the source in it, the lesson goes without its example rather than not at all
  const insightWith = ({ body, examples }: ReturnType<typeof insightOf>): AbstractedMemory => ({
    level: 'insight',
    ...body.insight,
    body,
    tags,
    evidence,
    ...identity,
    examples,
  });
  let insight = insightWith(insightOf(lesson, choice));
  if (!checkSpecificity(insight, fix).ok) insight = insightWith(insightOf(lesson, choice, false));

  const steps = [main.step];
  const other = secondTemplate(choice);
  if (other) steps.push(other.step);
  if (!fix.testsChanged) steps.push('The source fix changed no test: make the check above an automated one.');
  steps.push('Make the smallest change that turns the new check green.');
  for (const check of new Set(fix.signals.filter((s) => s.kind === 'check-red-green').map((s) => s.check ?? 'other'))) {
    steps.push(`Re-run the ${check} check until it passes.`);
  }
  steps.push(runHint(ecosystem) ?? 'Run the full test suite before merging.');
  const goal = `Fix and verify a problem with ${main.label}${ecosystem.language ? ` in a ${ecosystem.language} project` : ''}`;
  const workflow: AbstractedMemory = {
    level: 'workflow',
    title: goal,
    description: main.description,
    content: steps.map((s, i) => `${i + 1}. ${s}`).join('\n'),
    body: { level: 'workflow', workflow: { goal, steps } },
    tags,
    evidence,
    ...concrete,
  };

  const experience = `${main.description} Verified by: ${evidence.join('; ')}.`;
  const summary: AbstractedMemory = {
    level: 'summary',
    title: fix.title,
    description: `A fix about ${main.label}.`,
    content: experience,
    body: { level: 'summary', summary: { task_summary: fix.title, experience_summary: experience } },
    tags,
    evidence,
    ...concrete,
  };

  const trace = traceOf(fix);
  const trajectory: AbstractedMemory = {
    level: 'trajectory',
    title: fix.title,
    description: `The evidence of ${fix.repo} ${fix.ref}.`,
    content: trace,
    body: { level: 'trajectory', trajectory: { trace } },
    tags,
    evidence,
    ...concrete,
  };

  // no lesson, no routine and no condition in general words: "pin every fix with a test" teaches
  // another repository nothing, so the fix keeps its concrete levels and adds no insight
  const teaches = lesson.lesson !== undefined || lesson.kind !== 'regression-test' || insight.examples.length > 0;
  if (!teaches) return { memories: [trajectory, workflow, summary], model: RULES_MODEL, writer: 'rules' };
  return { memories: [trajectory, workflow, summary, insight], model: RULES_MODEL, writer: 'rules' };
}

export function createRulesAbstractor(): Abstractor {
  return { abstract: async (fix) => abstractWithRules(fix) };
}
