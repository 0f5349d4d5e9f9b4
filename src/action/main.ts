/**
 * The Action's pipeline, one numbered step each: task → recall → render → inject → prompt file →
 * MCP configuration → report usage. No process.env, no @actions/core: runner.ts gives it parsed
 * inputs and ports.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InputError, describeError } from '../core/errors.js';
import { renderInjection, type InjectedInsight, type RenderedInjection } from '../core/rendering/render-injection.js';
import type { MemoryLevel, Requester } from '../core/types.js';
import type { Logger, TaskReader } from '../ports/index.js';
import { taskFromEvent, type ChangedPathsFetcher } from './event-task.js';
import { targetFor, type InjectionTarget } from './inject/index.js';
import type { McpConfigResult, McpServerProgram, McpSource } from './mcp-config/index.js';
import type { FileChange } from './inject/target.js';
import { recallFromPool, type LocalRecall, type PoolParser, type WithheldInsights } from './pool-recall.js';
import type { TaskKind } from '../core/retrieval/task-kind.js';
import type { RecallClient } from './server-client.js';
import { resolveInWorkspace } from './workspace-path.js';

export interface ActionInputs {
  /** exactly one of serverUrl and pool */
  serverUrl?: string;
  pool?: string;
  task?: string;
  topK: number;
  minScore?: number;
  level: MemoryLevel;
  target: string;
  audience: string;
  token?: string;
  dryRun: boolean;
  reportUsage: boolean;
  failOnError: boolean;
  timeoutMs: number;
  /** write the agent's MCP configuration (the Memory Transfer MCP server) for the target */
  mcp: boolean;
  /** pool-file mode: the model that reads the task (model-api-key, model-base-url, read-model) */
  model?: { apiKey: string; baseUrl?: string; readModel?: string };
}

/** What the runner read from the environment of the job. */
export interface RunContext {
  eventName: string;
  payload: unknown;
  /** owner/name */
  repository: string;
  runId?: string;
  runAttempt?: number;
  workspace: string;
  /** RUNNER_TEMP: where prompt-file goes (outside the repository) */
  tempDir: string;
  codexHome: string;
  /** GITHUB_SERVER_URL: the only host source links may point to */
  githubUrl: string;
  visibility: Requester['visibility'];
}

export interface MainDeps {
  logger: Logger;
  /** the App's API client (server mode) */
  server?: RecallClient;
  changedPaths: ChangedPathsFetcher;
  parsePool: PoolParser;
  recallLocal: LocalRecall;
  /** pool-file mode: reads the task by a model (it redacts the task first); absent: the rules read it */
  taskReader?: TaskReader;
  /** the Action's own MCP server, as the configurations written with `mcp: true` start it */
  mcpServer: McpServerProgram;
}

export interface ActionResult {
  task: string;
  /** the injected items (after the target's size cap) */
  insights: InjectedInsight[];
  rendered: RenderedInjection;
  target: string;
  files: FileChange[];
  promptFile: string;
  /** set when recall failed and the run continued without insights */
  recallError?: string;
  /** pool-file mode: relevant insights this repository may not see (sources more private than it) */
  withheld?: WithheldInsights;
  /** pool-file mode: why the file could serve this repository nothing at all (another organization's) */
  refusal?: string;
  /** what kind of task the server's or the Action's model read the task as (absent: the rules read it) */
  taskKind?: TaskKind;
  usageReported: number;
  /** with `mcp: true`: the configuration files written for the agent */
  mcp?: McpConfigResult;
}

export const PROMPT_FILE_NAME = 'memory-transfer-insights.md';

// 1. the task: the input, else derived from the event
async function resolveTask(inputs: ActionInputs, context: RunContext, deps: MainDeps): Promise<string> {
  if (inputs.task !== undefined) return inputs.task;
  const derived = await taskFromEvent(context.eventName, context.payload, deps.changedPaths);
  if (derived === undefined) {
    throw new InputError(
      `task: required for a "${context.eventName}" event (only issues, issue comments, pull requests and workflow_dispatch with a "task" input carry one)`,
    );
  }
  return derived;
}

// 2. recall: from the App, or ranked locally from a pool file
async function recallInsights(
  inputs: ActionInputs,
  context: RunContext,
  deps: MainDeps,
  task: string,
): Promise<{
  insights: InjectedInsight[];
  error?: string;
  withheld?: WithheldInsights;
  refusal?: string;
  taskKind?: TaskKind;
}> {
  if (inputs.pool !== undefined) {
    const [owner = ''] = context.repository.split('/');
    const requester: Requester = {
      tenant: owner.toLowerCase(),
      repo: context.repository,
      ...(context.visibility ? { visibility: context.visibility } : {}),
    };
    return recallFromPool({
      workspace: context.workspace,
      pool: inputs.pool,
      requester,
      task,
      k: inputs.topK,
      level: inputs.level,
      ...(inputs.minScore !== undefined ? { minScore: inputs.minScore } : {}),
      parsePool: deps.parsePool,
      recallLocal: deps.recallLocal,
      logger: deps.logger,
      githubUrl: context.githubUrl,
      ...(deps.taskReader ? { taskReader: deps.taskReader } : {}),
    });
  }
  if (!deps.server) throw new InputError('server-url: no server client (internal wiring error)');
  try {
    const answer = await deps.server.recall({
      task,
      top_k: inputs.topK,
      level: inputs.level,
      ...(inputs.minScore !== undefined ? { min_score: inputs.minScore } : {}),
    });
    return {
      insights: answer.insights.slice(0, inputs.topK),
      ...(answer.withheld ? { withheld: answer.withheld } : {}),
      ...(answer.task_kind ? { taskKind: answer.task_kind } : {}),
    };
  } catch (error) {
    if (inputs.failOnError) throw error;
    return { insights: [], error: describeError(error) };
  }
}

// 3. render within the target's size cap
function render(insights: InjectedInsight[], target: InjectionTarget, context: RunContext): RenderedInjection {
  return renderInjection(insights, {
    maxChars: target.maxChars,
    argumentSafe: target.argumentSafe ?? false,
    githubUrl: context.githubUrl,
  });
}

// 4. inject (the dry run stops short of writing here)
async function inject(target: InjectionTarget, rendered: RenderedInjection, inputs: ActionInputs, context: RunContext) {
  return target.inject(rendered, { workspace: context.workspace, codexHome: context.codexHome, dryRun: inputs.dryRun });
}

// 5. the prompt file, outside the repository, for agents that take a prompt from a file
async function writePromptFile(
  rendered: RenderedInjection,
  inputs: ActionInputs,
  context: RunContext,
): Promise<string> {
  if (inputs.dryRun) return '';
  const file = path.join(context.tempDir, PROMPT_FILE_NAME);
  await mkdir(context.tempDir, { recursive: true });
  await writeFile(file, rendered.markdown, 'utf8');
  return file;
}

// 6. with `mcp: true`, the agent's MCP configuration: the same pool or server, mid-run
async function writeMcp(
  target: InjectionTarget,
  inputs: ActionInputs,
  context: RunContext,
  deps: MainDeps,
): Promise<McpConfigResult | undefined> {
  if (!inputs.mcp) return undefined;
  // loaded only with `mcp: true` (it brings zod, which a run without it does not load)
  const { mcpServerSpec, writeMcpConfig } = await import('./mcp-config/index.js');
  const source: McpSource =
    inputs.pool !== undefined
      ? {
          kind: 'pool',
          pool: resolveInWorkspace(context.workspace, inputs.pool, 'pool'),
          repo: context.repository,
          visibility: context.visibility ?? 'public',
        }
      : { kind: 'server', serverUrl: inputs.serverUrl ?? '', audience: inputs.audience };
  const result = await writeMcpConfig(target.name, mcpServerSpec(source, deps.mcpServer), {
    workspace: context.workspace,
    codexHome: context.codexHome,
    tempDir: context.tempDir,
    dryRun: inputs.dryRun,
  });
  for (const file of result.files) if (file.note) deps.logger.warn(`Memory Transfer: ${file.note}`);
  return result;
}

// 7. report which insights were injected for which run, so the run's outcome feeds back
async function reportUsage(
  ids: string[],
  target: string,
  inputs: ActionInputs,
  context: RunContext,
  deps: MainDeps,
): Promise<number> {
  if (!deps.server || !inputs.reportUsage || inputs.dryRun || ids.length === 0 || !context.runId) return 0;
  try {
    return await deps.server.reportUsage({
      ids,
      run_id: context.runId,
      ...(context.runAttempt ? { run_attempt: context.runAttempt } : {}),
      target,
    });
  } catch (error) {
    if (inputs.failOnError) throw error;
    deps.logger.warn(
      `Memory Transfer: could not report usage (${describeError(error)}); insights were injected anyway`,
    );
    return 0;
  }
}

export async function main(inputs: ActionInputs, context: RunContext, deps: MainDeps): Promise<ActionResult> {
  const target = targetFor(inputs.target);
  const task = await resolveTask(inputs, context, deps);
  const recalled = await recallInsights(inputs, context, deps, task);
  if (recalled.error)
    deps.logger.warn(`Memory Transfer: recall failed, continuing without insights: ${recalled.error}`);
  const rendered = render(recalled.insights, target, context);
  const { files } = await inject(target, rendered, inputs, context);
  const promptFile = await writePromptFile(rendered, inputs, context);
  const mcp = await writeMcp(target, inputs, context, deps);
  const insights = recalled.insights.filter((item) => rendered.ids.includes(item.id));
  const usageReported = await reportUsage(rendered.ids, target.name, inputs, context, deps);
  return {
    task,
    insights,
    rendered,
    target: target.name,
    files,
    promptFile,
    usageReported,
    ...(recalled.error ? { recallError: recalled.error } : {}),
    ...(mcp ? { mcp } : {}),
    ...(recalled.withheld ? { withheld: recalled.withheld } : {}),
    ...(recalled.refusal ? { refusal: recalled.refusal } : {}),
    ...(recalled.taskKind ? { taskKind: recalled.taskKind } : {}),
  };
}
