/**
 * Token use of the model calls, summed: what the answers report (`usage` of chat completions and
 * of embeddings). One meter per learn run in the CLI, one per process in the App (/metrics).
 */

export interface TokenTotals {
  /** chat completions answered (abstractions) */
  chatCalls: number;
  /** prompt tokens of those completions */
  promptTokens: number;
  /** completion tokens (reasoning included) */
  completionTokens: number;
  /** embedding requests answered */
  embeddingCalls: number;
  embeddingTokens: number;
}

export type TokenUse =
  { kind: 'chat'; promptTokens: number; completionTokens: number } | { kind: 'embedding'; tokens: number };

export interface TokenMeter {
  record(use: TokenUse): void;
  totals(): TokenTotals;
}

export function emptyTokenTotals(): TokenTotals {
  return { chatCalls: 0, promptTokens: 0, completionTokens: 0, embeddingCalls: 0, embeddingTokens: 0 };
}

export function createTokenMeter(): TokenMeter {
  const sum = emptyTokenTotals();
  const count = (n: number) => (Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);
  return {
    record(use) {
      if (use.kind === 'chat') {
        sum.chatCalls += 1;
        sum.promptTokens += count(use.promptTokens);
        sum.completionTokens += count(use.completionTokens);
      } else {
        sum.embeddingCalls += 1;
        sum.embeddingTokens += count(use.tokens);
      }
    },
    totals: () => ({ ...sum }),
  };
}

/** One line for a person: "1,234 prompt + 567 completion tokens in 12 calls; 890 embedding tokens". */
export function describeTokenTotals(t: TokenTotals): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const parts: string[] = [];
  if (t.chatCalls > 0)
    parts.push(
      `${n(t.promptTokens)} prompt + ${n(t.completionTokens)} completion tokens in ${n(t.chatCalls)} call${t.chatCalls === 1 ? '' : 's'}`,
    );
  if (t.embeddingCalls > 0) parts.push(`${n(t.embeddingTokens)} embedding tokens`);
  return parts.join('; ');
}
