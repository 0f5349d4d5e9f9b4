/**
 * LLM settings from the environment. Any OpenAI-compatible endpoint works; with no API key,
 * everything runs offline (rule-based abstraction, lexical retrieval). Checked at the edge: a bad
 * value is an InputError naming the variable. No OpenAI client here: reading the settings
 * does not load the client library (config/llm.ts adds the client for the adapters).
 */
import { InputError } from '../core/errors.js';

export interface LlmConfig {
  /** absent → offline */
  apiKey?: string;
  /** an OpenAI-compatible endpoint, e.g. https://api.openai.com/v1 (the client's default when absent) */
  baseURL?: string;
  /** the chat model that writes insights */
  abstractModel: string;
  /** the chat model that reads a task for recall (its kind and routines); null: the rules read every task */
  readModel: string | null;
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

/** MEMORY_TRANSFER_READ_MODEL's value that leaves the reading of tasks to the rules. */
export const READ_BY_RULES = 'rules';

/** A bad value: the message that follows the variable's name. */
class Problem extends Error {}

type Read<T> = (text: string) => T;

const integer =
  (min: number, max: number): Read<number> =>
  (text) => {
    if (!/^\d+$/.test(text)) throw new Problem('must be a whole number');
    const n = Number(text);
    if (n < min) throw new Problem(`must be at least ${min}`);
    if (n > max) throw new Problem(`must be at most ${max}`);
    return n;
  };

/** What a model name may hold (letters, digits, . : / @ + - _). */
export const MODEL_NAME = /^[\w.:/@+-]{1,200}$/;

const modelName: Read<string> = (text) => {
  if (text.length > 200) throw new Problem('is too long');
  if (!MODEL_NAME.test(text)) throw new Problem('must be a model name (letters, digits, . : / @ + - _)');
  return text;
};

/** An http(s) URL with its `//` (`http:example.com` is refused), as the URL parser reads it. */
const httpUrl: Read<string> = (text) => {
  const value = text.replace(/[\t\n\r]/g, '');
  if (!/^https?:\/\//i.test(text) || !URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol))
    throw new Problem('must be an http(s) URL');
  return value;
};

const reasoningEffort: Read<ReasoningEffort> = (text) => {
  if ((REASONING_EFFORTS as readonly string[]).includes(text)) return text as ReasoningEffort;
  throw new Problem(`must be one of ${REASONING_EFFORTS.join(', ')} (e.g. low)`);
};

/**
 * Reads one variable: trimmed; an empty or blank variable counts as unset. Plain checks rather
 * than zod: `memory-transfer recall` reads these settings and must start fast.
 */
function read<T>(env: Record<string, string | undefined>, name: string, parse: Read<T>): T | undefined {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return undefined;
  try {
    return parse(text);
  } catch (error) {
    if (error instanceof Problem) throw new InputError(`${name} ${error.message}`);
    throw error;
  }
}

/** Reads the LLM settings; throws InputError naming the first bad variable. */
export function llmConfigFromEnv(env: Record<string, string | undefined>): LlmConfig {
  const e = {
    OPENAI_API_KEY: read(env, 'OPENAI_API_KEY', (text) => text),
    OPENAI_BASE_URL: read(env, 'OPENAI_BASE_URL', httpUrl),
    MEMORY_TRANSFER_ABSTRACT_MODEL: read(env, 'MEMORY_TRANSFER_ABSTRACT_MODEL', modelName),
    MEMORY_TRANSFER_READ_MODEL: read(env, 'MEMORY_TRANSFER_READ_MODEL', modelName),
    MEMORY_TRANSFER_EMBED_MODEL: read(env, 'MEMORY_TRANSFER_EMBED_MODEL', modelName),
    MEMORY_TRANSFER_EMBED_DIMENSIONS: read(env, 'MEMORY_TRANSFER_EMBED_DIMENSIONS', integer(1, 8192)),
    MEMORY_TRANSFER_LLM_TIMEOUT_MS: read(env, 'MEMORY_TRANSFER_LLM_TIMEOUT_MS', integer(100, 600_000)),
    MEMORY_TRANSFER_LLM_RETRIES: read(env, 'MEMORY_TRANSFER_LLM_RETRIES', integer(0, 10)),
    MEMORY_TRANSFER_LLM_CONCURRENCY: read(env, 'MEMORY_TRANSFER_LLM_CONCURRENCY', integer(1, 64)),
    MEMORY_TRANSFER_LLM_REASONING_EFFORT: read(env, 'MEMORY_TRANSFER_LLM_REASONING_EFFORT', reasoningEffort),
    MEMORY_TRANSFER_LLM_MAX_OUTPUT_TOKENS: read(env, 'MEMORY_TRANSFER_LLM_MAX_OUTPUT_TOKENS', integer(16, 1_000_000)),
    MEMORY_TRANSFER_LLM_BREAKER_FAILURES: read(env, 'MEMORY_TRANSFER_LLM_BREAKER_FAILURES', integer(1, 100)),
    MEMORY_TRANSFER_LLM_BREAKER_COOLDOWN_MS: read(
      env,
      'MEMORY_TRANSFER_LLM_BREAKER_COOLDOWN_MS',
      integer(0, 3_600_000),
    ),
  };
  return {
    ...(e.OPENAI_API_KEY ? { apiKey: e.OPENAI_API_KEY } : {}),
    ...(e.OPENAI_BASE_URL ? { baseURL: e.OPENAI_BASE_URL.replace(/\/+$/, '') } : {}),
    abstractModel: e.MEMORY_TRANSFER_ABSTRACT_MODEL ?? LLM_DEFAULTS.abstractModel,
    // `rules` turns the model's reading of tasks off; unset, the abstract model reads them
    readModel:
      e.MEMORY_TRANSFER_READ_MODEL === READ_BY_RULES
        ? null
        : (e.MEMORY_TRANSFER_READ_MODEL ?? e.MEMORY_TRANSFER_ABSTRACT_MODEL ?? LLM_DEFAULTS.abstractModel),
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
