/** Runs the Action's run() with a stubbed job environment: INPUT_* vars, an event payload file, temp dirs. */
import { getOctokit } from '@actions/github';
import { createRequire } from 'node:module';
import { mkdir, mkdtemp, readFile, rm, writeFile, copyFile } from 'node:fs/promises';
import { onTestFinished } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { parsePoolFile, recallInMemory } from '../../src/action/local-recall.js';
import { run, type RunnerDeps } from '../../src/action/runner.js';
import type { ActionResult } from '../../src/action/main.js';

const require = createRequire(import.meta.url);
const examples = require('@octokit/webhooks-examples/api.github.com/index.json') as {
  name: string;
  examples: ({ action?: string } & Record<string, unknown>)[];
}[];

export const SMOKE_POOL = path.resolve('__tests__/fixtures/pools/smoke.jsonl');
/** The Action's own MCP server, as the committed bundle ships it. */
export const ACTION_MCP_SERVER = path.resolve('dist/action/memory-transfer-mcp.js');

/** A real example payload of @octokit/webhooks-examples, moved to acme/web (public) and overridden. */
export function examplePayload(
  event: string,
  action: string | undefined,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const found = examples
    .find((e) => e.name === event)
    ?.examples.find((e) => action === undefined || e.action === action);
  if (!found) throw new Error(`no example for ${event}.${action}`);
  const payload = structuredClone(found) as Record<string, unknown>;
  payload.repository = {
    ...(payload.repository as object),
    id: 4242,
    name: 'web',
    full_name: 'acme/web',
    owner: { login: 'acme', id: 100 },
    private: false,
    visibility: 'public',
  };
  return { ...payload, ...overrides };
}

export interface Harness {
  workspace: string;
  tempDir: string;
  codexHome: string;
  outputs: Record<string, string>;
  failures: string[];
  warnings: string[];
  summaries: string[];
  result: ActionResult | undefined;
  run(): Promise<ActionResult | undefined>;
  read(rel: string): Promise<string>;
}

export async function harness(options: {
  inputs: Record<string, string>;
  event?: string;
  payload?: unknown;
  repository?: string;
  withPool?: boolean;
  getIdToken?: RunnerDeps['getIdToken'];
}): Promise<Harness> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mt-action-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const workspace = path.join(dir, 'ws');
  const tempDir = path.join(dir, 'runner-temp');
  const codexHome = path.join(dir, 'codex-home');
  await mkdir(workspace, { recursive: true });
  if (options.withPool !== false) await copyFile(SMOKE_POOL, path.join(workspace, 'pool.jsonl'));
  const eventPath = path.join(dir, 'event.json');
  await writeFile(eventPath, JSON.stringify(options.payload ?? {}));
  const env: NodeJS.ProcessEnv = {
    GITHUB_REPOSITORY: options.repository ?? 'acme/web',
    GITHUB_EVENT_NAME: options.event ?? 'push',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_WORKSPACE: workspace,
    RUNNER_TEMP: tempDir,
    CODEX_HOME: codexHome,
    GITHUB_RUN_ID: '777',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_SERVER_URL: 'https://github.com',
  };
  for (const [name, value] of Object.entries(options.inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  const h: Harness = {
    workspace,
    tempDir,
    codexHome,
    outputs: {},
    failures: [],
    warnings: [],
    summaries: [],
    result: undefined,
    async run() {
      const deps: RunnerDeps = {
        env,
        logger: {
          debug: () => undefined,
          info: () => undefined,
          warn: (message) => h.warnings.push(message),
          error: (message) => h.warnings.push(message),
        },
        getIdToken: options.getIdToken ?? (async (audience) => `oidc-token-for-${audience}`),
        // in tests only: @actions/github's own fetch is invisible to nock
        createOctokit: (token) => getOctokit(token, { request: { fetch: globalThis.fetch } }),
        parsePool: parsePoolFile,
        recallLocal: recallInMemory,
        mcpServer: { node: process.execPath, script: ACTION_MCP_SERVER },
        setOutput: (name, value) => {
          h.outputs[name] = value;
        },
        setFailed: (message) => h.failures.push(message),
        writeSummary: async (markdown) => {
          h.summaries.push(markdown);
        },
      };
      h.result = await run(deps);
      return h.result;
    },
    read: (rel) => readFile(path.resolve(workspace, rel), 'utf8'),
  };
  return h;
}
