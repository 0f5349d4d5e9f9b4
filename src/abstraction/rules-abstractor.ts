/**
 * The offline, deterministic abstractor: turns a fix's validation signals (tests changed, checks
 * that went red then green, kinds of files touched, cues in the problem text, the ecosystem) into
 * the four memory levels of the research. The insight is built only from the fixed routine
 * templates plus generic qualifiers, so it names no path, symbol or string of the source fix.
 */
import { secondaryClause } from '../core/insight-text.js';
import { detectEcosystem, runHint, type Ecosystem, type HintKind } from '../core/ecosystem.js';
import {
  detectRoutinesInFiles,
  detectRoutinesInFix,
  facetTag,
  routineTag,
  type RoutineCue,
  type RoutineKind,
} from '../core/routines.js';
import type { Fix } from '../core/types.js';
import type { AbstractedMemory, Abstraction, Abstractor } from '../services/ports.js';
import { templateFor, type RoutineTemplate } from './routine-templates.js';

export const RULES_MODEL = 'rules@1';

/** How the kinds of files touched read in an evidence line. */
const FILE_KIND_EVIDENCE: Partial<Record<RoutineKind, string>> = {
  'ci-config': 'CI configuration',
  'dependency-compat': 'dependency manifests or lockfiles',
  'build-packaging': 'build configuration',
  'type-check': 'type declarations',
  'encoding-locale': 'locale or time zone data',
  'data-migration': 'database migrations or schema',
  'lint-format': 'linter or formatter configuration',
  'platform-compat': 'platform-specific code',
  'concurrency-async': 'concurrency code',
  'config-env': 'configuration or option parsing',
  'security-validation': 'security-related code',
};

/** Which run hint fits a routine (the test command unless a routine is about another tool). */
const HINT_KIND: Partial<Record<RoutineKind, HintKind>> = {
  'concurrency-async': 'race',
  'lint-format': 'lint',
  'type-check': 'types',
  'build-packaging': 'build',
};

const TRACE_LIMITS = { problem: 800, change: 1500, files: 40 } as const;

export interface RoutineChoice {
  primary: RoutineKind;
  /** the narrower routine within the primary kind, when it has several */
  facet?: string;
  secondary?: RoutineKind;
  secondaryFacet?: string;
  cues: RoutineCue[];
}

/** The main routine of a fix and, when clearly present too, a second one. */
export function chooseRoutines(fix: Fix): RoutineChoice {
  const cues = detectRoutinesInFix(fix);
  const real = cues.filter((c) => c.kind !== 'regression-test');
  const first = real[0];
  if (!first) return { primary: 'regression-test', cues };
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

function tagsOf(fix: Fix, choice: RoutineChoice, ecosystem: Ecosystem): string[] {
  const tags = [routineTag(choice.primary)];
  if (choice.secondary) tags.push(routineTag(choice.secondary));
  if (choice.facet) tags.push(facetTag(choice.primary, choice.facet));
  const checks = new Set(fix.signals.filter((s) => s.kind === 'check-red-green').map((s) => s.check ?? 'other'));
  if (fix.testsChanged && checks.size === 0) checks.add('unit');
  for (const check of [...checks].sort()) tags.push(`check:${check}`);
  if (ecosystem.language) tags.push(`lang:${ecosystem.language}`);
  if (ecosystem.tool) tags.push(`tool:${ecosystem.tool}`);
  return tags;
}

function insightOf(choice: RoutineChoice, ecosystem: Ecosystem): AbstractedMemory['body'] & { level: 'insight' } {
  const main = mainTemplate(choice);
  const sentences = [main.check, main.why];
  const other = secondTemplate(choice);
  if (other) sentences.push(secondaryClause(other.label, other.also));
  const hint = runHint(ecosystem, HINT_KIND[choice.primary] ?? 'test');
  if (hint) sentences.push(hint);
  return {
    level: 'insight',
    insight: { title: main.title, description: main.description, content: sentences.join(' ') },
  };
}

function traceOf(fix: Fix): string {
  const signals = fix.signals.map(
    (s) => [s.kind, s.check, s.name].filter(Boolean).join(' ') + (s.excerpt ? `: ${s.excerpt}` : ''),
  );
  const lines = [
    `fix: ${fix.title}`,
    `source: ${fix.repo} ${fix.sourceKind} ${fix.ref}`,
    fix.problem ? `problem: ${fix.problem.slice(0, TRACE_LIMITS.problem)}` : '',
    fix.files.length > 0 ? `files: ${fix.files.slice(0, TRACE_LIMITS.files).join(', ')}` : '',
    `tests changed: ${fix.testsChanged ? 'yes' : 'no'}`,
    signals.length > 0 ? `signals: ${signals.join('; ')}` : '',
    fix.change ? `change: ${fix.change.slice(0, TRACE_LIMITS.change)}` : '',
  ];
  return lines.filter((l) => l !== '').join('\n');
}

/** The four memory levels of one (already redacted) fix. Deterministic. */
export function abstractWithRules(fix: Fix): Abstraction {
  const choice = chooseRoutines(fix);
  const ecosystem = detectEcosystem(fix.files, fix.language);
  const tags = tagsOf(fix, choice, ecosystem);
  const evidence = evidenceOf(fix, choice);
  const main = mainTemplate(choice);

  const insightBody = insightOf(choice, ecosystem);
  const insight: AbstractedMemory = { level: 'insight', ...insightBody.insight, body: insightBody, tags, evidence };

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
  };

  return { memories: [trajectory, workflow, summary, insight], model: RULES_MODEL };
}

export function createRulesAbstractor(): Abstractor {
  return { abstract: async (fix) => abstractWithRules(fix) };
}
