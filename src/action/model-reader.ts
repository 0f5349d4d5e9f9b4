/**
 * Pool-file mode's reader of the task: the model of the step's `model-api-key`, `model-base-url`
 * and `read-model` inputs, waiting at most `timeout-seconds`, with the task redacted by the
 * redactor's own patterns before it leaves the runner. Loaded only when a key is given (the
 * client and zod stay out of every other run's start).
 */
import { createTaskReader } from '../abstraction/llm-task-reader.js';
import { llmConfigFromEnv } from '../config/llm-env.js';
import type { Logger, TaskReader } from '../ports/index.js';
import { redactKnownPatterns } from '../security/redact.js';
import type { ActionInputs } from './main.js';

export function actionTaskReader(
  model: NonNullable<ActionInputs['model']>,
  timeoutMs: number,
  logger: Logger,
): TaskReader | undefined {
  const config = llmConfigFromEnv({
    OPENAI_API_KEY: model.apiKey,
    ...(model.baseUrl ? { OPENAI_BASE_URL: model.baseUrl } : {}),
    ...(model.readModel ? { MEMORY_TRANSFER_READ_MODEL: model.readModel } : {}),
    MEMORY_TRANSFER_LLM_TIMEOUT_MS: String(timeoutMs),
    // the agent after this step is waiting: one try, then the rules
    MEMORY_TRANSFER_LLM_RETRIES: '0',
  });
  // the redactor's own patterns (every GitHub token prefix, JWTs, PEM blocks, URL credentials,
  // cloud keys, auth headers, high-entropy assignments and blobs), without secretlint's scanner:
  // it stays out of the Action's bundle
  const ownPatterns = { redact: async (text: string) => redactKnownPatterns(text) };
  return createTaskReader(config, logger, { redactor: ownPatterns });
}
