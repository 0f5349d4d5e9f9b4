/**
 * The abstractor for a configuration: the LLM abstractor (with the rules as its fallback, a
 * circuit breaker and the configured concurrency) when an API key is configured, else the
 * offline rule-based abstractor.
 */
import type { LlmConfig } from '../config/llm.js';
import { createOpenAIClient, isOnline } from '../config/llm.js';
import type { TokenMeter } from '../core/token-usage.js';
import type { Abstractor, Logger } from '../ports/index.js';
import { createCircuitBreaker } from './circuit-breaker.js';
import { createLlmAbstractor } from './llm-abstractor.js';
import { createRulesAbstractor } from './rules-abstractor.js';

export function createAbstractor(config: LlmConfig, logger: Logger, meter?: TokenMeter): Abstractor {
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
    breaker: createCircuitBreaker({
      failures: config.breakerFailures,
      cooldownMs: config.breakerCooldownMs,
      now: () => Date.now(),
    }),
    ...(meter ? { meter } : {}),
  });
}
