/**
 * The parts of a rule-written insight's content: its advice (the check that catches the lesson)
 * and the examples of the fixes that taught it, in general words ("Seen in: socket connect
 * listener memory leak; abort event listeners not always cleaned up."), rendered from the
 * insight's `examples` field. Merging a fix into an insight of the same lesson adds its example
 * instead of a near-copy of the advice, and renders the content again from the merged list. Older pools
 * also carry qualifier sentences (second-routine clauses, per-ecosystem run hints): they are not
 * advice either, and compare as nothing. Pure.
 */

const CLAUSE = /\s*Where [^,.\n]+ (?:is|are) involved as well, [^\n]*?\.(?=\s|$)/g;
const RUN_HINT = /\s*In (?:a|an) [^,\n]*?, run it with [^\n]*?\.(?=\s|$)/g;
const EXAMPLES = /\s*Seen in: ([^\n]*)\.\s*$/;

/** At most this many examples are kept on one insight. */
export const MAX_EXAMPLES = 3;

/**
 * What an insight advises: its content without the closing sentence that renders its `examples`
 * (when the content still ends with it as rendered: a person may have rewritten it) and without the
 * qualifiers of older pools.
 */
export function adviceOf(insight: { content: string; examples: readonly string[] }): string {
  const sentence = examplesSentence(insight.examples);
  const { content } = insight;
  const advice = sentence !== '' && content.endsWith(sentence) ? content.slice(0, -sentence.length) : content;
  return advice.replace(CLAUSE, '').replace(RUN_HINT, '').trim();
}

/** The closing sentence that lists examples (kept as cleanExamples keeps them), or nothing. */
function examplesSentence(examples: readonly string[]): string {
  return examples.length === 0 ? '' : ` Seen in: ${examples.join('; ')}.`;
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

/**
 * The examples an insight's content lists in its closing "Seen in: …." sentence. Only what derives
 * the identity of a memory written before it had fields (src/core/knowledge/identity.ts) reads it:
 * everything else reads `Memory.examples`.
 */
export function examplesOf(text: string): string[] {
  const found = EXAMPLES.exec(text);
  return found
    ? found[1]!
        .split('; ')
        .map((e) => e.trim())
        .filter((e) => e !== '')
    : [];
}

/**
 * Examples as an insight keeps them: each once, without ";", newlines, a closing "." or spaces
 * around, at most MAX_EXAMPLES (cleaning them again changes nothing).
 */
export function cleanExamples(examples: readonly string[]): string[] {
  return [
    ...new Set(
      examples.map((e) =>
        e
          .replace(/[;\n]+/g, ',')
          .replace(/[\s.]+$/, '')
          .trim(),
      ),
    ),
  ]
    .filter((e) => e !== '')
    .slice(0, MAX_EXAMPLES);
}

/** Advice followed by its examples (cleanExamples) as its closing sentence, for readers. */
export function withExamples(advice: string, examples: readonly string[]): string {
  return `${advice}${examplesSentence(cleanExamples(examples))}`;
}

/**
 * An insight's content and examples with more examples merged in: the advice of its content
 * (without its examples sentence and qualifiers) followed by the merged list, rendered again.
 */
export function mergeExamples(
  insight: { content: string; examples: readonly string[] },
  more: readonly string[],
): { content: string; examples: string[] } {
  const examples = cleanExamples([...insight.examples, ...more]);
  return { content: withExamples(adviceOf(insight), examples), examples };
}
