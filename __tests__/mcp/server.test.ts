// The MCP server over a failing source, through the SDK's in-memory transport: a pool error is a
// tool error saying what happened, never a crash; an unexpected error is not shown over HTTP.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../src/core/errors.js';
import type { InsightSource } from '../../src/mcp/insight-source.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { silentLogger, type Logger } from '../../src/ports/index.js';
import { textOf } from './mcp-harness.js';

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
