/**
 * One structured chat completion, as both model adapters ask it (the abstractor of a fix, the
 * reader of a task): through the endpoint's circuit breaker, its token use metered, and the answer
 * parsed as JSON and validated with zod again. A refused key throws LlmAuthError; an answer that
 * cannot be used throws AnswerRejected with the reason; a failed call throws the client's error.
 */
import type OpenAI from 'openai';
import type { z } from 'zod';
import { LlmAuthError } from '../core/errors.js';
import type { TokenMeter } from '../core/token-usage.js';
import { isKeyRefused, throughBreaker, type ReasoningEffort } from '../config/llm.js';
import type { CircuitBreaker } from '../config/circuit-breaker.js';

/** Why the model's answer was not used. */
export class AnswerRejected extends Error {}

export interface ChatAsk<T> {
  client: OpenAI;
  model: string;
  system: string;
  user: string;
  /** the JSON schema sent (zodResponseFormat) */
  responseFormat: OpenAI.ResponseFormatJSONSchema;
  /** the schema the answer is validated with */
  schema: z.ZodType<T>;
  reasoningEffort?: ReasoningEffort;
  maxOutputTokens?: number;
  breaker?: CircuitBreaker;
  meter?: TokenMeter;
}

export async function askForJson<T>(ask: ChatAsk<T>): Promise<T> {
  const completion = await call(ask);
  const usage = (completion as { usage?: unknown }).usage;
  if (ask.meter && usage && typeof usage === 'object') {
    const { prompt_tokens, completion_tokens } = usage as Record<string, unknown>;
    ask.meter.record({
      kind: 'chat',
      promptTokens: typeof prompt_tokens === 'number' ? prompt_tokens : 0,
      completionTokens: typeof completion_tokens === 'number' ? completion_tokens : 0,
    });
  }
  const choice = completion.choices?.[0];
  const message = choice?.message;
  if (message?.refusal) throw new AnswerRejected(`refusal: ${message.refusal.slice(0, 120)}`);
  if (choice?.finish_reason === 'length') throw new AnswerRejected('answer cut off (length limit)');
  if (choice?.finish_reason === 'content_filter') throw new AnswerRejected('answer blocked by a content filter');
  const content = message?.content;
  if (!content) throw new AnswerRejected('empty answer');
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch {
    throw new AnswerRejected('invalid JSON');
  }
  const parsed = ask.schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'answer';
    throw new AnswerRejected(`schema mismatch: ${field} ${issue?.message ?? 'is invalid'}`);
  }
  return parsed.data;
}

async function call<T>(ask: ChatAsk<T>): Promise<OpenAI.Chat.Completions.ChatCompletion> {
  try {
    return await throughBreaker(ask.breaker, ask.model, () =>
      ask.client.chat.completions.create({
        model: ask.model,
        messages: [
          { role: 'system', content: ask.system },
          { role: 'user', content: ask.user },
        ],
        response_format: ask.responseFormat,
        ...(ask.reasoningEffort ? { reasoning_effort: ask.reasoningEffort } : {}),
        ...(ask.maxOutputTokens ? { max_completion_tokens: ask.maxOutputTokens } : {}),
      }),
    );
  } catch (error) {
    // a refused key: every later call would be refused too
    if (isKeyRefused(error)) throw new LlmAuthError(error.status);
    throw error;
  }
}
