/** Test helpers for the MCP server: the pool's insights, and the SDK's own client over stdio. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Memory } from '../../src/core/types.js';
import { sampleMemory } from '../helpers/sample-memory.js';

export const CANARY = 'CANARY-5e1f-from-a-private-repo';
export const PUBLIC_ID = 'm0000000101';
export const PRIVATE_ID = 'm0000000102';
export const PROPOSED_ID = 'm0000000103';
export const TASK = 'the database migration fails on a fresh install';

function insight(id: string, overrides: Partial<Memory>): Memory {
  const base = sampleMemory();
  return sampleMemory({
    id,
    title: 'Run migration tests against a fresh database',
    description: 'After changing a database migration, apply every migration to an empty database in a test.',
    content: 'Create a fresh database in the test run, apply all migrations, then run the schema tests.',
    tags: ['routine:migration'],
    provenance: [
      {
        ...base.provenance[0]!,
        repo: 'acme/api',
        visibility: 'public',
        sourceKind: 'pull_request',
        ref: '12',
        url: 'https://github.com/acme/api/pull/12',
      },
    ],
    visibility: 'public',
    ...overrides,
  });
}

/** A public insight of acme/api, a private one of acme/secret (carrying a canary), a proposed one. */
export function poolInsights(): Memory[] {
  return [
    insight(PUBLIC_ID, {}),
    insight(PRIVATE_ID, {
      title: `Migration routine ${CANARY}`,
      content: `Fresh database migration tests ${CANARY}`,
      provenance: [{ ...sampleMemory().provenance[0]!, repo: 'acme/secret', visibility: 'private' }],
      visibility: 'private',
    }),
    insight(PROPOSED_ID, { status: 'proposed', title: 'Proposed database migration routine' }),
  ];
}

/** Starts `memory-transfer <args>` from the sources (under tsx) and connects the SDK's client to it. */
export async function stdioClient(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ client: Client; stderr: () => string; close: () => Promise<void> }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', `${process.cwd()}/__tests__/helpers/cli-entry.ts`, ...args],
    // the repository's root, where tsx resolves; every path given to the command is absolute
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

export function textOf(result: unknown): string {
  const content = (result as CallToolResult).content;
  return content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}
