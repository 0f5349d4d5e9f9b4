/**
 * The Action's only I/O shell: reads inputs (zod) and the job's environment, builds the ports,
 * calls main(), sets outputs, writes the job summary, and fails the step with one clear line.
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { InputError, describeError } from '../core/errors.js';
import { describeZodError } from '../core/recall-api.js';
import { MEMORY_LEVELS, VISIBILITIES, type Visibility } from '../core/types.js';
import type { Logger } from '../services/ports.js';
import type { ChangedPathsFetcher } from './event-task.js';
import { workflowLogger } from './logger.js';
import { main, type ActionInputs, type ActionResult, type RunContext } from './main.js';
import type { LocalRecall, PoolParser } from './pool-recall.js';
import type { RecallClient } from './server-client.js';
import { renderSummary, withheldLine } from './summary.js';
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
  setOutput: (name: string, value: string) => void;
  setFailed: (message: string) => void;
  /** appends Markdown to the job summary (GITHUB_STEP_SUMMARY) */
  writeSummary: (markdown: string) => Promise<void>;
}

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const optionalString = z.preprocess(blankToUndefined, z.string().trim().optional());
const bool = (fallback: boolean) =>
  z.preprocess(
    (value) => blankToUndefined(typeof value === 'string' ? value.trim().toLowerCase() : value) ?? String(fallback),
    z.enum(['true', 'false'], { error: 'must be true or false' }).transform((v) => v === 'true'),
  );
/** a number, or the text as given when it is none (so the message can quote it) */
const toNumber = (value: unknown) => {
  const v = blankToUndefined(value);
  return v === undefined || Number.isNaN(Number(v)) ? v : Number(v);
};
const numberOr = (schema: z.ZodNumber, fallback: number) => z.preprocess((v) => toNumber(v) ?? fallback, schema);
const optionalNumber = (schema: z.ZodNumber) => z.preprocess(toNumber, schema.optional());
/**
 * A number input in a range: one message naming the range, an example and the value given
 * (`top-k: must be a whole number from 1 to 10, e.g. 3; got "11"`).
 */
const inRange = (options: { min: number; max: number; whole?: boolean; example: string; exclusiveMin?: boolean }) => {
  const kind = options.whole ? 'a whole number' : 'a number';
  const from = options.exclusiveMin
    ? `above ${options.min} up to ${options.max}`
    : `from ${options.min} to ${options.max}`;
  const error = (issue: { input?: unknown }) =>
    `must be ${kind} ${from}, e.g. ${options.example}; got ${JSON.stringify(String(issue.input))}`;
  let schema = z.number({ error }).max(options.max, { error });
  schema = options.exclusiveMin ? schema.gt(options.min, { error }) : schema.min(options.min, { error });
  return options.whole ? schema.int({ error }) : schema;
};

const inputsSchema = z
  .object({
    'server-url': optionalString.pipe(
      z.url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. https://memory.acme.dev' }).optional(),
    ),
    pool: optionalString,
    task: optionalString,
    'top-k': numberOr(inRange({ min: 1, max: 10, whole: true, example: '3' }), 3),
    'min-score': optionalNumber(inRange({ min: 0, max: 1, example: '0.3' })),
    level: z.preprocess((v) => blankToUndefined(v) ?? 'insight', z.enum(MEMORY_LEVELS)),
    target: z.preprocess((v) => blankToUndefined(v) ?? 'agents-md', z.string().trim()),
    audience: z.preprocess((v) => blankToUndefined(v) ?? 'memory-transfer', z.string().trim()),
    token: optionalString,
    'dry-run': bool(false),
    'report-usage': bool(true),
    'fail-on-error': bool(false),
    'timeout-seconds': numberOr(inRange({ min: 0, max: 300, exclusiveMin: true, example: '10' }), 10),
    mcp: bool(false),
  })
  .superRefine((value, ctx) => {
    const both = value['server-url'] !== undefined && value.pool !== undefined;
    const neither = value['server-url'] === undefined && value.pool === undefined;
    if (both || neither) {
      ctx.addIssue({
        code: 'custom',
        path: ['server-url/pool'],
        message: `give exactly one of "server-url" (the App's URL) or "pool" (a JSONL export in the workspace); ${both ? 'both were given' : 'neither was given'}`,
      });
    }
  });

export const INPUT_NAMES = Object.keys(inputsSchema.shape) as (keyof typeof inputsSchema.shape)[];

/** Reads INPUT_* the way @actions/core does (spaces → _, upper case). */
function rawInputs(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  return Object.fromEntries(INPUT_NAMES.map((name) => [name, env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`]]));
}

export function parseInputs(env: NodeJS.ProcessEnv): ActionInputs {
  const parsed = inputsSchema.safeParse(rawInputs(env));
  if (!parsed.success) throw new InputError(describeZodError(parsed.error));
  const v = parsed.data;
  return {
    ...(v['server-url'] !== undefined ? { serverUrl: v['server-url'] } : {}),
    ...(v.pool !== undefined ? { pool: v.pool } : {}),
    ...(v.task !== undefined ? { task: v.task } : {}),
    topK: v['top-k'],
    ...(v['min-score'] !== undefined ? { minScore: v['min-score'] } : {}),
    level: v.level,
    target: v.target,
    audience: v.audience,
    ...(v.token !== undefined ? { token: v.token } : {}),
    dryRun: v['dry-run'],
    reportUsage: v['report-usage'],
    failOnError: v['fail-on-error'],
    timeoutMs: Math.round(v['timeout-seconds'] * 1000),
    mcp: v.mcp,
  };
}

const visibilitySchema = z.enum(VISIBILITIES);

/** The repository's visibility from the event payload (public when unknown: the most careful reader). */
function visibilityOf(payload: unknown): Visibility {
  const repo = (payload as { repository?: { visibility?: unknown; private?: unknown } } | null)?.repository;
  const parsed = visibilitySchema.safeParse(repo?.visibility);
  if (parsed.success) return parsed.data;
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
    const result = await main(inputs, context, {
      logger: deps.logger,
      ...(server ? { server } : {}),
      changedPaths: changedPathsFetcher(inputs, deps),
      parsePool: deps.parsePool,
      recallLocal: deps.recallLocal,
    });
    setOutputs(result, deps);
    if (result.insights.length > 0) {
      deps.logger.info(
        `Memory Transfer: ${result.insights.length} insight(s) for target ${result.target}: ${result.rendered.ids.join(', ')}`,
      );
    }
    if (result.withheld) deps.logger.warn(`Memory Transfer: ${withheldLine(result.withheld)}`);
    else if (result.insights.length === 0) deps.logger.info('Memory Transfer: no insight cleared the relevance bar');
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
export function actionsRunnerDeps(parts: Pick<RunnerDeps, 'createOctokit' | 'parsePool' | 'recallLocal'>): RunnerDeps {
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
