/**
 * The parts of a rule-written insight's content: its advice (the check that catches the lesson)
 * and the examples of the fixes that taught it, in general words ("Seen in: socket connect
 * listener memory leak; abort event listeners not always cleaned up."). Merging a fix into an
 * insight of the same lesson adds its example instead of a near-copy of the advice. Older pools
 * also carry qualifier sentences (second-routine clauses, per-ecosystem run hints): they are not
 * advice either, and compare as nothing. Pure.
 */

const CLAUSE = /\s*Where [^,.\n]+ (?:is|are) involved as well, [^\n]*?\.(?=\s|$)/g;
const RUN_HINT = /\s*In (?:a|an) [^,\n]*?, run it with [^\n]*?\.(?=\s|$)/g;
const EXAMPLES = /\s*Seen in: ([^\n]*)\.\s*$/;

/** At most this many examples are kept on one insight. */
export const MAX_EXAMPLES = 3;

/** The text without its examples and qualifiers: what the insight advises. */
export function withoutQualifiers(text: string): string {
  return text.replace(EXAMPLES, '').replace(CLAUSE, '').replace(RUN_HINT, '').trim();
}

/** A title as compared for sameness: case, punctuation and spacing aside. */
export function titleKey(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Two insights with this title teach one lesson: one title, one insight. */
export function sameTitle(a: string, b: string): boolean {
  return titleKey(a) === titleKey(b);
}

/** The examples an insight's content lists. */
export function examplesOf(text: string): string[] {
  const found = EXAMPLES.exec(text);
  return found
    ? found[1]!
        .split('; ')
        .map((e) => e.trim())
        .filter((e) => e !== '')
    : [];
}

/** Advice followed by its examples (each once, oldest first, capped). */
export function withExamples(advice: string, examples: readonly string[]): string {
  const clean = [
    ...new Set(
      examples.map((e) =>
        e
          .replace(/[;\n]+/g, ',')
          .replace(/\.+$/, '')
          .trim(),
      ),
    ),
  ]
    .filter((e) => e !== '')
    .slice(0, MAX_EXAMPLES);
  return clean.length === 0 ? advice : `${advice} Seen in: ${clean.join('; ')}.`;
}

/** The advice of `base` with the examples of both texts. */
export function mergeExamples(base: string, other: string): string {
  return withExamples(withoutQualifiers(base), [...examplesOf(base), ...examplesOf(other)]);
}
