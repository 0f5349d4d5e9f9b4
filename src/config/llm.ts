/**
 * The OpenAI-compatible client of both model adapters, and how a failed request is described.
 * The settings themselves are read by ./llm-env.ts (re-exported here), which loads no client.
 */
import OpenAI from 'openai';
import type { CircuitBreaker } from './circuit-breaker.js';
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

/** A call not made: the endpoint's circuit breaker is open. */
export class CircuitOpenError extends Error {
  constructor() {
    super('circuit open');
  }
}

/** The endpoint refused the API key: it answered (every later call would be refused too). */
export function isKeyRefused(error: unknown): error is InstanceType<typeof OpenAI.APIError> & { status: 401 | 403 } {
  return error instanceof OpenAI.AuthenticationError || error instanceof OpenAI.PermissionDeniedError;
}

/**
 * One call to the model endpoint through its circuit breaker (chat completions and embeddings
 * alike): CircuitOpenError when it is open; a failure counts against `model`'s calls, unless the
 * endpoint answered by refusing the key.
 */
export async function throughBreaker<T>(
  breaker: CircuitBreaker | undefined,
  model: string,
  call: () => Promise<T>,
): Promise<T> {
  if (breaker && !breaker.tryAcquire()) throw new CircuitOpenError();
  try {
    const result = await call();
    breaker?.succeeded(model);
    return result;
  } catch (error) {
    if (isKeyRefused(error)) breaker?.succeeded(model);
    else breaker?.failed(model, `calls to ${model} keep failing (${describeLlmFailure(error).reason})`);
    throw error;
  }
}

/** One short reason for a failed LLM request, and whether trying later may help. */
export function describeLlmFailure(error: unknown): { reason: string; retryable: boolean } {
  if (error instanceof CircuitOpenError) return { reason: 'circuit open', retryable: true };
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
