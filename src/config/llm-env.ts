/**
 * LLM settings from the environment. Any OpenAI-compatible endpoint works; with no API key,
 * everything runs offline (rule-based abstraction, lexical retrieval). Parsed with zod at the edge:
 * a bad value is an InputError naming the variable. No OpenAI client here: reading the settings
 * does not load the client library (config/llm.ts adds the client for the adapters).
 */
import { z } from 'zod';
import { InputError } from '../core/errors.js';

export interface LlmConfig {
  /** absent → offline */
  apiKey?: string;
  /** an OpenAI-compatible endpoint, e.g. https://api.openai.com/v1 (the client's default when absent) */
  baseURL?: string;
  /** the chat model that writes insights */
  abstractModel: string;
  /** the embedding model */
  embedModel: string;
  /** vector length asked of the embedding model */
  embedDimensions: number;
  /** per request, milliseconds */
  timeoutMs: number;
  /** retries of a failed request (429, 5xx, timeout, network), with backoff */
  retries: number;
  /** model calls in flight at once during a learn run (abstractions run ahead; writes stay in order) */
  concurrency: number;
  /** `reasoning_effort` sent with each abstraction (absent: the model's default) */
  reasoningEffort?: ReasoningEffort;
  /** `max_completion_tokens` of each abstraction, reasoning included (absent: the model's limit) */
  maxOutputTokens?: number;
  /** consecutive failed calls that open the circuit breaker (the rules are used meanwhile) */
  breakerFailures: number;
  /** how long the breaker stays open before one probe call, milliseconds */
  breakerCooldownMs: number;
}

export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

export const LLM_DEFAULTS = {
  abstractModel: 'gpt-5-mini',
  embedModel: 'text-embedding-3-small',
  embedDimensions: 512,
  timeoutMs: 30_000,
  retries: 2,
  concurrency: 4,
  breakerFailures: 3,
  breakerCooldownMs: 60_000,
} as const;

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** An empty or blank variable counts as unset. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema.optional());

const integer = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

const modelName = z
  .string()
  .trim()
  .max(200, 'is too long')
  .regex(/^[\w.:/@+-]+$/, 'must be a model name (letters, digits, . : / @ + - _)');

const EnvSchema = z.object({
  OPENAI_API_KEY: optional(z.string().trim()),
  OPENAI_BASE_URL: optional(
    z
      .string()
      .trim()
      .pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })),
  ),
  MEMORY_TRANSFER_ABSTRACT_MODEL: optional(modelName),
  MEMORY_TRANSFER_EMBED_MODEL: optional(modelName),
  MEMORY_TRANSFER_EMBED_DIMENSIONS: optional(integer(1, 8192)),
  MEMORY_TRANSFER_LLM_TIMEOUT_MS: optional(integer(100, 600_000)),
  MEMORY_TRANSFER_LLM_RETRIES: optional(integer(0, 10)),
  MEMORY_TRANSFER_LLM_CONCURRENCY: optional(integer(1, 64)),
  MEMORY_TRANSFER_LLM_REASONING_EFFORT: optional(
    z
      .string()
      .trim()
      .pipe(z.enum(REASONING_EFFORTS, { error: `must be one of ${REASONING_EFFORTS.join(', ')} (e.g. low)` })),
  ),
  MEMORY_TRANSFER_LLM_MAX_OUTPUT_TOKENS: optional(integer(16, 1_000_000)),
  MEMORY_TRANSFER_LLM_BREAKER_FAILURES: optional(integer(1, 100)),
  MEMORY_TRANSFER_LLM_BREAKER_COOLDOWN_MS: optional(integer(0, 3_600_000)),
});

/** Reads the LLM settings; throws InputError naming the first bad variable. */
export function llmConfigFromEnv(env: Record<string, string | undefined>): LlmConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    throw new InputError(`${name} ${issue?.message ?? 'is invalid'}`);
  }
  const e = parsed.data;
  return {
    ...(e.OPENAI_API_KEY ? { apiKey: e.OPENAI_API_KEY } : {}),
    ...(e.OPENAI_BASE_URL ? { baseURL: e.OPENAI_BASE_URL.replace(/\/+$/, '') } : {}),
    abstractModel: e.MEMORY_TRANSFER_ABSTRACT_MODEL ?? LLM_DEFAULTS.abstractModel,
    embedModel: e.MEMORY_TRANSFER_EMBED_MODEL ?? LLM_DEFAULTS.embedModel,
    embedDimensions: e.MEMORY_TRANSFER_EMBED_DIMENSIONS ?? LLM_DEFAULTS.embedDimensions,
    timeoutMs: e.MEMORY_TRANSFER_LLM_TIMEOUT_MS ?? LLM_DEFAULTS.timeoutMs,
    retries: e.MEMORY_TRANSFER_LLM_RETRIES ?? LLM_DEFAULTS.retries,
    concurrency: e.MEMORY_TRANSFER_LLM_CONCURRENCY ?? LLM_DEFAULTS.concurrency,
    ...(e.MEMORY_TRANSFER_LLM_REASONING_EFFORT ? { reasoningEffort: e.MEMORY_TRANSFER_LLM_REASONING_EFFORT } : {}),
    ...(e.MEMORY_TRANSFER_LLM_MAX_OUTPUT_TOKENS ? { maxOutputTokens: e.MEMORY_TRANSFER_LLM_MAX_OUTPUT_TOKENS } : {}),
    breakerFailures: e.MEMORY_TRANSFER_LLM_BREAKER_FAILURES ?? LLM_DEFAULTS.breakerFailures,
    breakerCooldownMs: e.MEMORY_TRANSFER_LLM_BREAKER_COOLDOWN_MS ?? LLM_DEFAULTS.breakerCooldownMs,
  };
}

/** True when an API key is configured (the LLM abstractor and the embedder are used). */
export function isOnline(config: LlmConfig): boolean {
  return config.apiKey !== undefined;
}
