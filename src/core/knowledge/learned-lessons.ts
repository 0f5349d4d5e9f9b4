/**
 * Lessons the pool learns from its organization's own history, beyond the hand-written catalog:
 * a technical phrase ("trailing slash", "session cookie", "redirect location") that the fixes of two
 * or more repositories name becomes a lesson of its own, titled by the phrase and the routine kind
 * of the fixes that taught it. This module reads the phrases of a text and words the lesson; the
 * learn service finds where a phrase recurs. Pure: no I/O.
 */
import type { LessonEntry } from './entry.js';
import type { RoutineKind } from './routines.js';
import { LANGUAGE_KEYWORDS } from './code-words.js';
import { KIND_ENTRIES } from './kinds/index.js';

/**
 * A lesson learned from the organization: a lesson entry of the catalog's shape (id, title,
 * description, check, and one cue: its phrase, which names it in a task as a catalog lesson's
 * cues do), with the routine kind of the fixes that taught it and the phrase itself.
 */
export interface LearnedLesson extends LessonEntry {
  kind: RoutineKind;
  phrase: string;
}

/** Words that join a phrase but name nothing: English function words and the words of any failure. */
const FILLER = new Set(
  (
    'the a an and or but nor of to in on at by for from with without into onto over under about after before ' +
    'between among through during against within across along around behind beyond via per upon until since ' +
    'unless whether though although because ' +
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

/** The words of the development process (a test suite's coverage, the changelog, the CI service): no code fails on them. */
const PROCESS = new Set(
  'coverage suite changelog readme docs documentation release releases travis appveyor circleci lint linter'.split(' '),
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
      if (!usable(a, isGeneral) || !usable(b, isGeneral) || !nounLike(b)) continue;
      phrases.add(`${a} ${b}`);
    }
  }
  return [...phrases];
}

/** The endings of English adjectives, adverbs and participles: a phrase ending in one names no thing. */
const MODIFIER_ENDING = /(?:ible|ous|ful|less|ical)$|^.{4,}(?:ly|ed)$|^.{5,}(?:able|ive)$/;
/** Nouns of software with those endings. */
const NOUNS_LIKE_MODIFIERS = new Set(
  'variable executable callable iterable awaitable directive primitive archive assembly embed'.split(' '),
);

/**
 * A phrase's last word must name a thing: the lesson's title reads "Test the {phrase} …", so "the
 * backwards incompatible" or "the string converted" would be a broken sentence.
 */
function nounLike(word: string): boolean {
  return NOUNS_LIKE_MODIFIERS.has(word) || !MODIFIER_ENDING.test(word);
}

function usable(word: string, isGeneral: (word: string) => boolean): boolean {
  return (
    word.length >= 3 &&
    !/\d/.test(word) &&
    !FILLER.has(word) &&
    !PROCESS.has(word) &&
    !LANGUAGE_KEYWORDS.has(word) &&
    isGeneral(word)
  );
}

/** One pattern per phrase (recall asks for the same few phrases of every task). */
const phrasePatterns = new Map<string, RegExp>();

/** The cue of a learned lesson: its phrase as words, not inside other words, however joined (space, _ or -). */
export function phraseCue(phrase: string): RegExp {
  let pattern = phrasePatterns.get(phrase);
  if (!pattern) {
    pattern = new RegExp(`(^|[^a-z0-9])${phrase.replace(/ /g, '[\\s_-]+')}($|[^a-z0-9])`, 'i');
    if (phrasePatterns.size < 10_000) phrasePatterns.set(phrase, pattern);
  }
  return pattern;
}

/** Whether a text names the phrase (its learned lesson's cue). */
export function namesPhrase(text: string, phrase: string): boolean {
  return phraseCue(phrase).test(text);
}

const LEARNED_PREFIX = 'learned-';

/** Whether a lesson id (`Memory.lesson`) is one learned from the organization. */
export function isLearnedLesson(id: string | null | undefined): boolean {
  return typeof id === 'string' && id.startsWith(LEARNED_PREFIX);
}

/** The id of the lesson a phrase teaches ("serving size" → "learned-serving-size"). */
export function learnedLessonId(phrase: string): string {
  return `${LEARNED_PREFIX}${phrase.replace(/\s+/g, '-')}`;
}

/** The phrase a learned lesson's id names ("learned-serving-size" → "serving size"). */
export function phraseOfLesson(id: string): string {
  return id.slice(LEARNED_PREFIX.length).replace(/-/g, ' ');
}

/** The rule a learned lesson states for a kind (its entry's `learnedRule`). */
function ruleOf(kind: RoutineKind): string {
  return KIND_ENTRIES.find((entry) => entry.kind === kind)!.learnedRule;
}

/**
 * The lesson a phrase teaches fixes of this kind, as a lesson entry; `check` is the kind's own
 * check. Its one cue, the phrase, weighs 1: the score a catalog lesson needs to be named.
 */
export function learnedLesson(
  phrase: string,
  kind: RoutineKind,
  check: string,
  rule: string = ruleOf(kind),
): LearnedLesson {
  return {
    id: learnedLessonId(phrase),
    title: rule.replace('{p}', phrase),
    description: `Fixes in several repositories of this organization broke on the ${phrase}.`,
    check,
    cues: [[phraseCue(phrase), 1]],
    kind,
    phrase,
  };
}
