/**
 * Lessons the pool learns from its organization's own history, beyond the hand-written catalog:
 * a technical phrase ("trailing slash", "session cookie", "redirect location") that the fixes of two
 * or more repositories name becomes a lesson of its own, titled by the phrase and the routine kind
 * of the fixes that taught it. This module reads the phrases of a text and words the lesson; the
 * learn service finds where a phrase recurs. Pure: no I/O.
 */
import type { RoutineKind } from '../routines.js';

/** A lesson learned from the organization: its phrase, id and text. */
export interface LearnedLesson {
  phrase: string;
  id: string;
  title: string;
  description: string;
  check: string;
}

/** The rule a learned lesson states, by the routine kind of the fixes that taught it; {p} is the phrase. */
const RULES: Record<RoutineKind, string> = {
  'edge-input': 'Test the {p} with empty, missing and boundary values',
  'encoding-locale': 'Test the {p} under other encodings, locales and time zones',
  'platform-compat': 'Test the {p} on every supported platform and runtime',
  'concurrency-async': 'Test the {p} under overlapping, late and cancelled operations',
  'performance-resource': 'Check that the {p} releases what it holds under repeated use',
  'error-handling': 'Test how the {p} fails: its errors must reach the caller intact',
  'security-validation': 'Treat the {p} as hostile input and test it that way',
  'api-compat': 'Pin the public behaviour of the {p} with a test before changing it',
  'dependency-compat': 'Test the {p} against the oldest and newest dependency versions allowed',
  'type-check': 'Check the published types of the {p} against how callers use them',
  'lint-format': 'Keep the code of the {p} clean under the linter and formatter in CI',
  'build-packaging': 'Build and install the package to test the {p} as users get it',
  'ci-config': 'Test a change to the {p} on a branch before relying on CI',
  'config-env': 'Test every source of the {p} setting and their precedence',
  'data-migration': 'Run the migrations that touch the {p} on a fresh database',
  'regression-test': 'Pin the behaviour of the {p} with a regression test',
};

/** Words that join a phrase but name nothing: English function words and the words of any failure. */
const FILLER = new Set(
  (
    'the a an and or but nor of to in on at by for from with without into onto over under about after before ' +
    'when while where which that this these those there here than then also only just not no yes all any some ' +
    'each every both either neither more most less least very too so such same other another own its it they ' +
    'them their we our you your he she his her i me my is are was were be been being am do does did done doing ' +
    'has have had having can could should would will shall may might must get gets got make makes made use uses ' +
    'used using way thing things something anything nothing new old first last one two three now still even ' +
    'fix fixes fixed fixing bug bugs error errors issue issues problem problems crash crashes crashed fail fails ' +
    'failed failing failure wrong incorrect broken break breaks test tests testing tested case cases value values ' +
    'work works working instead correctly properly always never sometimes again handle handles handling add adds ' +
    'added remove removed update updated change changes changed support supported allow allows allowed'
  ).split(' '),
);

const WORD = /[a-z][a-z0-9]*(?:-[a-z0-9]+)*/g;

/**
 * The candidate phrases of a text: adjacent pairs of general words within one clause, neither of
 * them a filler. `isGeneral` says whether a word is general vocabulary (no source names).
 */
export function phrasesOf(text: string, isGeneral: (word: string) => boolean): string[] {
  const phrases = new Set<string>();
  for (const clause of text.toLowerCase().split(/[.,;:!?()[\]{}"'`<>=|/\\]+|\s-\s|\n/)) {
    const words = clause.match(WORD) ?? [];
    for (let i = 0; i + 1 < words.length; i += 1) {
      const [a, b] = [words[i]!, words[i + 1]!];
      if (!usable(a, isGeneral) || !usable(b, isGeneral)) continue;
      phrases.add(`${a} ${b}`);
    }
  }
  return [...phrases];
}

function usable(word: string, isGeneral: (word: string) => boolean): boolean {
  return word.length >= 3 && !/\d/.test(word) && !FILLER.has(word) && isGeneral(word);
}

/** Whether a text names the phrase (as words, not inside other words). */
export function namesPhrase(text: string, phrase: string): boolean {
  return new RegExp(`(^|[^a-z0-9])${phrase.replace(/ /g, '[\\s_-]+')}($|[^a-z0-9])`).test(text.toLowerCase());
}

const LEARNED_PREFIX = 'learned-';

export function isLearnedLesson(id: string | undefined): boolean {
  return id !== undefined && id.startsWith(LEARNED_PREFIX);
}

/** The id of the lesson a phrase teaches ("serving size" → "learned-serving-size"). */
export function learnedLessonId(phrase: string): string {
  return `${LEARNED_PREFIX}${phrase.replace(/\s+/g, '-')}`;
}

/** The phrase a learned lesson's id names ("learned-serving-size" → "serving size"). */
export function phraseOfLesson(id: string): string {
  return id.slice(LEARNED_PREFIX.length).replace(/-/g, ' ');
}

/** The lesson a phrase teaches fixes of this kind; `check` is the kind's own check. */
export function learnedLesson(phrase: string, kind: RoutineKind, check: string): LearnedLesson {
  return {
    phrase,
    id: learnedLessonId(phrase),
    title: RULES[kind].replace('{p}', phrase),
    description: `Fixes in several repositories of this organization broke on the ${phrase}.`,
    check,
  };
}
