/**
 * The LLM abstractor: one chat completion per fix, over any OpenAI-compatible endpoint, with a
 * JSON-schema structured answer (workflow, summary, one insight, tags) validated with zod again.
 * The trajectory and the evidence lines are built without the model, by the rules.
 *
 * Any failure (timeout, 429 or 5xx after the client's retries, network, refusal, invalid JSON, a
 * schema mismatch, an insight that names its source or that the screen refuses) falls back to the
 * rules for that fix: one warn line, and `fallback: { reason }` on the Abstraction, so the fix is
 * recorded as learned by fallback and abstracted again by a later run. After a few consecutive
 * failed calls the endpoint's circuit breaker (shared with the embedder) stops calling the model
 * for a cool-down (reason "circuit open").
 * An endpoint that refuses the API key (401/403) throws LlmAuthError: the run stops.
 * Token use read from each answer goes to the meter.
 */
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { detectEcosystem } from '../core/knowledge/ecosystem.js';
import { LlmAuthError } from '../core/errors.js';
import { detectLesson } from '../core/knowledge/lessons.js';
import { identityTags } from '../core/knowledge/identity.js';
import type { TokenMeter } from '../core/token-usage.js';
import type { Fix, MemoryIdentity } from '../core/types.js';
import { screenInsightText } from '../security/screen.js';
import type { AbstractedMemory, Abstraction, Abstractor, Logger } from '../ports/index.js';
import { describeLlmFailure, type ReasoningEffort } from '../config/llm.js';
import { AnswerRejected, askForJson } from './chat-answer.js';
import type { CircuitBreaker } from '../config/circuit-breaker.js';
import { AnswerSchema, SYSTEM_PROMPT, ValidAnswerSchema, buildUserPrompt, type ValidAnswer } from './prompts.js';
import { checkSpecificity } from './specificity.js';

export interface LlmAbstractorOptions {
  client: OpenAI;
  /** the chat model, recorded in Abstraction.model */
  model: string;
  /** the offline abstractor: the trajectory and evidence of every fix, and the fallback */
  rules: Abstractor;
  logger: Logger;
  /** `reasoning_effort` of each call (absent: not sent) */
  reasoningEffort?: ReasoningEffort;
  /** `max_completion_tokens` of each call (absent: not sent) */
  maxOutputTokens?: number;
  /** abstractions a learn run may keep in flight (default 1) */
  concurrency?: number;
  /** the endpoint's breaker: stops calling a failing model for a while (absent: every fix calls the model) */
  breaker?: CircuitBreaker;
  /** receives the token use each answer reports */
  meter?: TokenMeter;
}

const RESPONSE_FORMAT = zodResponseFormat(AnswerSchema, 'fix_memory');

export function createLlmAbstractor(options: LlmAbstractorOptions): Abstractor {
  const { client, model, rules, logger, breaker, meter } = options;

  const ask = (fix: Fix): Promise<ValidAnswer> =>
    askForJson({
      client,
      model,
      system: SYSTEM_PROMPT,
      user: buildUserPrompt(fix),
      responseFormat: RESPONSE_FORMAT,
      schema: ValidAnswerSchema,
      ...(options.reasoningEffort ? { reasoningEffort: options.reasoningEffort } : {}),
      ...(options.maxOutputTokens ? { maxOutputTokens: options.maxOutputTokens } : {}),
      ...(breaker ? { breaker } : {}),
      ...(meter ? { meter } : {}),
    });

  return {
    usesModel: true,
    concurrency: Math.max(1, options.concurrency ?? 1),
    async abstract(fix: Fix): Promise<Abstraction> {
      const offline = await rules.abstract(fix);
      try {
        const answer = await ask(fix);
        const memories = toMemories(answer, fix, offline);
        return { memories, model, writer: 'model' };
      } catch (error) {
        if (error instanceof LlmAuthError) throw error;
        const reason = error instanceof AnswerRejected ? error.message : describeLlmFailure(error).reason;
        // while the circuit is open, one line said so already
        const log = reason === 'circuit open' ? logger.debug.bind(logger) : logger.warn.bind(logger);
        log(`LLM abstraction of ${fix.repo}@${fix.ref} failed (${reason}); using the rules`, {
          repo: fix.repo,
          ref: fix.ref,
          model,
          reason,
        });
        return { ...offline, fallback: { reason } };
      }
    },
  };
}

/** Refuses a memory the screen refuses (instruction-like or hidden text), like learn's own screen. */
function screened(memory: AbstractedMemory): { ok: boolean; reason?: string } {
  return screenInsightText([memory.title, memory.description, memory.content].join('\n'));
}

/** The model's three levels plus the rules' trajectory; each checked for specificity. */
function toMemories(answer: ValidAnswer, fix: Fix, offline: Abstraction): AbstractedMemory[] {
  const offlineOf = (level: AbstractedMemory['level']) => offline.memories.find((m) => m.level === level);
  const evidence = offlineOf('insight')?.evidence ?? offline.memories[0]?.evidence ?? [];
  const identity = identityOf(answer, fix);
  const tags = tagsOf(answer, fix, identity);
  // the model's levels carry its identity; its insight lists no examples (the rules write those)
  const own = { ...identity, examples: [] };
  const { workflow, summary, insight } = answer;

  const insightMemory: AbstractedMemory = {
    level: 'insight',
    ...insight,
    body: { level: 'insight', insight },
    tags,
    evidence,
    ...own,
  };
  const workflowMemory: AbstractedMemory = {
    level: 'workflow',
    title: workflow.goal,
    description: insight.description,
    content: workflow.steps.map((s, i) => `${i + 1}. ${s}`).join('\n'),
    body: { level: 'workflow', workflow },
    tags,
    evidence,
    ...own,
  };
  const summaryMemory: AbstractedMemory = {
    level: 'summary',
    title: insight.title,
    description: summary.task_summary,
    content: summary.experience_summary,
    body: { level: 'summary', summary },
    tags,
    evidence,
    ...own,
  };

  const checked = checkSpecificity(insightMemory, fix);
  if (!checked.ok) throw new AnswerRejected(`specificity: ${checked.reason ?? 'names its source'}`);
  const insightOut = checked.rewritten ?? insightMemory;
  const screen = screened(insightOut);
  if (!screen.ok) throw new AnswerRejected(`screen: ${screen.reason ?? 'refused'}`);
  const out: AbstractedMemory[] = [];
  const trajectory = offlineOf('trajectory');
  if (trajectory) out.push(trajectory);
  // a workflow or summary that names its source or that the screen refuses is replaced by the
  // rules' version of that level
  for (const memory of [workflowMemory, summaryMemory]) {
    const result = checkSpecificity(memory, fix);
    const kept = result.ok ? (result.rewritten ?? memory) : undefined;
    const fallback = offlineOf(memory.level);
    if (kept && screened(kept).ok) out.push(kept);
    else if (fallback) out.push(fallback);
  }
  out.push(insightOut);
  return out;
}

/** The model's routine kinds, and the catalog lesson its insight teaches when one of them is that lesson's kind. */
function identityOf(answer: ValidAnswer, fix: Fix): Omit<MemoryIdentity, 'examples'> {
  // the model's insight teaches a lesson of the catalog when its words name one of its routine kinds:
  // then it merges with the other fixes of that lesson, whichever abstractor wrote them
  const found = detectLesson([
    [answer.insight.title, 1],
    [answer.insight.description, 0.5],
    [answer.insight.content, 0.5],
    [fix.title, 1],
  ]);
  return {
    lesson: found && answer.tags.routine.includes(found.lesson.kind) ? found.lesson.id : null,
    routines: [...answer.tags.routine],
    facet: null,
  };
}

/** routine:, lesson:, check:, lang:, tool: tags; language and tool from the files first (one vocabulary with the rules). */
function tagsOf(answer: ValidAnswer, fix: Fix, identity: Omit<MemoryIdentity, 'examples'>): string[] {
  const ecosystem = detectEcosystem(fix.files, fix.language);
  const language = ecosystem.language ?? (answer.tags.language !== 'other' ? answer.tags.language : null);
  const tool = ecosystem.tool ?? (answer.tags.tool !== 'other' ? answer.tags.tool : null);
  const tags = identityTags(identity);
  for (const check of [...answer.tags.check].sort()) tags.push(`check:${check}`);
  if (language) tags.push(`lang:${language}`);
  if (tool) tags.push(`tool:${tool}`);
  return tags;
}
