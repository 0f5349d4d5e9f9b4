/**
 * Wires the engine for the CLI from the environment: the abstractor (LLM when OPENAI_API_KEY is
 * set, else the offline rules), the embedder when online, the secret redactor, the logger, the clock.
 */
import { createAbstractor } from '../abstraction/create-abstractor.js';
import { llmConfigFromEnv } from '../config/llm.js';
import { createEmbedder } from '../embedding/openai-embedder.js';
import { createRedactor } from '../security/redact.js';
import type { LearnDeps } from '../services/learn.js';
import { systemClock } from '../services/ports.js';
import type { RecallDeps } from '../services/recall.js';
import type { Store } from '../store/store.js';
import type { CliContext } from './context.js';

export function engineDeps(ctx: CliContext, store: Store): LearnDeps & RecallDeps {
  const config = llmConfigFromEnv(ctx.io.env);
  const embedder = createEmbedder(config);
  return {
    store,
    abstractor: createAbstractor(config, ctx.logger),
    ...(embedder ? { embedder } : {}),
    redactor: createRedactor(),
    logger: ctx.logger,
    clock: systemClock,
  };
}
