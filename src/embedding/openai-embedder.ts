/**
 * Text → vectors over any OpenAI-compatible embeddings endpoint. Batches of at most 96 texts a
 * request, the configured `dimensions`, the client's timeout and retries (429, 5xx, network).
 * The answer is checked with zod: one vector per text, each of the configured length. A failure
 * is an UpstreamError (retryable when trying later may help; LlmAuthError when the key is
 * refused); callers decide whether to go on without vectors. Calls go through the endpoint's
 * circuit breaker, shared with the abstractor: while it is open, none goes out (an UpstreamError
 * "circuit open" at once). Token use goes to the meter.
 */
import type OpenAI from 'openai';
import { z } from 'zod';
import type { CircuitBreaker } from '../config/circuit-breaker.js';
import { LlmAuthError, UpstreamError } from '../core/errors.js';
import {
  createOpenAIClient,
  describeLlmFailure,
  isKeyRefused,
  isOnline,
  throughBreaker,
  type LlmConfig,
} from '../config/llm.js';
import type { TokenMeter } from '../core/token-usage.js';
import type { Embedder } from '../ports/index.js';

export const EMBED_BATCH_SIZE = 96;
/** Longer texts are cut: well under the 8k-token input limit of the usual embedding models. */
export const EMBED_MAX_CHARS = 16_000;

export interface OpenAIEmbedderOptions {
  client: OpenAI;
  model: string;
  dimensions: number;
  /** receives the token use each answer reports */
  meter?: TokenMeter;
  /** the endpoint's circuit breaker (shared with the abstractor) */
  breaker?: CircuitBreaker;
}

const ResponseSchema = z.object({
  data: z.array(z.object({ index: z.number().int().nonnegative(), embedding: z.array(z.number()) })),
  usage: z.object({ prompt_tokens: z.number().optional(), total_tokens: z.number().optional() }).optional(),
});

export function createOpenAIEmbedder(options: OpenAIEmbedderOptions): Embedder {
  const { client, model, dimensions, meter, breaker } = options;

  async function embedBatch(texts: string[]): Promise<Float32Array[]> {
    let raw: unknown;
    try {
      raw = await throughBreaker(breaker, model, () =>
        client.embeddings.create({
          model,
          input: texts.map((t) => (t.trim() === '' ? ' ' : t.slice(0, EMBED_MAX_CHARS))),
          dimensions,
          // plain floats: not every OpenAI-compatible server speaks the client's default base64
          encoding_format: 'float',
        }),
      );
    } catch (error) {
      if (isKeyRefused(error)) throw new LlmAuthError(error.status);
      const { reason, retryable } = describeLlmFailure(error);
      throw new UpstreamError(`embedding with ${model} failed: ${reason}`, retryable);
    }
    const parsed = ResponseSchema.safeParse(raw);
    if (!parsed.success) throw new UpstreamError(`embedding with ${model} failed: unexpected answer`, false);
    const usage = parsed.data.usage;
    meter?.record({ kind: 'embedding', tokens: usage?.total_tokens ?? usage?.prompt_tokens ?? 0 });
    const vectors = new Array<Float32Array | undefined>(texts.length);
    for (const item of parsed.data.data) {
      if (item.index >= texts.length) continue;
      if (item.embedding.length !== dimensions) {
        throw new UpstreamError(
          `embedding model ${model} returned ${item.embedding.length}-dimension vectors, expected ${dimensions}: ` +
            `set MEMORY_TRANSFER_EMBED_DIMENSIONS=${item.embedding.length} or use a model that accepts dimensions`,
          false,
        );
      }
      vectors[item.index] = Float32Array.from(item.embedding);
    }
    const missing = vectors.findIndex((v) => v === undefined);
    if (missing >= 0) {
      throw new UpstreamError(`embedding with ${model} failed: no vector for input ${missing}`, false);
    }
    return vectors as Float32Array[];
  }

  return {
    model,
    dimensions,
    async embed(texts: string[]): Promise<Float32Array[]> {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += EMBED_BATCH_SIZE) {
        out.push(...(await embedBatch(texts.slice(i, i + EMBED_BATCH_SIZE))));
      }
      return out;
    },
  };
}

/**
 * The embedder for a configuration; undefined when offline (no API key): retrieval stays lexical.
 * `breaker`: the endpoint's, shared with the abstractor (createEndpointBreaker).
 */
export function createEmbedder(config: LlmConfig, meter?: TokenMeter, breaker?: CircuitBreaker): Embedder | undefined {
  if (!isOnline(config)) return undefined;
  return createOpenAIEmbedder({
    client: createOpenAIClient(config),
    model: config.embedModel,
    dimensions: config.embedDimensions,
    ...(meter ? { meter } : {}),
    ...(breaker ? { breaker } : {}),
  });
}
