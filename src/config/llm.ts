/**
 * The OpenAI-compatible client of both model adapters, and how a failed request is described.
 * The settings themselves are read by ./llm-env.ts (re-exported here), which loads no client.
 */
import OpenAI from 'openai';
import { DEFAULT_BASE_URL, type LlmConfig } from './llm-env.js';

export * from './llm-env.js';

/** The OpenAI-compatible client both adapters use: the configured timeout and retries (429, 5xx, network). */
export function createOpenAIClient(config: LlmConfig): OpenAI {
  return new OpenAI({
    apiKey: config.apiKey ?? '',
    // everything from the config, nothing read from process.env behind its back
    baseURL: config.baseURL ?? DEFAULT_BASE_URL,
    organization: null,
    project: null,
    webhookSecret: null,
    timeout: config.timeoutMs,
    maxRetries: config.retries,
    // our own logger reports failures, once, with the reason
    logLevel: 'off',
  });
}

/** One short reason for a failed LLM request, and whether trying later may help. */
export function describeLlmFailure(error: unknown): { reason: string; retryable: boolean } {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return { reason: 'timeout', retryable: true };
  if (error instanceof OpenAI.APIConnectionError)
    return { reason: `network error: ${firstLine(error)}`, retryable: true };
  if (error instanceof OpenAI.RateLimitError)
    return { reason: 'rate limited (HTTP 429), retries exhausted', retryable: true };
  if (error instanceof OpenAI.APIError) {
    const status = error.status ?? 0;
    return { reason: `HTTP ${status || 'error'}: ${firstLine(error)}`, retryable: status >= 500 || status === 408 };
  }
  return { reason: firstLine(error), retryable: false };
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split('\n')[0] ?? '').slice(0, 200);
}
