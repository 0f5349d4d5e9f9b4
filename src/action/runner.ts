/**
 * The Action's only I/O shell: reads inputs (zod) and the job's environment, builds the ports,
 * calls main(), sets outputs, writes the job summary, and fails the step with one clear line.
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { InputError, describeError } from '../core/errors.js';
import { MEMORY_LEVELS, VISIBILITIES, type Visibility } from '../core/types.js';
import { MODEL_NAME } from '../config/llm-env.js';
import type { Logger } from '../ports/index.js';
import type { ChangedPathsFetcher } from './event-task.js';
import { workflowLogger } from './logger.js';
import { main, type ActionInputs, type ActionResult, type RunContext } from './main.js';
import type { McpServerProgram } from './mcp-config/server-spec.js';
import type { LocalRecall, PoolParser } from './pool-recall.js';
import type { RecallClient } from './server-client.js';
import { withheldLine } from '../core/rendering/withheld.js';
import { renderSummary } from './summary.js';
import { workflowCommands } from './workflow-commands.js';

/** The slice of an Octokit the Action uses (so tests can pass one built with `request.fetch`). */
export interface ActionOctokit {
  rest: {
    pulls: {
      listFiles(params: { owner: string; repo: string; pull_number: number; per_page?: number }): Promise<{
        data: { filename: string }[];
      }>;
    };
  };
}

export interface RunnerDeps {
  env: NodeJS.ProcessEnv;
  logger: Logger;
  getIdToken: (audience: string) => Promise<string>;
  /** builds the Octokit when a pull request's paths are needed (loaded lazily: most runs never need it) */
  createOctokit: (token: string) => ActionOctokit | Promise<ActionOctokit>;
  fetch?: typeof globalThis.fetch;
  parsePool: PoolParser;
  recallLocal: LocalRecall;
  /** the Action's own MCP server (the runner's node and dist/action/memory-transfer-mcp.js) */
  mcpServer: McpServerProgram;
  setOutput: (name: string, value: string) => void;
  setFailed: (message: string) => void;
  /** appends Markdown to the job summary (GITHUB_STEP_SUMMARY) */
  writeSummary: (markdown: string) => Promise<void>;
}

/**
 * The inputs are read by hand, not with zod: a pool-file run reads no other schema, and loading
 * zod cost the Action half a `node -e 0` at every start.
 */
export const INPUT_NAMES = [
  'server-url',
  'pool',
  'task',
  'top-k',
  'min-score',
  'level',
  'target',
  'audience',
  'token',
  'dry-run',
  'report-usage',
  'fail-on-error',
  'timeout-seconds',
  'mcp',
  'model-api-key',
  'model-base-url',
  'read-model',
] as const;
type InputName = (typeof INPUT_NAMES)[number];

/** One input's problem: `name: message` is the line the step fails with. */
function bad(name: string, message: string): never {
  throw new InputError(`${name}: ${message}`);
}

/** Reads INPUT_* the way @actions/core does (spaces → _, upper case); blank is absent, else trimmed. */
function rawInput(env: NodeJS.ProcessEnv, name: InputName): string | undefined {
  const value = env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function booleanInput(env: NodeJS.ProcessEnv, name: InputName, fallback: boolean): boolean {
  const value = rawInput(env, name)?.toLowerCase() ?? String(fallback);
  if (value !== 'true' && value !== 'false') bad(name, 'must be true or false');
  return value === 'true';
}

/**
 * A number input in a range: one message naming the range, an example and the value given
 * (`top-k: must be a whole number from 1 to 10, e.g. 3; got "11"`).
 */
function numberInput(
  env: NodeJS.ProcessEnv,
  name: InputName,
  range: { min: number; max: number; whole?: boolean; example: string; exclusiveMin?: boolean },
): number | undefined {
  const raw = rawInput(env, name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  const ok =
    !Number.isNaN(value) &&
    value <= range.max &&
    (range.exclusiveMin ? value > range.min : value >= range.min) &&
    (!range.whole || Number.isSafeInteger(value));
  if (ok) return value;
  const kind = range.whole ? 'a whole number' : 'a number';
  const from = range.exclusiveMin ? `above ${range.min} up to ${range.max}` : `from ${range.min} to ${range.max}`;
  // the number as a number reads it ("1e1" → "10"), else the text as given
  const got = Number.isNaN(value) ? raw : String(value);
  return bad(name, `must be ${kind} ${from}, e.g. ${range.example}; got ${JSON.stringify(got)}`);
}

function oneOf<T extends string>(name: InputName, value: string, values: readonly T[]): T {
  if (!(values as readonly string[]).includes(value))
    bad(name, `must be one of ${values.map((v) => `"${v}"`).join(', ')}; got ${JSON.stringify(value)}`);
  return value as T;
}

/** An http(s) URL with a host. */
function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export function parseInputs(env: NodeJS.ProcessEnv): ActionInputs {
  const serverUrl = rawInput(env, 'server-url');
  if (serverUrl !== undefined && !isHttpUrl(serverUrl))
    bad('server-url', 'must be an http(s) URL, e.g. https://memory.acme.dev');
  const pool = rawInput(env, 'pool');
  const task = rawInput(env, 'task');
  const topK = numberInput(env, 'top-k', { min: 1, max: 10, whole: true, example: '3' }) ?? 3;
  const minScore = numberInput(env, 'min-score', { min: 0, max: 1, example: '0.3' });
  const level = oneOf('level', rawInput(env, 'level') ?? 'insight', MEMORY_LEVELS);
  const target = rawInput(env, 'target') ?? 'agents-md';
  const audience = rawInput(env, 'audience') ?? 'memory-transfer';
  const token = rawInput(env, 'token');
  const dryRun = booleanInput(env, 'dry-run', false);
  const reportUsage = booleanInput(env, 'report-usage', true);
  const failOnError = booleanInput(env, 'fail-on-error', false);
  const timeoutSeconds =
    numberInput(env, 'timeout-seconds', { min: 0, max: 300, exclusiveMin: true, example: '10' }) ?? 10;
  const mcp = booleanInput(env, 'mcp', false);
  const model = modelInputs(env);
  if ((serverUrl === undefined) === (pool === undefined)) {
    bad(
      'server-url/pool',
      `give exactly one of "server-url" (the App's URL) or "pool" (a JSONL export in the workspace); ${serverUrl !== undefined ? 'both were given' : 'neither was given'}`,
    );
  }
  return {
    ...(serverUrl !== undefined ? { serverUrl } : {}),
    ...(pool !== undefined ? { pool } : {}),
    ...(task !== undefined ? { task } : {}),
    topK,
    ...(minScore !== undefined ? { minScore } : {}),
    level,
    target,
    audience,
    ...(token !== undefined ? { token } : {}),
    dryRun,
    reportUsage,
    failOnError,
    timeoutMs: Math.round(timeoutSeconds * 1000),
    mcp,
    ...(model ? { model } : {}),
  };
}

/** The model that reads the task in pool-file mode: an API key, and optionally its endpoint and model. */
function modelInputs(env: NodeJS.ProcessEnv): ActionInputs['model'] {
  const apiKey = rawInput(env, 'model-api-key');
  const baseUrl = rawInput(env, 'model-base-url');
  const readModel = rawInput(env, 'read-model');
  if (baseUrl !== undefined && !isHttpUrl(baseUrl))
    bad('model-base-url', 'must be an http(s) URL, e.g. https://api.openai.com/v1');
  if (readModel !== undefined && !MODEL_NAME.test(readModel))
    bad('read-model', 'must be a model name (letters, digits, . : / @ + - _), e.g. gpt-5-mini');
  if (apiKey === undefined) {
    if (baseUrl !== undefined || readModel !== undefined)
      bad(baseUrl !== undefined ? 'model-base-url' : 'read-model', 'needs model-api-key (pass it from a secret)');
    return undefined;
  }
  return { apiKey, ...(baseUrl !== undefined ? { baseUrl } : {}), ...(readModel !== undefined ? { readModel } : {}) };
}

/** The repository's visibility from the event payload (public when unknown: the most careful reader). */
function visibilityOf(payload: unknown): Visibility {
  const repo = (payload as { repository?: { visibility?: unknown; private?: unknown } } | null)?.repository;
  const visibility = repo?.visibility;
  if (typeof visibility === 'string' && (VISIBILITIES as readonly string[]).includes(visibility))
    return visibility as Visibility;
  return repo?.private === true ? 'private' : 'public';
}

async function readContext(env: NodeJS.ProcessEnv): Promise<RunContext> {
  const repository = env.GITHUB_REPOSITORY ?? '';
  if (!/^[^/\s]+\/[^/\s]+$/.test(repository))
    throw new InputError('GITHUB_REPOSITORY is not set: run this inside GitHub Actions');
  let payload: unknown = {};
  if (env.GITHUB_EVENT_PATH) {
    try {
      payload = JSON.parse(await readFile(env.GITHUB_EVENT_PATH, 'utf8'));
    } catch (error) {
      throw new InputError(`GITHUB_EVENT_PATH: cannot read the event payload (${describeError(error)})`);
    }
  }
  const attempt = Number(env.GITHUB_RUN_ATTEMPT);
  return {
    eventName: env.GITHUB_EVENT_NAME ?? '',
    payload,
    repository,
    ...(env.GITHUB_RUN_ID ? { runId: env.GITHUB_RUN_ID } : {}),
    ...(Number.isInteger(attempt) && attempt > 0 ? { runAttempt: attempt } : {}),
    workspace: env.GITHUB_WORKSPACE || process.cwd(),
    tempDir: env.RUNNER_TEMP || os.tmpdir(),
    codexHome: env.CODEX_HOME || path.join(os.homedir(), '.codex'),
    githubUrl: env.GITHUB_SERVER_URL || 'https://github.com',
    visibility: visibilityOf(payload),
  };
}

function changedPathsFetcher(inputs: ActionInputs, deps: RunnerDeps): ChangedPathsFetcher {
  return async (owner, repo, pullNumber) => {
    if (!inputs.token) return [];
    try {
      const octokit = await deps.createOctokit(inputs.token);
      const { data } = await octokit.rest.pulls.listFiles({ owner, repo, pull_number: pullNumber, per_page: 100 });
      return data.map((file) => file.filename);
    } catch (error) {
      deps.logger.warn(
        `Memory Transfer: could not list the pull request's changed paths (${describeError(error)}); using its title and body`,
      );
      return [];
    }
  };
}

function setOutputs(result: ActionResult, deps: RunnerDeps): void {
  deps.setOutput('insights', result.rendered.markdown);
  deps.setOutput('insights-json', JSON.stringify(result.insights));
  deps.setOutput('count', String(result.insights.length));
  deps.setOutput('ids', result.rendered.ids.join(','));
  deps.setOutput('prompt-file', result.promptFile);
  deps.setOutput('mcp-config', result.mcp?.config ?? '');
  deps.setOutput('claude-args', result.mcp?.claudeArgs ?? '');
}

/** Runs the Action. Never throws: a failure becomes setFailed with one line. */
export async function run(deps: RunnerDeps): Promise<ActionResult | undefined> {
  try {
    const inputs = parseInputs(deps.env);
    const context = await readContext(deps.env);
    // the server client is loaded only in server mode
    const server: RecallClient | undefined = inputs.serverUrl
      ? (await import('./server-client.js')).createServerClient({
          serverUrl: inputs.serverUrl,
          audience: inputs.audience,
          timeoutMs: inputs.timeoutMs,
          getIdToken: deps.getIdToken,
          ...(deps.fetch ? { fetch: deps.fetch } : {}),
        })
      : undefined;
    // the model that reads the task: pool-file mode only (in server mode the App's model reads it)
    if (inputs.model && inputs.serverUrl)
      deps.logger.warn(
        "Memory Transfer: model-api-key is used in pool-file mode only; in server mode the App's own model reads the task",
      );
    const taskReader =
      inputs.model && inputs.pool
        ? await (await import('./model-reader.js')).actionTaskReader(inputs.model, inputs.timeoutMs, deps.logger)
        : undefined;
    const result = await main(inputs, context, {
      logger: deps.logger,
      ...(taskReader ? { taskReader } : {}),
      ...(server ? { server } : {}),
      changedPaths: changedPathsFetcher(inputs, deps),
      parsePool: deps.parsePool,
      recallLocal: deps.recallLocal,
      mcpServer: deps.mcpServer,
    });
    setOutputs(result, deps);
    if (result.insights.length > 0) {
      deps.logger.info(
        `Memory Transfer: ${result.insights.length} insight(s) for target ${result.target}: ${result.rendered.ids.join(', ')}`,
      );
    }
    if (result.withheld)
      deps.logger.warn(`Memory Transfer: ${withheldLine(result.withheld, inputs.pool !== undefined)}`);
    else if (result.insights.length === 0 && !result.refusal && !result.recallError)
      deps.logger.info('Memory Transfer: no insight cleared the relevance bar');
    await deps
      .writeSummary(
        renderSummary(result, inputs.pool !== undefined ? 'pool' : 'server', inputs.dryRun, context.githubUrl),
      )
      .catch((error: unknown) =>
        deps.logger.warn(`Memory Transfer: could not write the job summary (${describeError(error)})`),
      );
    return result;
  } catch (error) {
    deps.setFailed(`Memory Transfer: ${describeError(error)}`);
    return undefined;
  }
}

/**
 * The production ports, over the runner's commands and the process environment. @actions/core
 * (and its HTTP client) is loaded only to get the OIDC token, in server mode.
 */
export function actionsRunnerDeps(
  parts: Pick<RunnerDeps, 'createOctokit' | 'parsePool' | 'recallLocal' | 'mcpServer'>,
): RunnerDeps {
  const commands = workflowCommands(process.env);
  return {
    env: process.env,
    logger: workflowLogger(commands),
    getIdToken: async (audience) => (await import('@actions/core')).getIDToken(audience),
    setOutput: (name, value) => commands.setOutput(name, value),
    setFailed: (message) => commands.setFailed(message),
    writeSummary: (markdown) => commands.appendSummary(markdown),
    ...parts,
  };
}
