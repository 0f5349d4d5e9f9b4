/**
 * Wires the engine for the CLI from the environment: the abstractor (LLM when OPENAI_API_KEY is
 * set, else the offline rules), the embedder when online, the secret redactor, the logger, the
 * clock, and one token meter for the run (both model adapters report to it).
 */
import { createAbstractor } from '../abstraction/create-abstractor.js';
import { llmConfigFromEnv } from '../config/llm.js';
import { createTokenMeter, type TokenMeter } from '../core/token-usage.js';
import { createEmbedder } from '../embedding/openai-embedder.js';
import { createRedactor } from '../security/redact.js';
import type { LearnDeps } from '../services/learn.js';
import { systemClock } from '../services/ports.js';
import type { RecallDeps } from '../services/recall.js';
import type { Store } from '../store/store.js';
import type { CliContext } from './context.js';

export type EngineDeps = LearnDeps & RecallDeps & { meter: TokenMeter };

export function engineDeps(ctx: CliContext, store: Store): EngineDeps {
  const config = llmConfigFromEnv(ctx.io.env);
  const meter = createTokenMeter();
  const embedder = createEmbedder(config, meter);
  return {
    store,
    abstractor: createAbstractor(config, ctx.logger, meter),
    ...(embedder ? { embedder } : {}),
    redactor: createRedactor(),
    logger: ctx.logger,
    clock: systemClock,
    meter,
  };
}
