import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { isOnline, llmConfigFromEnv } from '../../src/config/llm.js';

describe('llmConfigFromEnv', () => {
  it('is offline with the research defaults when nothing is set', () => {
    const config = llmConfigFromEnv({});
    expect(config).toEqual({
      abstractModel: 'gpt-5-mini',
      readModel: 'gpt-5-mini',
      embedModel: 'text-embedding-3-small',
      embedDimensions: 512,
      timeoutMs: 30_000,
      retries: 2,
      concurrency: 4,
      breakerFailures: 3,
      breakerCooldownMs: 60_000,
    });
    expect(isOnline(config)).toBe(false);
  });

  it('treats a blank key as no key', () => {
    expect(isOnline(llmConfigFromEnv({ OPENAI_API_KEY: '  ' }))).toBe(false);
  });

  it('reads every variable', () => {
    const config = llmConfigFromEnv({
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: 'http://localhost:11434/v1/',
      MEMORY_TRANSFER_ABSTRACT_MODEL: 'qwen2.5-coder:7b',
      MEMORY_TRANSFER_READ_MODEL: 'qwen2.5:3b',
      MEMORY_TRANSFER_EMBED_MODEL: 'nomic-embed-text',
      MEMORY_TRANSFER_EMBED_DIMENSIONS: '768',
      MEMORY_TRANSFER_LLM_TIMEOUT_MS: '5000',
      MEMORY_TRANSFER_LLM_RETRIES: '0',
      MEMORY_TRANSFER_LLM_CONCURRENCY: '8',
      MEMORY_TRANSFER_LLM_REASONING_EFFORT: 'minimal',
      MEMORY_TRANSFER_LLM_MAX_OUTPUT_TOKENS: '6000',
      MEMORY_TRANSFER_LLM_BREAKER_FAILURES: '5',
      MEMORY_TRANSFER_LLM_BREAKER_COOLDOWN_MS: '30000',
    });
    expect(config).toEqual({
      apiKey: 'sk-test',
      baseURL: 'http://localhost:11434/v1',
      abstractModel: 'qwen2.5-coder:7b',
      readModel: 'qwen2.5:3b',
      embedModel: 'nomic-embed-text',
      embedDimensions: 768,
      timeoutMs: 5000,
      retries: 0,
      concurrency: 8,
      reasoningEffort: 'minimal',
      maxOutputTokens: 6000,
      breakerFailures: 5,
      breakerCooldownMs: 30_000,
    });
    expect(isOnline(config)).toBe(true);
  });

  it.each([
    ['OPENAI_BASE_URL', 'not a url'],
    ['OPENAI_BASE_URL', 'ftp://llm.test/v1'],
    ['MEMORY_TRANSFER_EMBED_DIMENSIONS', 'lots'],
    ['MEMORY_TRANSFER_EMBED_DIMENSIONS', '0'],
    ['MEMORY_TRANSFER_LLM_TIMEOUT_MS', '-5'],
    ['MEMORY_TRANSFER_LLM_TIMEOUT_MS', '1.5'],
    ['MEMORY_TRANSFER_LLM_RETRIES', '99'],
    ['MEMORY_TRANSFER_ABSTRACT_MODEL', 'gpt 5; rm -rf /'],
    ['MEMORY_TRANSFER_LLM_CONCURRENCY', '0'],
    ['MEMORY_TRANSFER_LLM_CONCURRENCY', 'many'],
    ['MEMORY_TRANSFER_LLM_REASONING_EFFORT', 'extreme'],
    ['MEMORY_TRANSFER_LLM_MAX_OUTPUT_TOKENS', '10k'],
    ['MEMORY_TRANSFER_LLM_BREAKER_FAILURES', '0'],
  ])('rejects %s=%j with an error naming the variable', (name, value) => {
    const read = () => llmConfigFromEnv({ [name]: value });
    expect(read).toThrow(InputError);
    expect(read).toThrow(new RegExp(`^${name} `));
  });

  it('names the allowed reasoning efforts, with an example', () => {
    expect(() => llmConfigFromEnv({ MEMORY_TRANSFER_LLM_REASONING_EFFORT: 'extreme' })).toThrow(
      'MEMORY_TRANSFER_LLM_REASONING_EFFORT must be one of none, minimal, low, medium, high, xhigh (e.g. low)',
    );
  });
});
