/**
 * reembed: vectors for the insights of a tenant that have none for the embedder's model (after an
 * embedding failure during learn, or after MEMORY_TRANSFER_EMBED_MODEL changed), or for every
 * insight (`all`: after a change of model or dimensions). Batches are written as they come: a
 * failure keeps what was written, and the next run embeds only what is still missing.
 */
import { searchableText } from '../core/retrieval/memory-index.js';
import type { Store } from '../store/store.js';
import type { Embedder, Logger } from '../ports/index.js';

export interface ReembedDeps {
  store: Store;
  embedder: Embedder;
  logger: Logger;
}

export interface ReembedOptions {
  /** re-embed every insight, not only those without a vector of this model */
  all?: boolean;
  /** insights per embedding request (default 64) */
  batchSize?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface ReembedSummary {
  model: string;
  /** insights that needed a vector */
  insights: number;
  /** vectors written */
  embedded: number;
}

export async function reembedInsights(
  deps: ReembedDeps,
  tenant: string,
  options: ReembedOptions = {},
): Promise<ReembedSummary> {
  const { store, embedder } = deps;
  const ids = options.all
    ? (await store.listMemories(tenant, { level: ['insight'] })).map((m) => m.id)
    : await store.listIdsWithoutVector(tenant, embedder.model, ['insight']);
  const size = Math.max(1, options.batchSize ?? 64);
  let embedded = 0;
  for (let i = 0; i < ids.length; i += size) {
    const memories = await store.getMemories(tenant, ids.slice(i, i + size));
    const vectors = await embedder.embed(memories.map((m) => searchableText(m)));
    await store.transaction(async () => {
      for (const [k, memory] of memories.entries()) {
        const vector = vectors[k];
        if (vector) await store.putVector(tenant, memory.id, vector, embedder.model);
      }
    });
    embedded += memories.length;
    options.onProgress?.(Math.min(i + size, ids.length), ids.length);
  }
  deps.logger.debug('reembed: done', { tenant, model: embedder.model, insights: ids.length, embedded });
  return { model: embedder.model, insights: ids.length, embedded };
}
