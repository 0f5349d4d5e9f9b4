import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { createAbstractor } from '../../src/abstraction/create-abstractor.js';
import { llmConfigFromEnv } from '../../src/config/llm.js';
import { silentLogger } from '../../src/ports/index.js';
import { makeFix } from './llm-fixtures.js';

describe('createAbstractor', () => {
  it('uses the rules offline, without any request', async () => {
    const abstractor = createAbstractor(llmConfigFromEnv({}), silentLogger);
    const result = await abstractor.abstract(makeFix());
    expect(result.model).toBe('rules@1');
    expect(result.memories.map((m) => m.level)).toEqual(['trajectory', 'workflow', 'summary', 'insight']);
  });

  it('uses the configured model of the configured endpoint when a key is set', async () => {
    let model = '';
    nock('https://llm.test')
      .post('/v1/chat/completions', (body: any) => {
        model = body.model;
        return true;
      })
      .reply(200, {
        id: 'x',
        object: 'chat.completion',
        created: 1,
        model: 'local-model',
        choices: [
          {
            index: 0,
            finish_reason: 'stop',
            message: {
              role: 'assistant',
              refusal: null,
              content: JSON.stringify({
                workflow: { goal: 'Verify defaults survive shorthand.', steps: ['Write the test.', 'Run it.'] },
                summary: { task_summary: 'Shorthand options lost defaults.', experience_summary: 'Assert defaults.' },
                insight: {
                  title: 'Assert defaults after shorthand options',
                  description: 'Applies when an option has a shorthand form.',
                  content: 'Test the shorthand and assert every default field.',
                },
                tags: { routine: ['config-env'], check: [], language: null, tool: null },
              }),
            },
          },
        ],
      });
    const config = llmConfigFromEnv({
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: 'https://llm.test/v1',
      MEMORY_TRANSFER_ABSTRACT_MODEL: 'local-model',
    });
    const result = await createAbstractor(config, silentLogger).abstract(makeFix());
    expect(model).toBe('local-model');
    expect(result.model).toBe('local-model');
  });
});
