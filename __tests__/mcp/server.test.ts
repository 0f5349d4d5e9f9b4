// The MCP server over a failing source, through the SDK's in-memory transport: a pool error is a
// tool error saying what happened, never a crash; an unexpected error is not shown over HTTP.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { createTaskReader } from '../../src/abstraction/llm-task-reader.js';
import { llmConfigFromEnv } from '../../src/config/llm.js';
import { StoreError } from '../../src/core/errors.js';
import type { InsightSource } from '../../src/mcp/insight-source.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { MemoryIndex } from '../../src/core/retrieval/memory-index.js';
import { createPoolSource, type BoundRepository } from '../../src/mcp/pool-source.js';
import { boundRepository } from '../../src/mcp/stdio.js';
import { silentLogger, systemClock, type Logger } from '../../src/ports/index.js';
import { chatCompletion } from '../helpers/openai-server.js';
import { CANARY, PRIVATE_ID, TASK, poolInsights, textOf } from './mcp-harness.js';

function failing(error: Error): InsightSource {
  const fail = async (): Promise<never> => {
    throw error;
  };
  return { label: 'a failing pool', recall: fail, show: fail, reportOutcome: fail, top: fail };
}

async function connected(source: InsightSource, exposeUnexpected: boolean, logger: Logger = silentLogger) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer(source, { logger, version: '0.0.0-test', exposeUnexpected });
  await server.connect(serverSide);
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

describe('the MCP server over a failing pool', () => {
  it('turns a pool error into a tool error and keeps serving', async () => {
    const locked = new StoreError('the pool is locked by another process; try again in a moment', 'locked');
    const client = await connected(failing(locked), false);
    const result = await client.callTool({ name: 'recall', arguments: { task: 'flaky migration test' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('recall: the pool is locked by another process; try again in a moment');
    const again = await client.callTool({ name: 'show', arguments: { id: 'm0000000001' } });
    expect(textOf(again)).toMatch(/^show: the pool is locked/);
    expect((await client.listTools()).tools).toHaveLength(3);
    await client.close();
  });

  it('hides an unexpected error over HTTP (logged instead), and shows it on a local stdio server', async () => {
    const logged: string[] = [];
    const logger: Logger = {
      ...silentLogger,
      error: (message, fields) => logged.push(`${message} ${JSON.stringify(fields)}`),
    };
    const secretish = new Error('SQLITE_MISUSE at /srv/pool.db line 42');
    const remote = await connected(failing(secretish), false, logger);
    const hidden = await remote.callTool({ name: 'recall', arguments: { task: 'flaky migration test' } });
    expect(textOf(hidden)).toBe('recall: internal error; try again later');
    expect(logged.join('\n')).toContain('SQLITE_MISUSE');
    await remote.close();
    const local = await connected(failing(secretish), true);
    const shown = await local.callTool({ name: 'recall', arguments: { task: 'flaky migration test' } });
    expect(textOf(shown)).toBe('recall: SQLITE_MISUSE at /srv/pool.db line 42');
    await local.close();
  });
});

describe("a local admin's server over one pool of several owners", () => {
  it('names where an insight was learned, never "this repository", and makes up no link', async () => {
    // the CLI's one pool: tenant acme, an insight learned from a local clone of globex/api (no URL)
    const insight = poolInsights()[0]!;
    const memory = {
      ...insight,
      provenance: [{ ...insight.provenance[0]!, repo: 'globex/api', url: undefined }],
    };
    const source = createPoolSource({
      label: 'the pool',
      recallDeps: { store: new MemoryIndex([memory]), logger: silentLogger, clock: systemClock },
      tenant: 'acme',
      list: async () => [memory],
    });
    const client = await connected(source, true);
    const recalled = await client.callTool({ name: 'recall', arguments: { task: TASK } });
    const [item] = (recalled.structuredContent as { insights: { source: unknown }[] }).insights;
    expect(item?.source).toEqual({ repo: 'globex/api' });
    expect(textOf(recalled)).toContain('learned in globex/api');
    expect(textOf(recalled)).not.toContain('learned in this repository');
    const shown = await client.callTool({ name: 'show', arguments: { id: memory.id } });
    expect(JSON.stringify(shown)).not.toContain('https://');
    await client.close();
  });
});

describe('what a repository may not see', () => {
  const privateInsight = () => poolInsights().find((m) => m.id === PRIVATE_ID)!;
  const serverFor = (bound: BoundRepository, nameWithheld?: boolean) =>
    connected(
      createPoolSource({
        label: 'the pool',
        recallDeps: { store: new MemoryIndex([privateInsight()]), logger: silentLogger, clock: systemClock },
        tenant: 'acme',
        bound,
        list: async () => [privateInsight()],
        ...(nameWithheld !== undefined ? { nameWithheld } : {}),
      }),
      true,
    );

  it('recall in a public repository says how many were withheld and how to share them, not "not relevant"', async () => {
    const client = await serverFor({ repo: 'acme/web', visibility: 'public' });
    const recalled = await client.callTool({ name: 'recall', arguments: { task: TASK } });
    expect(recalled.structuredContent).toEqual({
      insights: [],
      withheld: { count: 1, ids: [PRIVATE_ID], visibility: 'public' },
      taskKind: 'failure',
    });
    expect(textOf(recalled)).toMatch(
      /^No insight this repository may see is relevant to this task\. 1 relevant insight was withheld: .*`memory-transfer share ID` \(ids: m0000000102\)/,
    );
    expect(textOf(recalled)).not.toContain(CANARY);
    await client.close();
    // the App tells a repository a count, never which
    const app = await serverFor({ repo: 'acme/web', visibility: 'public' }, false);
    const counted = await app.callTool({ name: 'recall', arguments: { task: TASK } });
    expect((counted.structuredContent as { withheld: unknown }).withheld).toEqual({
      count: 1,
      ids: [],
      visibility: 'public',
    });
    await app.close();
  });

  it('one default visibility for a repository named by hand: private, as recall --repo; the job’s own reads as its event says', () => {
    expect(boundRepository({ repo: 'acme/web' }, {})).toEqual({ repo: 'acme/web', visibility: 'private' });
    expect(boundRepository({}, { repository: 'acme/web' })).toEqual({ repo: 'acme/web', visibility: 'public' });
    expect(boundRepository({ repo: 'acme/web' }, { repository: 'acme/web', visibility: 'internal' })).toEqual({
      repo: 'acme/web',
      visibility: 'internal',
    });
    expect(boundRepository({ repo: 'acme/web', visibility: 'public' }, {})).toEqual({
      repo: 'acme/web',
      visibility: 'public',
    });
  });
});

describe('the kind of task recall reads', () => {
  it('says which kind it read: a failure gets routines, a question gets none and is told why', async () => {
    const memories = poolInsights();
    const source = createPoolSource({
      label: 'the pool',
      recallDeps: { store: new MemoryIndex(memories), logger: silentLogger, clock: systemClock },
      tenant: 'acme',
      list: async () => memories,
    });
    const client = await connected(source, true);
    const failure = await client.callTool({ name: 'recall', arguments: { task: TASK } });
    expect((failure.structuredContent as { taskKind: string }).taskKind).toBe('failure');
    const question = await client.callTool({
      name: 'recall',
      arguments: { task: 'How do I run the migrations against a fresh database?' },
    });
    expect(question.structuredContent).toMatchObject({ taskKind: 'question', insights: [] });
    expect(textOf(question)).toMatch(/the task is a question/);
    await client.close();
  });

  it("says the model's kind when a model reads the task, though the rules would read another", async () => {
    const memories = poolInsights();
    nock('https://llm.test')
      .post('/v1/chat/completions')
      .reply(200, chatCompletion({ task_kind: 'question', routines: [] }));
    const taskReader = createTaskReader(
      llmConfigFromEnv({
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: 'https://llm.test/v1',
        MEMORY_TRANSFER_LLM_RETRIES: '0',
      }),
      silentLogger,
    )!;
    const source = createPoolSource({
      label: 'the pool',
      recallDeps: { store: new MemoryIndex(memories), logger: silentLogger, clock: systemClock, taskReader },
      tenant: 'acme',
      list: async () => memories,
    });
    const client = await connected(source, true);
    // the rules read TASK as a failure (above)
    const read = await client.callTool({ name: 'recall', arguments: { task: TASK } });
    expect(read.structuredContent).toMatchObject({ taskKind: 'question', insights: [] });
    expect(textOf(read)).toMatch(/the task is a question/);
    await client.close();
  });
});
