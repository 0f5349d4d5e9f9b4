/**
 * Wires the engine for the CLI from the environment: the abstractor (LLM when OPENAI_API_KEY is
 * set, else the offline rules), the embedder and the task reader when online, the secret redactor, the logger, the
 * clock, and one token meter for the run (both model adapters report to it). Adapters are
 * imported when a command asks for them: offline, no OpenAI client is loaded, and `recall` never
 * loads an abstractor (nor, offline, the redactor it only needs before embedding a task).
 */
import { isOnline, llmConfigFromEnv } from '../config/llm-env.js';
import { createTokenMeter, type TokenMeter } from '../core/token-usage.js';
import type { LearnDeps } from '../services/learn.js';
import { systemClock } from '../ports/index.js';
import type { Abstractor, Embedder, Logger, TaskReader } from '../ports/index.js';
import type { CircuitBreaker } from '../config/circuit-breaker.js';
import type { RecallDeps } from '../services/recall.js';
import type { Store } from '../store/store.js';
import type { CliContext } from './context.js';
import type { LlmConfig } from '../config/llm-env.js';

export type EngineDeps = LearnDeps & RecallDeps & { meter: TokenMeter };

async function embedderFor(
  config: LlmConfig,
  meter: TokenMeter,
  breaker?: CircuitBreaker,
): Promise<Embedder | undefined> {
  if (!isOnline(config)) return undefined;
  const { createEmbedder } = await import('../embedding/openai-embedder.js');
  return createEmbedder(config, meter, breaker);
}

async function taskReaderFor(
  config: LlmConfig,
  logger: Logger,
  meter: TokenMeter,
  breaker?: CircuitBreaker,
): Promise<TaskReader | undefined> {
  if (!isOnline(config) || config.readModel === null) return undefined;
  const { createTaskReader } = await import('../abstraction/llm-task-reader.js');
  return createTaskReader(config, logger, { meter, breaker });
}

async function abstractorFor(
  config: LlmConfig,
  logger: Logger,
  meter: TokenMeter,
  breaker?: CircuitBreaker,
): Promise<Abstractor> {
  if (!isOnline(config)) return (await import('../abstraction/rules-abstractor.js')).createRulesAbstractor();
  const { createAbstractor } = await import('../abstraction/create-abstractor.js');
  return createAbstractor(config, logger, meter, breaker);
}

/** everything learn, reembed, backfill, import and mcp use */
export async function engineDeps(ctx: CliContext, store: Store): Promise<EngineDeps> {
  const config = llmConfigFromEnv(ctx.io.env);
  const meter = createTokenMeter();
  // one breaker for the endpoint: a hanging one stops both the completions and the embeddings
  const breaker = isOnline(config)
    ? (await import('../config/circuit-breaker.js')).createEndpointBreaker(config, ctx.logger)
    : undefined;
  const embedder = await embedderFor(config, meter, breaker);
  const taskReader = await taskReaderFor(config, ctx.logger, meter, breaker);
  const { createRedactor } = await import('../security/redact.js');
  return {
    store,
    abstractor: await abstractorFor(config, ctx.logger, meter, breaker),
    ...(embedder ? { embedder } : {}),
    ...(taskReader ? { taskReader } : {}),
    redactor: createRedactor(),
    logger: ctx.logger,
    clock: systemClock,
    meter,
  };
}

/** what recall uses: the store, and online the task reader, and the embedder with the redactor its query goes through */
export async function recallDeps(ctx: CliContext, store: Store): Promise<RecallDeps> {
  const config = llmConfigFromEnv(ctx.io.env);
  const meter = createTokenMeter();
  const embedder = await embedderFor(config, meter);
  const taskReader = await taskReaderFor(config, ctx.logger, meter);
  const base = { store, logger: ctx.logger, clock: systemClock, ...(taskReader ? { taskReader } : {}) };
  if (!embedder) return base;
  const { createRedactor } = await import('../security/redact.js');
  return { ...base, embedder, redactor: createRedactor() };
}
