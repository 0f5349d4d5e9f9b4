import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { isOnline, llmConfigFromEnv } from '../../src/config/llm.js';

describe('llmConfigFromEnv', () => {
  it('is offline with the research defaults when nothing is set', () => {
    const config = llmConfigFromEnv({});
    expect(config).toEqual({
      abstractModel: 'gpt-5-mini',
      embedModel: 'text-embedding-3-small',
      embedDimensions: 512,
      timeoutMs: 30_000,
      retries: 2,
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
      MEMORY_TRANSFER_EMBED_MODEL: 'nomic-embed-text',
      MEMORY_TRANSFER_EMBED_DIMENSIONS: '768',
      MEMORY_TRANSFER_LLM_TIMEOUT_MS: '5000',
      MEMORY_TRANSFER_LLM_RETRIES: '0',
    });
    expect(config).toEqual({
      apiKey: 'sk-test',
      baseURL: 'http://localhost:11434/v1',
      abstractModel: 'qwen2.5-coder:7b',
      embedModel: 'nomic-embed-text',
      embedDimensions: 768,
      timeoutMs: 5000,
      retries: 0,
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
  ])('rejects %s=%j with an error naming the variable', (name, value) => {
    const read = () => llmConfigFromEnv({ [name]: value });
    expect(read).toThrow(InputError);
    expect(read).toThrow(new RegExp(`^${name} `));
  });
});
