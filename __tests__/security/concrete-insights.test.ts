// An insight is abstract by definition: a model's answer that names a file path, a code
// identifier, a line number or a quoted string is refused or generalized, whoever they belong to
// (here: another repository's), so nothing concrete is stored or served as an insight.
import nock from 'nock';
import { afterAll, describe, expect, it } from 'vitest';
import { createAbstractor } from '../../src/abstraction/create-abstractor.js';
import { llmConfigFromEnv } from '../../src/config/llm.js';
import { createRedactor } from '../../src/security/redact.js';
import { learnFixes, type LearnDeps } from '../../src/services/learn.js';
import { openStore } from '../../src/store/open-store.js';
import { goodAnswer, makeFix } from '../abstraction/llm-fixtures.js';
import { completion, LLM_BASE, LLM_PATH, recordingLogger, tempDir } from './e2e-helpers.js';

const dir = tempDir('mt-concrete-');
afterAll(() => dir.remove());

const answer = (insight: { title: string; description: string; content: string }) =>
  completion({ ...goodAnswer, insight });

/** the model answers each fix by its title */
function model(replies: Record<string, ReturnType<typeof completion>>): void {
  for (const [title, reply] of Object.entries(replies)) {
    nock(LLM_BASE)
      .post(LLM_PATH, (body: { messages: { content: string }[] }) => body.messages[1]!.content.includes(title))
      .reply(200, reply);
  }
}

describe("a model's insight that names another project's file, symbol or line", () => {
  it('is refused (the rules learn the fix) or generalized; nothing concrete is stored', async () => {
    const store = await openStore(`${dir.path}/pool.db`);
    const logger = recordingLogger();
    const config = llmConfigFromEnv({
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: `${LLM_BASE}/v1`,
      MEMORY_TRANSFER_LLM_RETRIES: '0',
    });
    const deps: LearnDeps = {
      store,
      abstractor: createAbstractor(config, logger),
      redactor: createRedactor(),
      logger,
      clock: { now: () => new Date('2026-11-03T00:00:00Z') },
    };
    // the invoice dates belong to acme/billing; the two answers are for fixes of acme/orders
    const billing = makeFix({
      repo: 'acme/billing',
      ref: '7',
      title: 'Invoice dates shift by a day',
      files: ['src/invoiceDates.js', 'test/invoiceDates.test.js'],
    });
    const refused = makeFix({
      repo: 'acme/orders',
      ref: '8',
      title: 'Order total is wrong for an empty cart',
      files: ['src/cart/total.ts', 'test/cart/total.test.ts'],
    });
    const generalized = makeFix({
      repo: 'acme/orders',
      ref: '9',
      title: 'Discount applied twice on a retried checkout',
      files: ['src/checkout/discount.ts', 'test/checkout/discount.test.ts'],
    });
    model({
      'Invoice dates shift by a day': answer(goodAnswer.insight),
      'Order total is wrong for an empty cart': answer({
        title: 'Check parseInvoiceDate in src/invoiceDates.js',
        description: 'Use this when totals are computed.',
        content: 'Edit src/invoiceDates.js line 12 and add a test.',
      }),
      'Discount applied twice on a retried checkout': answer({
        title: 'A retried operation must apply its change once',
        description: 'Use this when a client may retry a request that changes state.',
        content: 'Edit `src/invoiceDates.js` at line 12, then add a test that sends the same request twice.',
      }),
    });
    try {
      const summary = await learnFixes(deps, [billing, refused, generalized]);
      expect(summary).toMatchObject({
        fixes: 3,
        fallbacks: 1,
        fallbackReasons: { 'specificity: names a code identifier (parseInvoiceDate)': 1 },
      });
      const insights = await store.listMemories('acme', { level: ['insight'] });
      const fromOrders = insights.filter((m) => m.provenance.some((p) => p.repo === 'acme/orders'));
      expect(fromOrders).toHaveLength(2);
      for (const memory of fromOrders) {
        expect(JSON.stringify(memory)).not.toMatch(/invoiceDates|parseInvoiceDate|line 12/);
      }
      const kept = fromOrders.find((m) => m.model === 'gpt-5-mini')!;
      expect(kept.content).toBe('Edit the affected module, then add a test that sends the same request twice.');
      expect(fromOrders.find((m) => m.provenance.some((p) => p.ref === '8'))?.model).toBe('rules@1');
    } finally {
      await store.close();
    }
  });
});
