/**
 * GET /metrics: the App's model use in the Prometheus text format (counters since the job worker
 * started). The worker records its token meter in the store after each learned fix
 * (recordTokenTotals), so every HTTP process of a clustered serve reports the same figures.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { emptyTokenTotals, type TokenTotals } from '../../core/token-usage.js';
import type { Store } from '../../store/store.js';

export const TOKEN_TOTALS_KEY = 'metrics:llm-tokens';

const count = z.number().int().nonnegative().catch(0);
const TotalsSchema = z.object({
  chatCalls: count,
  promptTokens: count,
  completionTokens: count,
  embeddingCalls: count,
  embeddingTokens: count,
  fallbacks: count,
});

/** The worker's totals, plus fixes learned by fallback, as last recorded. */
export interface RecordedTotals extends TokenTotals {
  fallbacks: number;
}

export async function recordTokenTotals(store: Store, totals: RecordedTotals): Promise<void> {
  await store.setState(TOKEN_TOTALS_KEY, JSON.stringify(totals));
}

export async function readTokenTotals(store: Store): Promise<RecordedTotals> {
  const raw = await store.getState(TOKEN_TOTALS_KEY);
  let json: unknown;
  try {
    json = raw === undefined ? undefined : JSON.parse(raw);
  } catch {
    json = undefined;
  }
  const parsed = TotalsSchema.safeParse(json);
  return parsed.success ? parsed.data : { ...emptyTokenTotals(), fallbacks: 0 };
}

export function renderMetrics(t: RecordedTotals): string {
  const lines = [
    '# HELP memory_transfer_llm_calls_total Model calls answered, by kind.',
    '# TYPE memory_transfer_llm_calls_total counter',
    `memory_transfer_llm_calls_total{kind="chat"} ${t.chatCalls}`,
    `memory_transfer_llm_calls_total{kind="embedding"} ${t.embeddingCalls}`,
    '# HELP memory_transfer_llm_tokens_total Tokens the model endpoint reported using, by kind.',
    '# TYPE memory_transfer_llm_tokens_total counter',
    `memory_transfer_llm_tokens_total{kind="prompt"} ${t.promptTokens}`,
    `memory_transfer_llm_tokens_total{kind="completion"} ${t.completionTokens}`,
    `memory_transfer_llm_tokens_total{kind="embedding"} ${t.embeddingTokens}`,
    '# HELP memory_transfer_llm_fallbacks_total Fixes the rules abstracted because the model failed.',
    '# TYPE memory_transfer_llm_fallbacks_total counter',
    `memory_transfer_llm_fallbacks_total ${t.fallbacks}`,
  ];
  return `${lines.join('\n')}\n`;
}

/** The /metrics route: true when it answered. */
export function createMetricsHandler(store: Store) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    const body = renderMetrics(await readTokenTotals(store));
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }).end(body);
    return true;
  };
}
