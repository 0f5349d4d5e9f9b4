// `mcp: true`: the MCP configuration the Action writes starts, as written, with no registry and no
// `npx` on the PATH, on a gzip pool file, and answers `recall`. The committed bundle runs as a
// runner runs it (node dist/action/index.js); the agent's side is the MCP SDK's own client.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePoolBytes, parsePoolBytes, serializePool } from '../../src/core/retrieval/pool-file.js';
import { SMOKE_POOL } from './harness.js';

const ROOT = process.cwd();
const TASK = 'The database migration fails on a fresh install';
let dir: string;
let workspace: string;
let runner: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mt-action-mcp-'));
  workspace = path.join(dir, 'ws');
  runner = path.join(dir, 'runner');
  await mkdir(path.join(workspace, '.github'), { recursive: true });
  await mkdir(runner, { recursive: true });
  // the runner creates these files before the step
  await writeFile(path.join(runner, 'output'), '');
  await writeFile(path.join(runner, 'summary.md'), '');
  // the README's export: `export --for-action --out .github/memory-pool.jsonl.gz`
  const { header, memories } = parsePoolBytes(await readFile(SMOKE_POOL));
  const file = '.github/memory-pool.jsonl.gz';
  await writeFile(
    path.join(workspace, file),
    encodePoolBytes(serializePool(header, memories, { forAction: true }), file),
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The environment of a job in acme/web (private), as the runner gives it to the Action and the agent. */
async function jobEnv(): Promise<Record<string, string>> {
  const event = path.join(runner, 'event.json');
  await writeFile(
    event,
    JSON.stringify({ repository: { full_name: 'acme/web', private: true, visibility: 'private' } }),
  );
  return {
    GITHUB_ACTIONS: 'true',
    GITHUB_REPOSITORY: 'acme/web',
    GITHUB_EVENT_NAME: 'workflow_dispatch',
    GITHUB_EVENT_PATH: event,
    GITHUB_WORKSPACE: workspace,
    GITHUB_RUN_ID: '4242',
    RUNNER_TEMP: path.join(runner, 'tmp'),
    GITHUB_OUTPUT: path.join(runner, 'output'),
    GITHUB_STEP_SUMMARY: path.join(runner, 'summary.md'),
  };
}

describe("the Action's MCP configuration", () => {
  it('starts the Action’s own server with the runner’s node, on a gzip pool file, and answers recall', async () => {
    const env = await jobEnv();
    await promisify(execFile)(process.execPath, [path.join(ROOT, 'dist/action/index.js')], {
      cwd: workspace,
      env: {
        ...env,
        PATH: process.env.PATH ?? '',
        INPUT_POOL: '.github/memory-pool.jsonl.gz',
        INPUT_TASK: TASK,
        INPUT_TARGET: 'agents-md',
        INPUT_MCP: 'true',
      },
    });
    const entry = JSON.parse(await readFile(path.join(workspace, '.mcp.json'), 'utf8')).mcpServers['memory-transfer'];
    expect(entry.command).toBe(process.execPath);
    expect(entry.args[0]).toBe(path.join(ROOT, 'dist/action/memory-transfer-mcp.js'));

    // the agent starts exactly that command: no PATH (so no npx, no registry), the job's variables
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      env: { ...env, PATH: '' },
      cwd: workspace,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client = new Client({ name: 'agent', version: '1.0.0' });
    try {
      await client.connect(transport);
      const recalled = await client.callTool({ name: 'recall', arguments: { task: TASK } });
      expect(recalled.isError, stderr).toBeFalsy();
      const insights = (recalled.structuredContent as { insights: { id: string; title: string }[] }).insights;
      expect(insights[0]?.title).toBe('Run migration tests against a fresh database');
    } finally {
      await client.close();
    }
  });
});
