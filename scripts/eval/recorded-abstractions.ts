/**
 * A model's abstractions of fixes, recorded once and replayed: `npm run eval -- --abstract-by-model
 * --record-abstractions FILE` learns every pool with the configured model (the LLM abstractor, as
 * `learn` does with an API key) and writes each answer; `npm run eval -- --abstractions FILE` learns
 * with the same abstractor, its chat calls answered from FILE, offline. The answers go through the
 * whole of the product's path (the schema, the specificity check, the screen, the fallback to the
 * rules), so a replayed pool is the pool the model's answers make.
 *
 * One JSON line per request: `{ "prompt_sha256", "answer" }`, keyed by the SHA-256 of the system
 * prompt and the user message (the fence's random id set to a constant): a change to the prompt or
 * to the fix makes a request no recording answers, and that fix is learned by the rules (counted).
 */
import { appendFileSync, existsSync } from 'node:fs';
import type OpenAI from 'openai';
import { createLlmAbstractor } from '../../src/abstraction/llm-abstractor.js';
import { createRulesAbstractor } from '../../src/abstraction/rules-abstractor.js';
import { createOpenAIClient, type LlmConfig } from '../../src/config/llm.js';
import { sha256Hex } from '../../src/core/sha256.js';
import type { Fix } from '../../src/core/types.js';
import { silentLogger, type Abstraction, type Abstractor, type Logger } from '../../src/ports/index.js';
import { readRecording } from './data.js';

type ChatCreate = OpenAI['chat']['completions']['create'];
type ChatParams = Parameters<ChatCreate>[0];

/** The key of a request: its system and user messages, the fence's random id replaced. */
export function promptKey(params: Pick<ChatParams, 'messages'>): string {
  const text = (role: string) => {
    const content = params.messages.find((m) => m.role === role)?.content;
    return typeof content === 'string' ? content : JSON.stringify(content ?? '');
  };
  const user = text('user').replace(/<<<(END-)?([A-Z-]+) [0-9a-f]{12}>>>/g, '<<<$1$2 marker>>>');
  return sha256Hex(`${text('system')}\n\n${user}`);
}

function completion(content: string): OpenAI.Chat.Completions.ChatCompletion {
  return {
    id: 'recorded',
    object: 'chat.completion',
    created: 0,
    model: 'recorded',
    choices: [
      { index: 0, finish_reason: 'stop', logprobs: null, message: { role: 'assistant', content, refusal: null } },
    ],
  };
}

/** A client answering each request from the recorded answers; a request with none fails as a call would. */
function replayClient(answers: ReadonlyMap<string, string>, unanswered: Set<string>): OpenAI {
  const create = (params: ChatParams) => {
    const key = promptKey(params);
    const content = answers.get(key);
    if (content === undefined) {
      unanswered.add(key);
      return Promise.reject(new Error('no recorded answer for this request'));
    }
    return Promise.resolve(completion(content));
  };
  return { chat: { completions: { create } } } as unknown as OpenAI;
}

/** The LLM abstractor answered from FILE; `missing` counts the fixes it had no answer for. */
export function replayedAbstractor(path: string): Abstractor & { missing: () => number } {
  if (!existsSync(path))
    throw new Error(`no abstractions file at ${path} (--abstractions takes a file --record-abstractions wrote)`);
  const answers = readRecording(path, 'prompt_sha256', 'request', ({ answer }) => {
    if (typeof answer !== 'object' || answer === null) throw new Error("answer must be the model's JSON answer");
    return JSON.stringify(answer);
  });
  const unanswered = new Set<string>();
  const abstractor = createLlmAbstractor({
    client: replayClient(answers, unanswered),
    model: 'recorded',
    rules: createRulesAbstractor(),
    logger: silentLogger,
  });
  return { ...abstractor, missing: () => unanswered.size };
}

/** The configured model's abstractor, each answer appended to FILE, each fix asked once per run. */
export function recordingAbstractor(config: LlmConfig, path: string | undefined, logger: Logger): Abstractor {
  const client = createOpenAIClient(config);
  const create: ChatCreate = client.chat.completions.create.bind(client.chat.completions);
  const recorded = async (params: ChatParams) => {
    const answer = (await create({ ...params, stream: false })) as OpenAI.Chat.Completions.ChatCompletion;
    const content = answer.choices[0]?.message.content;
    if (path !== undefined && content) {
      try {
        appendFileSync(path, `${JSON.stringify({ prompt_sha256: promptKey(params), answer: JSON.parse(content) })}\n`);
      } catch {
        // an answer that is not JSON is not kept: the abstractor rejects it too
      }
    }
    return answer;
  };
  const abstractor = createLlmAbstractor({
    client: { chat: { completions: { create: recorded } } } as unknown as OpenAI,
    model: config.abstractModel,
    rules: createRulesAbstractor(),
    logger,
    concurrency: config.concurrency,
    ...(config.reasoningEffort ? { reasoningEffort: config.reasoningEffort } : {}),
    ...(config.maxOutputTokens ? { maxOutputTokens: config.maxOutputTokens } : {}),
  });
  // leave-one-repository-out learns each fix once per pool: the model is asked once per fix
  const asked = new Map<string, Promise<Abstraction>>();
  return {
    ...abstractor,
    abstract(fix: Fix) {
      const key = `${fix.repo}@${fix.ref}`;
      if (!asked.has(key)) asked.set(key, abstractor.abstract(fix));
      return asked.get(key)!;
    },
  };
}
