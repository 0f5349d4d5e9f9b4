/**
 * The abstractor for a configuration: the LLM abstractor (with the rules as its fallback, the
 * circuit breaker of its endpoint and the configured concurrency) when an API key is configured,
 * else the offline rule-based abstractor.
 */
import type { LlmConfig } from '../config/llm.js';
import { createOpenAIClient, isOnline } from '../config/llm.js';
import type { TokenMeter } from '../core/token-usage.js';
import type { Abstractor, Logger } from '../ports/index.js';
import { createEndpointBreaker, type CircuitBreaker } from '../config/circuit-breaker.js';
import { createLlmAbstractor } from './llm-abstractor.js';
import { createRulesAbstractor } from './rules-abstractor.js';

/** `breaker`: the endpoint's, shared with the embedder (default: one of its own) */
export function createAbstractor(
  config: LlmConfig,
  logger: Logger,
  meter?: TokenMeter,
  breaker: CircuitBreaker = createEndpointBreaker(config, logger),
): Abstractor {
  const rules = createRulesAbstractor();
  if (!isOnline(config)) return rules;
  return createLlmAbstractor({
    client: createOpenAIClient(config),
    model: config.abstractModel,
    rules,
    logger,
    concurrency: config.concurrency,
    ...(config.reasoningEffort ? { reasoningEffort: config.reasoningEffort } : {}),
    ...(config.maxOutputTokens ? { maxOutputTokens: config.maxOutputTokens } : {}),
    breaker,
    ...(meter ? { meter } : {}),
  });
}
