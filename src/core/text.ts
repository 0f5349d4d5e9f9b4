/**
 * Text helpers shared by cue detection, the in-memory retriever, merging and diversity.
 * Pure: no I/O.
 */

/** Words too common to carry meaning in a task description or an insight. */
const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how if in into is it its ' +
    'may might must no nor not of on once only or our out own so such than that the their them then there ' +
    'these they this those to too under up very was we were what when where which while who why will with ' +
    'would you your fix fixes fixed fixing bug bugs issue issues closes close closed resolves resolved ' +
    'should after before also all any each more most other some same just about via'
  ).split(' '),
);

/** Splits camelCase and PascalCase words, lower-cases, cuts at every non-alphanumeric character. */
export function rawTokens(text: string): string[] {
  // (NFKC leaves ASCII as it is: most texts skip the normalization)
  // eslint-disable-next-line no-control-regex
  const spaced = (/^[\x00-\x7f]*$/.test(text) ? text : text.normalize('NFKC'))
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase();
  return spaced.split(/[^\p{L}\p{N}]+/u).filter((t) => t.length >= 2);
}

/** A light suffix stemmer (plural, -ing, -ed, -ly): "parsing", "parsed", "parses" → "pars". */
export function stem(token: string): string {
  if (token.length <= 4 || /\d/.test(token)) return token;
  for (const suffix of ['ations', 'ation', 'ings', 'ing', 'edly', 'ies', 'ied', 'ed', 'es', 'ly', 's']) {
    if (token.endsWith(suffix) && token.length - suffix.length >= 3) {
      const base = token.slice(0, -suffix.length);
      return suffix === 'ies' || suffix === 'ied' ? `${base}y` : base;
    }
  }
  return token;
}

/** token → its term ('' for a stop word): words repeat (Zipf), so indexing a pool stems each once */
const termOf = new Map<string, string>();
const TERM_CACHE_LIMIT = 100_000;

/**
 * The version of what `terms` returns for a text. Pool files made for the Action carry their
 * memories' terms counted ahead (src/core/retrieval/pool-file.ts); a reader uses them only when they were
 * counted by the same version. Bump it whenever a change to rawTokens, stem, the stop words or
 * terms changes any output (__tests__/core/text-terms.test.ts pins a sample).
 */
export const TERMS_VERSION = 1;

/** Tokens for retrieval: raw tokens without stop words, stemmed. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const token of rawTokens(text)) {
    let term = termOf.get(token);
    if (term === undefined) {
      term = STOP_WORDS.has(token) ? '' : stem(token);
      if (termOf.size >= TERM_CACHE_LIMIT) termOf.clear();
      termOf.set(token, term);
    }
    if (term !== '') out.push(term);
  }
  return out;
}

export function termSet(text: string): Set<string> {
  return new Set(terms(text));
}

/** |A ∩ B| / |A ∪ B|; 0 for two empty sets. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared += 1;
  return shared / (a.size + b.size - shared);
}

/** Cosine similarity of two vectors of the same length (0 when either is all zeros). */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** A commit id as it stands in prose: 7 to 40 hex digits with a digit and a letter ("2147483647" is a number). */
export const COMMIT_ID = String.raw`\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b`;

/**
 * A text as cue detection reads it: issue references and commit ids dropped (a "#1834" is not a
 * UTC offset), and code names also read as words ("LineDecoding" → "Line Decoding",
 * "get_terminal_size" → "get terminal size"), next to the original.
 */
export function cueText(text: string): string {
  const cleaned = text.replace(
    new RegExp(String.raw`\(?#\d+\)?|\bgh-\d+\b|\bissue[-_ ]?\d+\b|${COMMIT_ID}`, 'gi'),
    ' ',
  );
  // a runtime exception's name is one word (a TypeError is bad input, not a type checker's finding)
  const split = cleaned
    .replace(/\b([A-Z][a-z]+)+(Error|Exception)\b/g, (name) => name.toLowerCase())
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/(\w)[_.](?=\w)/g, '$1 ');
  return split === cleaned ? cleaned : `${cleaned}\n${split}`;
}

/** A git trailer line (Signed-off-by, Co-authored-by…): who, not what. */
export const TRAILER = /^\s*(signed-off-by|co-authored-by|reviewed-by|acked-by|tested-by|reported-by|change-id|cc):/i;

/** Lines of a commit or PR body that say nothing of the fix: bots and a squash's housekeeping (trailers apart). */
const NOISE_LINE =
  /^\s*([-*]\s*)?(.*\[bot\]|.*\bpre-commit(\.ci|\.com)?\b|.*\bdependabot\b|this reverts commit\b|for more information, see\b|merge (branch|pull request|remote-tracking)\b|(oops|wip|typo|lint|format(ting)?|review|nits?|cleanup|clean up|fixup!?.*|squash!?.*)\.?$|(address|apply|incorporate)\w* (the )?(review|pr|code review)?\s*(comments?|feedback|suggestions?)\b|(add|update)\w* (a )?(changelog|change log|news|release notes?)( (entry|message|fragment))?\b|(fix|run|apply)\w* (lint|linter|linting|formatting|prettier|black|isort|ruff|clippy|rustfmt|gofmt)\b)/i;

/** The prose of a fix's body as evidence: without trailers, bot lines, links, a squash's housekeeping and a template's setup and checkboxes. */
export function fixProse(body: string): string {
  return withoutTemplateSetup(body)
    .split('\n')
    .filter((line) => !TRAILER.test(line) && !NOISE_LINE.test(line))
    .join('\n')
    .replace(/https?:\/\/\S+/g, ' ')
    .trim();
}

/** A cue pattern ready to test: on the lowercased text when it could drop its `i` flag, else on the text. */
export interface PreparedPattern {
  pattern: RegExp;
  lower: boolean;
}

/**
 * A case-insensitive pattern that names no upper-case letter itself runs without its `i` flag on
 * the lowercased text: the same matches on ASCII text, and much cheaper to compile (an `i` pattern
 * compiles through ICU's case folding, about half of a short run's pattern compilation: the CLI's
 * `recall`, the Action). Any other pattern runs as it is, on the text.
 */
export function preparePattern(pattern: RegExp): PreparedPattern {
  if (!pattern.flags.includes('i') || /[A-Z]/.test(pattern.source.replace(/\\./g, '')))
    return { pattern, lower: false };
  return { pattern: new RegExp(pattern.source, pattern.flags.replace('i', '')), lower: true };
}

type Cues = readonly (readonly [RegExp, number])[];
const preparedLists = new WeakMap<Cues, readonly (readonly [PreparedPattern, number])[]>();

/** The summed weight of the cues a text shows (`lower`: the text lowercased), each list prepared once. */
export function cueWeight(cues: Cues, text: string, lower: string): number {
  let prepared = preparedLists.get(cues);
  if (!prepared) {
    prepared = cues.map(([pattern, weight]) => [preparePattern(pattern), weight] as const);
    preparedLists.set(cues, prepared);
  }
  let sum = 0;
  for (const [{ pattern, lower: onLower }, weight] of prepared) if (pattern.test(onLower ? lower : text)) sum += weight;
  return sum;
}

/**
 * The lines of a Markdown text outside its fenced code blocks (``` or ~~~, closed by a fence of the
 * same kind at least as long; an unclosed one runs to the end).
 */
export function linesOutsideFences(text: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker !== undefined) {
      if (fence === undefined) fence = marker;
      else if (marker.startsWith(fence)) fence = undefined;
      continue;
    }
    if (fence === undefined) lines.push(line);
  }
  return lines;
}

/**
 * A CI runner's own lines in a job log: the step's exit status ("Error: Process completed with exit
 * code 1.") and the "##[error]" / "##[group]" markers. They say that a step failed, not what failed.
 */
const RUNNER_LINE =
  /^\s*(##\[\w+\]\s*)?(Error: )?Process completed with exit code \d+\.?\s*$|^\s*##\[(end)?group\].*$/gm;

/** The text without a CI runner's own lines, and without the "##[error]" marks on the others. */
export function withoutRunnerLines(text: string): string {
  return text.replace(RUNNER_LINE, '').replace(/^(\s*)##\[(error|warning|notice)\]/gm, '$1');
}

/** A heading of an issue template's section about the reporter's setup ("### Environment", "**Desktop (please complete …)**"). */
const SETUP_HEADING =
  /^\s*(#{1,6}\s*|\*\*|__)?\s*(your |the )?(environment|desktop|smartphone|device|system info(rmation)?|versions?( info(rmation)?)?|software versions|platform|setup|runtime)\b[^\n]*$/i;
/** A Markdown heading or a line in bold on its own: where a template's section starts. */
const HEADING = /^\s*(#{1,6}\s+\S|(\*\*|__)[^*_\n]+(\*\*|__):?\s*$)/;
/** A line of the reporter's setup: "- OS: Windows 11", "Node version: 20.11", "Browser: Chrome 121". */
const SETUP_LINE =
  /^\s*([-*+]\s*)?(\*\*|__)?\s*(os|operating system|browser|device|platform|arch(itecture)?|runtime|(\w+(\.js)? )?version|node(\.js)?|python|npm|yarn|pnpm)\s*(\*\*|__)?\s*:/i;
/** A template's checkbox ("- [x] I have searched the existing issues"). */
const CHECKBOX = /^\s*[-*+]\s*\[[ xX]\]/;

/**
 * The text without what an issue template asks every reporter for: the section on their setup
 * (operating system, browser, versions), its "OS: …" lines wherever they are, and the checkboxes.
 * A bug that only shows on one platform says so in its prose; "OS: Windows 11" under "Environment"
 * is where the reporter happened to be.
 */
export function withoutTemplateSetup(text: string): string {
  const kept: string[] = [];
  let inSetup = false;
  for (const line of text.split('\n')) {
    if (HEADING.test(line)) inSetup = SETUP_HEADING.test(line);
    if (inSetup || SETUP_LINE.test(line) || CHECKBOX.test(line)) continue;
    kept.push(line);
  }
  return kept.join('\n');
}

/** The text without its fenced code blocks (an issue's reproduction, a log). */
export function withoutFencedCode(text: string): string {
  return linesOutsideFences(text).join('\n');
}

/** The text without its code: fenced blocks and inline code spans. */
export function withoutCode(text: string): string {
  return withoutFencedCode(text).replace(/`[^`\n]*`/g, ' ');
}
