/**
 * The abstractor for a configuration: the LLM abstractor (with the rules as its fallback) when an
 * API key is configured, else the offline rule-based abstractor.
 */
import type { LlmConfig } from '../config/llm.js';
import { createOpenAIClient, isOnline } from '../config/llm.js';
import type { Abstractor, Logger } from '../services/ports.js';
import { createLlmAbstractor } from './llm-abstractor.js';
import { createRulesAbstractor } from './rules-abstractor.js';

export function createAbstractor(config: LlmConfig, logger: Logger): Abstractor {
  const rules = createRulesAbstractor();
  if (!isOnline(config)) return rules;
  return createLlmAbstractor({ client: createOpenAIClient(config), model: config.abstractModel, rules, logger });
}
