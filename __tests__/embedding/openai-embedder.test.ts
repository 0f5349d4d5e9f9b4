import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/core/errors.js';
import { llmConfigFromEnv } from '../../src/config/llm.js';
import { createEmbedder } from '../../src/embedding/openai-embedder.js';

const BASE = 'https://llm.test';
const PATH = '/v1/embeddings';

function online(env: Record<string, string> = {}) {
  const embedder = createEmbedder(
    llmConfigFromEnv({
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: `${BASE}/v1`,
      MEMORY_TRANSFER_EMBED_DIMENSIONS: '4',
      MEMORY_TRANSFER_LLM_RETRIES: '0',
      ...env,
    }),
  );
  if (!embedder) throw new Error('expected an embedder');
  return embedder;
}

/** A fake embeddings answer: vector i is [i, 1, 0, 0] (returned in reverse order). */
function answer(body: any) {
  const inputs: string[] = body.input;
  return {
    object: 'list',
    model: body.model,
    data: inputs.map((_, i) => ({ object: 'embedding', index: i, embedding: [i, 1, 0, 0] })).reverse(),
    usage: { prompt_tokens: 1, total_tokens: 1 },
  };
}

describe('OpenAI embedder', () => {
  it('is absent offline', () => {
    expect(createEmbedder(llmConfigFromEnv({}))).toBeUndefined();
  });

  it('embeds in batches of at most 96, in input order, with the model and dimensions asked', async () => {
    const bodies: any[] = [];
    nock(BASE)
      .post(PATH, (b) => {
        bodies.push(b);
        return true;
      })
      .times(3)
      .reply(200, (_uri, body) => answer(body));
    const embedder = online({ MEMORY_TRANSFER_EMBED_MODEL: 'text-embedding-3-small' });
    const texts = Array.from({ length: 200 }, (_, i) => `text ${i}`);

    const vectors = await embedder.embed(texts);

    expect(embedder.model).toBe('text-embedding-3-small');
    expect(embedder.dimensions).toBe(4);
    expect(bodies.map((b) => b.input.length)).toEqual([96, 96, 8]);
    expect(bodies[0]).toMatchObject({ model: 'text-embedding-3-small', dimensions: 4, encoding_format: 'float' });
    expect(bodies[1].input[0]).toBe('text 96');
    expect(vectors).toHaveLength(200);
    expect(vectors[0]).toBeInstanceOf(Float32Array);
    expect(Array.from(vectors[97]!)).toEqual([1, 1, 0, 0]);
  });

  it('sends nothing for no texts', async () => {
    expect(await online().embed([])).toEqual([]);
  });

  it('reports a dimension mismatch with the variable to change', async () => {
    nock(BASE)
      .post(PATH)
      .reply(200, { data: [{ index: 0, embedding: [1, 2, 3] }] });
    await expect(online().embed(['a'])).rejects.toThrow(/MEMORY_TRANSFER_EMBED_DIMENSIONS=3/);
  });

  it('turns a 429 after the retries into a retryable UpstreamError', async () => {
    nock(BASE)
      .post(PATH)
      .times(2)
      .reply(429, { error: { message: 'slow down' } }, { 'retry-after-ms': '1' });
    const error = await online({ MEMORY_TRANSFER_LLM_RETRIES: '1' })
      .embed(['a'])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).retryable).toBe(true);
    expect((error as Error).message).toContain('rate limited');
  });

  it('times out', async () => {
    nock(BASE).post(PATH).delay(2_000).reply(200, { data: [] });
    await expect(online({ MEMORY_TRANSFER_LLM_TIMEOUT_MS: '100' }).embed(['a'])).rejects.toThrow(/timeout/);
  });

  it('rejects a junk answer', async () => {
    nock(BASE)
      .post(PATH)
      .reply(200, { data: [{ index: 0, embedding: 'nope' }] });
    await expect(online().embed(['a'])).rejects.toThrow(/unexpected answer/);
  });
});
