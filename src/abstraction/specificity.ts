/**
 * The specificity check shared by both abstractors (the research's negative-transfer finding:
 * a memory that names a file, symbol or string of its source fix gets copied into the wrong task).
 *
 * What counts as a leak, found in the insight/workflow/summary text (never the trajectory, which is
 * concrete by design, nor the evidence lines, which exist so a reader can check the source):
 * - a path of the fix, or a sub-path of two segments or more, or a file's name (`merge.ts`);
 * - a distinctive name anywhere: a compound file stem (`url-to-options`, `flag_test`), an identifier
 *   of the fix's title, problem, change or logs in code form (camelCase, PascalCase, snake_case,
 *   dotted calls such as `opts.retry.limit`), or a string literal of several words, verbatim;
 * - a plain word of the fix (a file stem such as `redirects`, a call such as `retry()`, a quoted
 *   single word) only in code form: backticked, quoted, called `word(`, or as `word.ext`.
 *   Common words ("index", "test", "null") never count.
 * Mentions in code form (backticks, quotes, paths, file names, calls) are rewritten to generic
 * words; a distinctive name left in plain prose, or too many mentions, rejects the memory.
 *
 * An insight is abstract by definition, so at that level anything concrete counts, whoever it
 * belongs to (a model's answer may name files and symbols of another project): a file path or
 * file name, a code identifier (camelCase, snake_case, a dotted member, a call), a line number or
 * a quoted string of several words (findConcrete). Platform vocabulary does not count: products
 * ("Node.js", "PostgreSQL"), standard library names (`JSON.parse`), a project's manifests
 * (`package.json`, `go.mod`) and plain commands in backticks (`npm ci`). Pool files are checked the
 * same way where they are read (checkAbstract: refused, not rewritten).
 */
import type { Fix } from '../core/types.js';
import { isTestPath } from '../core/test-paths.js';
import type { AbstractedMemory } from '../ports/index.js';
import {
  BUILTINS,
  ECOSYSTEM_FILES,
  FILE_EXTENSIONS,
  GENERIC_WORDS,
  HOST_NAME,
  SOURCE_DIRS,
  TECH_NAMES,
} from '../core/knowledge/code-words.js';
import { allTexts, mapTexts } from './memory-texts.js';

export interface SpecificityResult {
  ok: boolean;
  /** why the memory was rejected */
  reason?: string;
  /** the memory with its removable mentions replaced by generic words (present when something changed) */
  rewritten?: AbstractedMemory;
}

/** Paths are compared on their last segments only (bounds the work on hostile, very deep paths). */
const MAX_SEGMENTS = 16;

/** More distinct rewritten mentions than this in one memory means it is about the source, not a routine: rejected. */
const MAX_REWRITES = 4;

interface SourceTerms {
  /** lower-case names that leak wherever they appear as a word */
  distinctive: Set<string>;
  /** lower-case plain words that leak only in code form */
  plain: Set<string>;
  /** case-sensitive literals of several words that leak verbatim */
  literals: Set<string>;
  /** lower-case sub-paths (two segments or more) of the fix's files */
  subPaths: Set<string>;
  /** lower-case file names of the fix (`merge.ts`) */
  fileNames: Set<string>;
}

type LeakKind = 'path' | 'test' | 'symbol' | 'string' | 'line';

interface Mention {
  start: number;
  end: number;
  /** what leaks, as it will be reported */
  term: string;
  kind: LeakKind;
  /** in code form: can be replaced by a generic word */
  removable: boolean;
  /** concrete whoever it belongs to (findConcrete), rather than a name of the source fix */
  concrete?: true;
}

const termCache = new WeakMap<Fix, SourceTerms>();

/** Lists what in `text` names a path, symbol or string of the fix (each once, in order of appearance). */
export function leaksSource(text: string, fix: Fix): string[] {
  const seen = new Set<string>();
  for (const mention of findMentions(text, sourceTerms(fix))) seen.add(mention.term);
  return [...seen];
}

/**
 * Checks a memory of the fix; rewrites removable mentions or rejects it, naming what leaks. An
 * insight is also checked for anything concrete, whoever it belongs to (findConcrete).
 */
export function checkSpecificity(memory: AbstractedMemory, fix: Fix): SpecificityResult {
  if (memory.level === 'trajectory') return { ok: true };
  const terms = sourceTerms(fix);
  const find =
    memory.level === 'insight'
      ? (text: string) => withoutOverlaps([...findMentions(text, terms), ...findConcrete(text)])
      : (text: string) => findMentions(text, terms);
  return checkWith(memory, find);
}

/**
 * What an insight read from a pool file names concretely (a file path, a code identifier, a line
 * number, a quoted string), whoever it belongs to: undefined when nothing, else the reason it is
 * refused. Readers of pool files (import, the Action, `mcp --pool`) refuse such an insight.
 */
export function concreteReason(texts: string[]): string | undefined {
  const mentions = texts.flatMap((text) => findConcrete(text));
  if (mentions.length === 0) return undefined;
  return describeConcrete(mentions);
}

function describeConcrete(mentions: Mention[]): string {
  const what: Record<LeakKind, string> = {
    path: 'a file path',
    test: 'a file path',
    symbol: 'a code identifier',
    string: 'a quoted string',
    line: 'a line number',
  };
  const first = mentions[0]!;
  const terms = [...new Set(mentions.map((m) => m.term))].slice(0, 3).join(', ');
  return `names ${what[first.kind]} (${terms})`;
}

function checkWith(memory: AbstractedMemory, find: (text: string) => Mention[]): SpecificityResult {
  const rewrites = new Set<string>();
  const leftovers = new Set<string>();
  const concreteLeftovers: Mention[] = [];
  const seen = new Map<string, Mention[]>();
  const mentionsOf = (text: string): Mention[] => {
    let found = seen.get(text);
    if (!found) seen.set(text, (found = find(text)));
    return found;
  };
  const rewrite = (text: string): string => {
    const mentions = mentionsOf(text);
    if (mentions.length === 0) return text;
    for (const m of mentions) {
      if (m.removable) continue;
      if (m.concrete) concreteLeftovers.push(m);
      else leftovers.add(m.term);
    }
    const removable = mentions.filter((m) => m.removable);
    for (const m of removable) rewrites.add(m.term);
    return removable.length === 0 ? text : replaceMentions(text, removable);
  };
  const rewritten = mapTexts(memory, rewrite);
  if (leftovers.size > 0) {
    return { ok: false, reason: `names its source: ${[...leftovers].slice(0, 3).join(', ')}` };
  }
  if (concreteLeftovers.length > 0) return { ok: false, reason: describeConcrete(concreteLeftovers) };
  if (rewrites.size > MAX_REWRITES) {
    return { ok: false, reason: `too specific: ${rewrites.size} mentions of its source or of code` };
  }
  if (rewrites.size === 0) return { ok: true };
  // a rewrite that still leaks (a mention hidden inside another) is a reject, never a half-clean memory
  const still = [...new Set(allTexts(rewritten).flatMap((t) => find(t).map((m) => m.term)))];
  if (still.length > 0) return { ok: false, reason: `names its source: ${still.slice(0, 3).join(', ')}` };
  return { ok: true, rewritten };
}

/** Mentions in order of appearance, a mention inside an earlier (or longer) one dropped. */
function withoutOverlaps(mentions: Mention[]): Mention[] {
  const sorted = [...mentions].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Mention[] = [];
  for (const m of sorted) if (out.every((o) => m.end <= o.start || m.start >= o.end)) out.push(m);
  return out;
}

// ---------------------------------------------------------------- what the fix names

function sourceTerms(fix: Fix): SourceTerms {
  const cached = termCache.get(fix);
  if (cached) return cached;
  const terms: SourceTerms = {
    distinctive: new Set(),
    plain: new Set(),
    literals: new Set(),
    subPaths: new Set(),
    fileNames: new Set(),
  };
  const names = [...fix.files, ...fix.signals.flatMap((s) => (s.name ? [s.name] : []))];
  for (const file of names) addPath(terms, file);
  const name = fix.repo.split('/')[1];
  if (name) addToken(terms, name, true);
  if (fix.repo.includes('/')) terms.subPaths.add(fix.repo.toLowerCase());

  const prose = [fix.title, fix.problem, ...fix.signals.flatMap((s) => (s.excerpt ? [s.excerpt] : []))];
  for (const text of [...prose, fix.change]) addCodeNames(terms, text);
  for (const text of prose) addQuoted(terms, text, /"([^"\n]{2,120})"|“([^”\n]{2,120})”/g);
  // single quotes only in code: in prose they are apostrophes ("don't ... isn't")
  addQuoted(terms, fix.change, /(?<![\w'])'([^'\n\\]{2,120})'(?![\w'])|"([^"\n\\]{2,120})"/g);

  termCache.set(fix, terms);
  return terms;
}

function addPath(terms: SourceTerms, raw: string): void {
  const path = raw.trim().replace(/\\/g, '/').replace(/^\.\//, '').toLowerCase();
  if (!path) return;
  const segments = path.split('/').filter(Boolean).slice(-MAX_SEGMENTS);
  for (let i = 0; i < segments.length; i += 1) {
    for (let j = i + 2; j <= segments.length; j += 1) terms.subPaths.add(segments.slice(i, j).join('/'));
  }
  const fileName = segments[segments.length - 1] ?? '';
  if (fileName.includes('.') && !fileName.startsWith('.')) terms.fileNames.add(fileName);
  const stemName = fileName.replace(/^\.+/, '').split('.')[0] ?? '';
  if (stemName.length > 3) addToken(terms, stemName, true);
}

/** Sorts a source token into distinctive (compound) or plain (one word). */
function addToken(terms: SourceTerms, rawToken: string, fromPath = false): void {
  const token = rawToken.replace(/\(\)$/, '').replace(/^[$@#]+|[.,:;]+$/g, '');
  if (token.length < 3 || !/[A-Za-z]/.test(token)) return;
  const lower = token.toLowerCase();
  if (isCompound(token, fromPath)) terms.distinctive.add(lower);
  else if (/^[A-Za-z][A-Za-z0-9]*$/.test(token) && token.length > 3 && !GENERIC_WORDS.has(lower)) {
    terms.plain.add(lower);
  }
}

function isCompound(token: string, fromPath: boolean): boolean {
  if (/^[a-z]+$/.test(token)) return false; // the common case: a plain lower-case word
  const lower = token.toLowerCase();
  if (GENERIC_WORDS.has(lower) || TECH_NAMES.has(lower) || BUILTINS.has(lower)) return false;
  if (/[a-z][A-Z]/.test(token)) return true; // camelCase, PascalCase
  if (/[A-Za-z0-9]_[A-Za-z0-9]/.test(token)) return true; // snake_case, SCREAMING_CASE
  if (/[A-Za-z]\.[A-Za-z_$]/.test(token)) {
    // a member access or dotted call, not a file, product or host name ("Node.js", "golang.org")
    return (
      !FILE_EXTENSIONS.test(token) &&
      !HOST_NAME.test(token) &&
      token.split('.').every((part) => /^[A-Za-z_$][\w$]*$/.test(part))
    );
  }
  // kebab-case is distinctive in a file name ("url-to-options"), but ordinary English in prose ("non-empty")
  return fromPath && /[A-Za-z0-9]-[A-Za-z]/.test(token) && !/-\d+$/.test(token);
}

/** Identifiers in code form in the fix's text: backticked, camelCase, snake_case, dotted, calls. */
function addCodeNames(terms: SourceTerms, text: string): void {
  if (!text) return;
  for (const match of text.matchAll(/`([^`\n]{1,120})`/g)) {
    const span = (match[1] ?? '').trim();
    if (/\s/.test(span)) addLiteral(terms, span);
    else addToken(terms, span);
  }
  const done = new Set<string>();
  for (const match of text.matchAll(/[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g)) {
    const token = match[0];
    const call = text[(match.index ?? 0) + token.length] === '(';
    const key = call ? `${token}(` : token;
    if (done.has(key)) continue;
    done.add(key);
    if (isCompound(token, false)) {
      terms.distinctive.add(token.toLowerCase());
      // the members of a dotted name are names too (`opts.retryLimit` → `retryLimit`)
      if (token.includes('.')) for (const part of token.split('.')) addToken(terms, part);
    } else if (call) {
      addToken(terms, token); // a call: `retry(`
    }
  }
}

function addQuoted(terms: SourceTerms, text: string, pattern: RegExp): void {
  if (!text) return;
  for (const match of text.matchAll(pattern)) {
    const span = (match[1] ?? match[2] ?? '').trim();
    if (/\s/.test(span)) addLiteral(terms, span);
    else addToken(terms, span);
  }
}

function addLiteral(terms: SourceTerms, span: string): void {
  // a literal of several words: at least two words of letters, long enough to be specific
  const words = span.match(/[A-Za-z]{2,}/g) ?? [];
  if (span.length >= 8 && words.length >= 2) terms.literals.add(span);
}

// ---------------------------------------------------------------- finding mentions in a memory

const literalIndexes = new WeakMap<SourceTerms, Map<string, string[]>>();

/** The literals of a fix by their first word, so a text is searched only for literals that may occur. */
function literalIndex(terms: SourceTerms): Map<string, string[]> {
  let index = literalIndexes.get(terms);
  if (!index) {
    index = new Map();
    for (const literal of terms.literals) {
      const key = /[A-Za-z]{2,}/.exec(literal)?.[0] ?? '';
      index.set(key, [...(index.get(key) ?? []), literal]);
    }
    literalIndexes.set(terms, index);
  }
  return index;
}

/** A run of characters that may form a path or file name (checked for `/` or `.` after). */
const PATHISH = /[\w@./-]+/g;

function findMentions(text: string, terms: SourceTerms): Mention[] {
  if (!text) return [];
  const mentions: Mention[] = [];
  const taken: [number, number][] = [];
  const free = (start: number, end: number) => taken.every(([s, e]) => end <= s || start >= e);
  const add = (mention: Mention) => {
    if (!free(mention.start, mention.end)) return;
    mentions.push(mention);
    taken.push([mention.start, mention.end]);
  };

  // 1. code spans and quotes: the whole span goes if anything inside it leaks
  for (const match of text.matchAll(/`([^`\n]+)`|"([^"\n]+)"|“([^”\n]+)”|(?<![\w'])'([^'\n]+)'(?![\w'])/g)) {
    const inner = match[1] ?? match[2] ?? match[3] ?? match[4] ?? '';
    const found = leakInSpan(inner, terms);
    if (found) {
      add({ start: match.index ?? 0, end: (match.index ?? 0) + match[0].length, ...found, removable: true });
    }
  }
  // 2. paths and file names
  for (const match of text.matchAll(PATHISH)) {
    const token = match[0].replace(/[.]+$/, '');
    if (!/[./]/.test(token)) continue;
    const found = pathLeak(token, terms);
    if (found) add({ start: match.index ?? 0, end: (match.index ?? 0) + token.length, ...found, removable: true });
  }
  // 3. calls of a source name: `retry(`
  for (const match of text.matchAll(/(?<![\w$])([A-Za-z_$][\w$]*)\(\)?/g)) {
    const name = (match[1] ?? '').toLowerCase();
    if (terms.plain.has(name) || terms.distinctive.has(name)) {
      add({
        start: match.index ?? 0,
        end: (match.index ?? 0) + match[0].length,
        term: match[1] ?? name,
        kind: 'symbol',
        removable: true,
      });
    }
  }
  // 4. distinctive names in plain prose: not removable
  for (const match of text.matchAll(/(?<![\w$])[A-Za-z_$][\w$]*(?:[.-][A-Za-z_$][\w$]*)*/g)) {
    const token = match[0];
    const hit = distinctivePart(token, terms);
    if (hit)
      add({
        start: match.index ?? 0,
        end: (match.index ?? 0) + token.length,
        term: hit,
        kind: 'symbol',
        removable: false,
      });
  }
  // 5. literals of several words, verbatim: not removable
  if (terms.literals.size > 0) {
    const index = literalIndex(terms);
    const words = new Set(text.match(/[A-Za-z]{2,}/g) ?? []);
    for (const word of words) {
      for (const literal of index.get(word) ?? []) {
        for (let from = text.indexOf(literal); from >= 0; from = text.indexOf(literal, from + literal.length)) {
          add({ start: from, end: from + literal.length, term: literal, kind: 'string', removable: false });
        }
      }
    }
  }
  return mentions.sort((a, b) => a.start - b.start);
}

/** The token, or one of its dotted or hyphenated parts, when it is a distinctive name of the fix. */
function distinctivePart(token: string, terms: SourceTerms): string | undefined {
  if (terms.distinctive.size === 0) return undefined;
  if (terms.distinctive.has(token.toLowerCase())) return token;
  if (!/[.-]/.test(token)) return undefined;
  return token.split(/[.-]/).find((p) => terms.distinctive.has(p.toLowerCase()));
}

function leakInSpan(inner: string, terms: SourceTerms): { term: string; kind: LeakKind } | undefined {
  const span = inner.trim();
  if (terms.literals.has(span)) return { term: span, kind: 'string' };
  for (const literal of terms.literals) if (span.includes(literal)) return { term: literal, kind: 'string' };
  const bare = span.replace(/\(\)$/, '').toLowerCase();
  if (terms.plain.has(bare) || terms.distinctive.has(bare)) return { term: span.replace(/\(\)$/, ''), kind: 'symbol' };
  for (const match of span.matchAll(PATHISH)) {
    if (!/[./]/.test(match[0])) continue;
    const found = pathLeak(match[0].replace(/[.]+$/, ''), terms);
    if (found) return found;
  }
  for (const match of span.matchAll(/[A-Za-z_$][\w$]*(?:[.-][A-Za-z_$][\w$]*)*/g)) {
    const token = match[0];
    const hit = distinctivePart(token, terms);
    if (hit) return { term: hit, kind: 'symbol' };
    if (terms.plain.has(token.toLowerCase()) && span.includes(`${token}(`)) return { term: token, kind: 'symbol' };
  }
  return undefined;
}

function pathLeak(token: string, terms: SourceTerms): { term: string; kind: LeakKind } | undefined {
  const lower = token.toLowerCase().replace(/^\.\//, '').replace(/\/$/, '');
  const kind: LeakKind = isTestPath(lower) ? 'test' : 'path';
  if (lower.includes('/')) {
    const segments = lower.split('/').filter(Boolean);
    for (let i = 0; i < segments.length; i += 1) {
      for (let j = i + 2; j <= Math.min(segments.length, i + MAX_SEGMENTS); j += 1) {
        if (terms.subPaths.has(segments.slice(i, j).join('/'))) return { term: token, kind };
      }
    }
  }
  const fileName = lower.split('/').pop() ?? '';
  if (terms.fileNames.has(fileName)) return { term: token, kind };
  // a source stem with any extension: `redirects.ts` for test/redirects.js
  const dot = fileName.indexOf('.');
  if (dot > 0 && FILE_EXTENSIONS.test(fileName.slice(fileName.lastIndexOf('.')))) {
    const stemName = fileName.slice(0, dot);
    if (terms.plain.has(stemName) || terms.distinctive.has(stemName)) return { term: token, kind };
  }
  return undefined;
}

// ---------------------------------------------------------------- concrete, whoever it belongs to

const LINE_NUMBER =
  /(?:\b(?:at|on|in|near|around)\s+)?(?:\b(?:lines?|ln\.?)\s*#?\d+(?:\s*(?:-|–|to|and)\s*\d+)?\b|\bL\d+(?:-L?\d+)?\b)/gi;
const URL = /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi;

/** Platform vocabulary: a product, a standard library name, a generic word. */
function isVocabulary(name: string): boolean {
  const lower = name.replace(/\(\)$/, '').toLowerCase();
  return GENERIC_WORDS.has(lower) || TECH_NAMES.has(lower) || BUILTINS.has(lower);
}

/** A code identifier whoever it belongs to: camelCase, PascalCase, snake_case, a dotted member. */
function isIdentifier(token: string): boolean {
  if (isVocabulary(token) || ECOSYSTEM_FILES.has(token.toLowerCase())) return false;
  // abbreviations of prose ("e.g", "i.e", "a.k.a") are not members
  if (token.includes('.') && token.split('.').some((part) => part.length < 2)) return false;
  return isCompound(token, false);
}

/** A file path or file name whoever it belongs to (not a URL, "and/or", a product or a manifest). */
function isFilePath(token: string): boolean {
  const bare = token.replace(/[.,;:]+$/, '');
  const segments = bare.split('/').filter(Boolean);
  const last = segments[segments.length - 1] ?? '';
  const lower = last.toLowerCase();
  const ext = lower.includes('.') && FILE_EXTENSIONS.test(lower.slice(lower.lastIndexOf('.')));
  if (segments.length <= 1 && !/^(\.{0,2}\/|~\/)/.test(bare)) {
    // a file name: `invoiceDates.js`, but not "Node.js", `package.json` or "v1.2"
    if (!ext || ECOSYSTEM_FILES.has(lower) || TECH_NAMES.has(lower)) return false;
    return !/^[A-Z][a-z0-9]*\.js$/.test(last);
  }
  // one segment after "/", "./" or "~/" is a path only as a file ("/etc" no, "./run.sh" yes)
  if (segments.length < 2) return ext;
  if (ext || /^(\.{0,2}\/|~\/)/.test(bare)) return true;
  if (segments.some((segment) => SOURCE_DIRS.has(segment.toLowerCase()))) return true;
  // a segment in code form ("lib/invoiceDates", "pkg_utils/x"), not words ("read/write", "CI/CD")
  return segments.some((segment) => /[._\d]|[a-z][A-Z]/.test(segment));
}

/** What a span in backticks names: a path, a line, an identifier or a call; plain commands do not count. */
function concreteInCode(inner: string): LeakKind | undefined {
  const span = inner.trim();
  if (new RegExp(LINE_NUMBER.source, 'i').test(span)) return 'line';
  for (const match of span.matchAll(/[\w@./~-]+/g)) if (/[./]/.test(match[0]) && isFilePath(match[0])) return 'path';
  for (const match of span.matchAll(/[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g)) {
    const token = match[0];
    const called = span[(match.index ?? 0) + token.length] === '(';
    if (isIdentifier(token) || (called && !isVocabulary(token))) return 'symbol';
  }
  return undefined;
}

/** Everything concrete in a text, whoever it belongs to (see the header). */
function findConcrete(text: string): Mention[] {
  if (!text) return [];
  const mentions: Mention[] = [];
  const taken: [number, number][] = [];
  const add = (start: number, end: number, term: string, kind: LeakKind, removable: boolean) => {
    if (!taken.every(([s, e]) => end <= s || start >= e)) return;
    taken.push([start, end]);
    if (term !== '') mentions.push({ start, end, term, kind, removable, concrete: true });
  };
  // URLs are the screen's business (its allow-list); nothing inside one counts here
  for (const match of text.matchAll(URL)) add(match.index ?? 0, (match.index ?? 0) + match[0].length, '', 'path', true);
  // 1. code spans and quotes: removable as a whole
  for (const match of text.matchAll(/`([^`\n]+)`|"([^"\n]+)"|“([^”\n]+)”|(?<![\w'])'([^'\n]+)'(?![\w'])/g)) {
    const start = match.index ?? 0;
    const inner = match[1] ?? match[2] ?? match[3] ?? match[4] ?? '';
    const kind =
      match[1] !== undefined
        ? concreteInCode(inner)
        : // a quoted string of several words, or of code; one plain word in quotes is prose
          /\s/.test(inner.trim()) || /[^A-Za-z' -]/.test(inner)
          ? 'string'
          : isIdentifier(inner)
            ? 'symbol'
            : undefined;
    if (kind) add(start, start + match[0].length, match[0], kind, true);
  }
  // 2. line numbers ("line 12", "at lines 10-20", "L12"), a path's ":12" with its path below
  for (const match of text.matchAll(LINE_NUMBER)) {
    add(match.index ?? 0, (match.index ?? 0) + match[0].length, match[0].trim(), 'line', true);
  }
  // 3. paths and file names (with a ":12" line suffix)
  for (const match of text.matchAll(/[\w@./~-]+(?::\d+(?::\d+)?)?/g)) {
    const token = match[0].replace(/[.]+$/, '');
    const path = token.replace(/:\d+(?::\d+)?$/, '');
    if (!/[./]/.test(path) || !isFilePath(path)) continue;
    add(
      match.index ?? 0,
      (match.index ?? 0) + token.length,
      path,
      isTestPath(path.toLowerCase()) ? 'test' : 'path',
      true,
    );
  }
  // 4. calls: `parse(`, `retry()` (not "test(s)")
  for (const match of text.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\((?!s\))\)?/g)) {
    const name = match[1] ?? '';
    if (/[A-Za-z]{2}/.test(name) && !isVocabulary(name))
      add(match.index ?? 0, (match.index ?? 0) + match[0].length, name, 'symbol', true);
  }
  // 5. identifiers in plain prose: not removable
  for (const match of text.matchAll(/(?<![\w$])[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g)) {
    const token = match[0];
    if (isIdentifier(token)) add(match.index ?? 0, (match.index ?? 0) + token.length, token, 'symbol', false);
  }
  return mentions.sort((a, b) => a.start - b.start);
}

// ---------------------------------------------------------------- rewriting

const GENERIC: Record<LeakKind, string> = {
  path: 'the affected module',
  test: 'the affected test file',
  symbol: 'the affected code',
  string: 'a specific value',
  line: '',
};

function replaceMentions(text: string, mentions: Mention[]): string {
  let out = text;
  for (const m of [...mentions].sort((a, b) => b.start - a.start)) {
    let start = m.start;
    let phrase = GENERIC[m.kind];
    // absorb an article before the mention: "the `foo.ts` module" → "the affected module module" is avoided below
    const before = out.slice(0, start);
    const article = /\b(the|a|an)\s+$/i.exec(before);
    if (article) start -= article[0].length;
    const head = out.slice(0, start);
    if (/(^|[.!?:]\s+)$/.test(head)) phrase = phrase.charAt(0).toUpperCase() + phrase.slice(1);
    out = head + phrase + out.slice(m.end);
  }
  return tidy(out);
}

/** Collapses the seams a rewrite leaves: repeated phrases, "module module", doubled spaces. */
function tidy(text: string): string {
  let out = text;
  for (const phrase of Object.values(GENERIC).filter(Boolean)) {
    const p = phrase.replace(/ /g, '\\s+');
    out = out.replace(
      new RegExp(`(${p})(?:(?:\\s*,\\s*|\\s+(?:and|or)\\s+|\\s*,\\s*(?:and|or)\\s+)${p})+`, 'gi'),
      '$1',
    );
  }
  out = out.replace(/\b(module|code|test file|value)\s+(module|file|function|method|class|helper|code)\b/gi, '$1');
  return out.replace(/[ \t]{2,}/g, ' ').replace(/\s+([,.;:])/g, '$1');
}
