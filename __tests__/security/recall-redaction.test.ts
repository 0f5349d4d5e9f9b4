/** The task text of a recall goes to the embedding provider only after redaction. */
import { join } from 'node:path';
import nock from 'nock';
import { afterAll, describe, expect, it } from 'vitest';
import { createOpenAIClient, llmConfigFromEnv } from '../../src/config/llm.js';
import { createOpenAIEmbedder } from '../../src/embedding/openai-embedder.js';
import { createRedactor } from '../../src/security/redact.js';
import { recall } from '../../src/services/recall.js';
import { openStore } from '../../src/store/open-store.js';
import { allLeaks, allSecretsText } from '../fixtures/secrets/corpus.js';
import { sampleMemory } from '../helpers/sample-memory.js';
import { LLM_BASE, leaksIn, recordingLogger, tempDir } from './e2e-helpers.js';

const dir = tempDir('mt-recall-redaction-');
afterAll(() => dir.remove());
const clock = { now: () => new Date('2026-11-03T00:00:00Z') };

function embedder() {
  const config = llmConfigFromEnv({
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: `${LLM_BASE}/v1`,
    MEMORY_TRANSFER_LLM_RETRIES: '0',
  });
  return createOpenAIEmbedder({ client: createOpenAIClient(config), model: 'text-embedding-3-small', dimensions: 3 });
}

describe('recall sends no secret to the embedding provider', () => {
  it('redacts the task before embedding it', async () => {
    const store = await openStore(join(dir.path, 'a.db'));
    await store.putMemory(sampleMemory());
    const bodies: string[] = [];
    nock(LLM_BASE)
      .post('/v1/embeddings')
      .reply(200, (_uri, body) => {
        bodies.push(JSON.stringify(body));
        return {
          object: 'list',
          data: [{ object: 'embedding', index: 0, embedding: [1, 0, 0] }],
          model: 'text-embedding-3-small',
        };
      });
    const task = `The parser crashes on empty input.\n${allSecretsText()}`;
    await recall(
      { store, embedder: embedder(), redactor: createRedactor(), logger: recordingLogger(), clock },
      { tenant: 'acme' },
      task,
    );
    expect(bodies).toHaveLength(1);
    expect(leaksIn(bodies[0]!, allLeaks())).toEqual([]);
    expect(bodies[0]).toContain('parser crashes on empty input');
    await store.close();
  });

  it('makes no embedding request when redaction fails, and still ranks lexically', async () => {
    const store = await openStore(join(dir.path, 'b.db'));
    await store.putMemory(sampleMemory());
    const attempts: string[] = [];
    const onNoMatch = (req: { path?: string }) => attempts.push(String(req.path));
    nock.emitter.on('no match', onNoMatch);
    try {
      const redactor = createRedactor({
        scanner: async () => {
          throw new Error('scanner crashed');
        },
      });
      const hits = await recall(
        { store, embedder: embedder(), redactor, logger: recordingLogger(), clock },
        { tenant: 'acme' },
        'parser crashes on empty input regression test',
        { minScore: 0 },
      );
      expect(attempts).toEqual([]);
      expect(hits.map((h) => h.memory.id)).toEqual(['m0123456789']);
    } finally {
      nock.emitter.removeListener('no match', onNoMatch);
      await store.close();
    }
  });
});
