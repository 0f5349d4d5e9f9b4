/**
 * The qualifier sentences of a rule-written insight: a clause for a second routine ("Where … are
 * involved as well, …") and a run hint per ecosystem ("In a Go module, run it with …"). They are
 * separated from the advice so that the same routine learned with other qualifiers compares as
 * the same insight, and merging collects the qualifiers instead of keeping near-copies. Pure.
 */

const CLAUSE = /\s*Where [^,.\n]+ (?:is|are) involved as well, [^\n]*?\.(?=\s|$)/g;
const RUN_HINT = /\s*In (?:a|an) [^,\n]*?, run it with [^\n]*?\.(?=\s|$)/g;

/** At most this many second-routine clauses and run hints are kept on one insight. */
export const MAX_CLAUSES = 3;
export const MAX_RUN_HINTS = 4;

/** The sentence that adds a second routine's check to an insight. */
export function secondaryClause(label: string, also: string): string {
  return `Where ${label} are involved as well, ${also}.`;
}

function sentences(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((m) => m[0].trim());
}

/** The text without its qualifiers: what the insight advises, whatever else the fix touched. */
export function withoutQualifiers(text: string): string {
  return text.replace(CLAUSE, '').replace(RUN_HINT, '').trim();
}

/** The advice of `base` with the qualifiers of both texts (each once, oldest first, capped). */
export function mergeQualifiers(base: string, other: string): string {
  const clauses = [...new Set([...sentences(base, CLAUSE), ...sentences(other, CLAUSE)])].slice(0, MAX_CLAUSES);
  const hints = [...new Set([...sentences(base, RUN_HINT), ...sentences(other, RUN_HINT)])].slice(0, MAX_RUN_HINTS);
  return [withoutQualifiers(base), ...clauses, ...hints].join(' ');
}
