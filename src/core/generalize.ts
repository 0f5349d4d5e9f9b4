/**
 * A fix's subject in repository-agnostic words: what broke, without the names of its source.
 * Issue references, commit prefixes and the repair verb go; code-form names (`backticks`,
 * camelCase, snake_case, calls, paths, flags, quoted strings) become generic nouns ("an option",
 * "a function", "a flag"); plain words stay when they are general vocabulary (a dictionary of
 * common English and software words, given by the caller) and are dropped otherwise. So
 * "Fix socket `connect` listener memory leak (#406)" reads "Socket connect listener memory leak",
 * and "Fix the default for the modifyCoreObjects option" reads "The default for an option".
 * Pure: the vocabulary is an argument.
 */
import { COMMIT_ID } from './text.js';

export interface Vocabulary {
  /** true for a general word (lower case): common English or software vocabulary */
  has(word: string): boolean;
}

/** Nouns that say what a code name is; "the fooBar option" becomes "an option". */
const KIND_NOUNS =
  /^(options?|flags?|methods?|functions?|fields?|parameters?|params?|arguments?|args?|types?|class(es)?|commands?|subcommands?|hooks?|events?|propert(y|ies)|headers?|variables?|values?|modules?|packages?|settings?|keys?|attributes?|decorators?|plugins?|errors?|exceptions?|helpers?|calls?|callbacks?|handlers?|methods?|endpoints?|routes?|fields?|structs?|traits?|interfaces?|constants?|macros?|directives?|components?|templates?|placeholders?)$/i;

/** Words of the repair itself, dropped from the front of a subject. */
const LEADING_REPAIR =
  /^\s*(bug ?fix(es)?|hot ?fix(es)?|fix(es|ed|ing)?|patch(es|ed)?|resolve[sd]?|repair(s|ed)?|correct(s|ed)?)\b(\s+(for|of|to|the bug where|bug where|a bug (where|with|in)|an? issue (where|with|in)|issue (where|with)|regression (where|with|in)|problem (where|with))\b)?[\s:,-]*/i;

function article(noun: string): string {
  return /^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`;
}

/** The generic noun for a code-form name, by its shape. */
function nounForShape(name: string): string {
  if (/^-{1,2}[\w-]/.test(name)) return 'a flag';
  if (/[/\\]/.test(name) || /\.[a-z]{1,4}$/i.test(name)) return 'a file';
  if (/\(\)?$/.test(name) || /\.\w+$/.test(name)) return 'a function';
  if (/^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(name)) return 'an environment variable';
  if (/^[A-Z]/.test(name)) return 'a type';
  return 'a function';
}

const CODE_SPAN = /`([^`]+)`/g;
const QUOTED = /(^|[\s(])(["'])([^"'\n]{1,60})\2(?=$|[\s),.:;])/g;
const ISSUE_REFS =
  /\s*\(?\b(closes?|closed|fixes|fixed|resolves?|resolved|see|refs?|related to|this fixes|fix(es)?)\s+(#\d+|gh-\d+|[\w.-]+\/[\w.-]+#\d+)(\s*(,|and)\s*#\d+)*\)?|\s*\(#\d+\)|\s*\(gh-\d+\)|(^|\s)#\d+\b|\s*\bgh-\d+\b|\bissue[_ -]?\d+\b|\(\s*\)/gi;
const SHA = new RegExp(COMMIT_ID, 'g');
/** A "scope: " or "type(scope): " prefix of a commit subject. */
const PREFIX = /^\s*([\w./-]+)(\([^)]*\))?!?:\s+/;
/** A person: capitalized names ("Nicholas F. Fabry", "Andreas Köhler <a@b.de>") or a handle ("@octocat"). */
const PERSON = String.raw`(?:@[\w-]+|\p{Lu}[\p{L}'-]*\.?(?:\s+\p{Lu}[\p{L}'-]*\.?)*)(?:\s*<[^>\s]*>)?`;
const CREDIT_VERBS =
  'reported|suggested|found|noticed|spotted|requested|submitted|contributed|proposed|diagnosed|patched|patch|pointed out'
    .split('|')
    .map((verb) => `[${verb[0]!.toUpperCase()}${verb[0]}]${verb.slice(1)}`)
    .join('|');
/**
 * Who found, asked for or wrote a fix ("as reported by Erik Brown", "(patch by Jane Roe)") is no
 * part of its condition, and a person's name is its source's; the credit ends its clause ("found by
 * fuzzing", "reported by Windows users" stay).
 */
const CREDIT = new RegExp(
  String.raw`[,;]?\s*\(?\b(?:[Aa]s )?(?:originally )?(?:${CREDIT_VERBS}) by ${PERSON}(?:\s+(?:and|&)\s+${PERSON})?\)?(?=\s*(?:[.,;:)]|$))`,
  'gu',
);
/** "Thanks to Jane Roe for the patch:", "(thanks @octocat)", "thanks @octocat" */
const THANKS =
  /[,;]?\s*\b(many )?thanks( go(es)?)? to\b[^.;:)]*[.;:]?|\s*\(\s*(many )?thanks\b[^)]*\)|[,;]?\s*\bthanks @[\w-]+/gi;
/** Leading gitmoji, as a shortcode (":bug:") or the emoji itself: a commit's tag, not its words. */
const GITMOJI = /^(\s*(:[a-z0-9_+-]+:|\p{Extended_Pictographic}\uFE0F?))+\s*/u;

/** True when a token has the shape of a code name rather than a word. */
function isCodeShaped(token: string): boolean {
  return (
    /[a-z][A-Z]/.test(token) || // camelCase
    /[A-Z]{2,}[a-z]/.test(token) || // PascalCase with an acronym
    /\w_\w/.test(token) || // snake_case
    /\w\.\w/.test(token) || // dotted name
    /\w\(\)?$/.test(token) || // call
    /^-{1,2}[a-z]/i.test(token) || // flag
    /[/\\]/.test(token) // path
  );
}

export interface Generalized {
  /** the condition, in general words (may be empty when nothing general is left) */
  text: string;
  /** what was dropped or replaced, for tests and reports */
  removed: string[];
}

/**
 * The subject of a fix as a repository-agnostic condition. `sourceNames` are words that name the
 * source (its owner and repository), always removed.
 */
export function generalizeSubject(
  subject: string,
  vocabulary: Vocabulary,
  sourceNames: readonly string[] = [],
): Generalized {
  const removed: string[] = [];
  // the whole names, and those of their parts that are no general word ("fns" of "date-fns", not "date")
  const names = new Set(
    sourceNames.flatMap((n) => {
      const lower = n.toLowerCase();
      const parts = lower.split(/[^a-z0-9]+/).filter((p) => p.length >= 2 && !vocabulary.has(p));
      return [lower, ...parts];
    }),
  );
  // § and ¤ mark the generic nouns below; a subject's own are dropped first
  // its first sentence: a wrapped subject read whole can run on ("… files. (That revision adds …")
  let text = (subject.split('\n')[0] ?? '')
    .replace(/^(.+?[.!?])\s+(?=[A-Z(]).*$/, '$1')
    .replace(/[§¤]/g, ' ')
    .replace(/\s*(…|\.{3})\s*$/, '')
    .replace(CREDIT, '')
    .replace(THANKS, '');
  text = text.replace(ISSUE_REFS, ' ').replace(SHA, ' ');
  text = text.replace(GITMOJI, '');
  const prefix = PREFIX.exec(text);
  if (prefix) {
    removed.push(prefix[0].trim());
    text = text.slice(prefix[0].length);
  }
  text = text.replace(LEADING_REPAIR, '');
  text = text.replace(
    /\s+and added (a )?tests?\.?|\s*,?\s+and (add|adds|added|include|includes|included) (a )?tests?\b.*$/i,
    '',
  );

  const placeholder = (noun: string) => `§${noun.replace(/ /g, '¤')}§`;
  // code spans and quoted strings first: a lone general word stays, anything else is a generic noun
  text = text.replace(CODE_SPAN, (_, inner: string) => {
    const word = inner.trim();
    if (/^([+-]?[\d.]+|null|undefined|none|nil|true|false|nan|-{1,2})$/i.test(word)) return word;
    if (/^[a-z]+$/i.test(word) && vocabulary.has(word.toLowerCase()) && !names.has(word.toLowerCase())) return word;
    removed.push(inner);
    return placeholder(nounForShape(word));
  });
  text = text.replace(QUOTED, (_, lead: string, _q: string, inner: string) => {
    removed.push(inner);
    if (/^-+$/.test(inner.trim()))
      return `${lead}${placeholder(inner.trim() === '-' ? 'a lone dash' : 'a double dash')}`;
    return `${lead}${placeholder('a special value')}`;
  });

  const words = text.split(/\s+/).filter((w) => w !== '');
  const out: string[] = [];
  for (let i = 0; i < words.length; i += 1) {
    const raw = words[i]!;
    if (raw.startsWith('§')) {
      out.push(raw);
      continue;
    }
    const [, lead = '', core = '', trail = ''] = /^([("'[]*)(.*?)([)"'\],.:;!?]*)$/.exec(raw) ?? [];
    if (core === '') continue;
    const lower = core.toLowerCase();
    if (names.has(lower)) {
      removed.push(core);
      out.push(`${lead}${placeholder('the project')}${trail}`);
      continue;
    }
    if (isCodeShaped(core) && !/^[\w]+\.(js|ts|py|go|rs)$/i.test(lower) && !/^[a-z]+\.js$/i.test(core)) {
      removed.push(core);
      out.push(`${lead}${placeholder(nounForShape(core))}${trail}`);
      continue;
    }
    if (/^v?\d+(\.\d+)*\+?$|^\d+(:\d+)+$|^[+-]\d+$|^(utc|gmt)[+-]\d{1,2}(:\d{2})?$/i.test(core)) {
      out.push(raw);
      continue;
    }
    if (/^[a-z]+\.js$/i.test(core)) {
      out.push(raw);
      continue;
    }
    const parts = lower.split(/[-/]/).filter((p) => p !== '');
    if (parts.length > 0 && parts.every((p) => vocabulary.has(p) || /^\d+$/.test(p))) {
      out.push(raw);
      continue;
    }
    removed.push(core);
    out.push(`${lead}${placeholder(/^[A-Z]/.test(core) ? 'a component' : 'a name')}${trail}`);
  }

  // "an option option" → "an option"; "the a function" → "a function"
  const joined = out.join(' ');
  let result = joined
    .replace(/¤/g, ' ')
    .replace(
      /(?:\b(the|a|an|its|their|this|that)\s+)?§(a|an|the) ([^§]+)§(\s+(\S+))?/g,
      (
        _m: string,
        det: string | undefined,
        own: string,
        noun: string,
        tail: string | undefined,
        next: string | undefined,
      ) => {
        const definite = det && /^(the|its|their|this|that)$/i.test(det) ? det : own === 'the' ? 'the' : undefined;
        const nextWord = (next ?? '').replace(/[^\w]/g, '');
        if (nextWord && KIND_NOUNS.test(nextWord)) {
          return `${definite ?? article(nextWord).split(' ')[0]!} ${next}`;
        }
        return `${definite ? `${definite} ${noun}` : article(noun)}${tail ?? ''}`;
      },
    );
  result = result.replace(/§/g, '');
  result = result
    .replace(/\b(an?|the) (an?|the) /gi, '$2 ')
    .replace(/\b(a component|a name)( (a component|a name))+/g, '$1')
    .replace(/\s+([,.:;)])/g, '$1')
    .replace(/\(\s*\)/g, '')
    .replace(/\s{2,}/g, ' ')
    .replace(/^[\s,.:;-]+|[\s,.:;-]+$/g, '')
    .trim();
  // a trailing "in a function" says nothing, and a cut title leaves its last preposition hanging
  result = result.replace(/\s+(in|of|for|from|on|with|to|by|at)\s+(an?|the) (function|name|component|type|file)$/i, '');
  // ("conversion of decimal seconds to", a title cut short with "…")
  result = result.replace(/(\s+(in|of|for|from|on|with|to|by|at|into|via|and|or|the|an?))+[\s,.:;-]*$/i, '');
  result = result.replace(/\ba ([aeiou])/gi, (m, v: string) => (m.startsWith('A') ? `An ${v}` : `an ${v}`));
  return { text: result, removed };
}

/** Upper-cases the first letter. */
export function sentenceCase(text: string): string {
  return text.length === 0 ? text : text[0]!.toUpperCase() + text.slice(1);
}
