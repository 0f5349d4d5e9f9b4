/**
 * The LLM abstractor: one chat completion per fix, over any OpenAI-compatible endpoint, with a
 * JSON-schema structured answer (workflow, summary, one insight, tags) validated with zod again.
 * The trajectory and the evidence lines are built without the model, by the rules. Any failure
 * (timeout, 429 or 5xx after the client's retries, network, refusal, invalid JSON, a schema
 * mismatch, an insight that names its source) falls back to the rules for that fix, with one warn
 * line naming the reason. It never throws.
 */
import type OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { detectEcosystem } from '../core/ecosystem.js';
import { routineTag } from '../core/routines.js';
import type { Fix } from '../core/types.js';
import type { AbstractedMemory, Abstraction, Abstractor, Logger } from '../services/ports.js';
import { describeLlmFailure } from '../config/llm.js';
import { AnswerSchema, SYSTEM_PROMPT, ValidAnswerSchema, buildUserPrompt, type ValidAnswer } from './prompts.js';
import { checkSpecificity } from './specificity.js';

export interface LlmAbstractorOptions {
  client: OpenAI;
  /** the chat model, recorded in Abstraction.model */
  model: string;
  /** the offline abstractor: the trajectory and evidence of every fix, and the fallback */
  rules: Abstractor;
  logger: Logger;
}

/** Why the model's answer was not used. */
class AnswerRejected extends Error {}

const RESPONSE_FORMAT = zodResponseFormat(AnswerSchema, 'fix_memory');

export function createLlmAbstractor(options: LlmAbstractorOptions): Abstractor {
  const { client, model, rules, logger } = options;

  async function ask(fix: Fix): Promise<ValidAnswer> {
    const completion = await client.chat.completions.create({
      model,
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: buildUserPrompt(fix) },
      ],
      response_format: RESPONSE_FORMAT,
    });
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
    const parsed = ValidAnswerSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join('.') || 'answer';
      throw new AnswerRejected(`schema mismatch: ${field} ${issue?.message ?? 'is invalid'}`);
    }
    return parsed.data;
  }

  return {
    async abstract(fix: Fix): Promise<Abstraction> {
      const offline = await rules.abstract(fix);
      try {
        const answer = await ask(fix);
        const memories = toMemories(answer, fix, offline);
        return { memories, model };
      } catch (error) {
        const reason = error instanceof AnswerRejected ? error.message : describeLlmFailure(error).reason;
        logger.warn(`LLM abstraction of ${fix.repo}@${fix.ref} failed (${reason}); using the rules`, {
          repo: fix.repo,
          ref: fix.ref,
          model,
          reason,
        });
        return offline;
      }
    },
  };
}

/** The model's three levels plus the rules' trajectory; each checked for specificity. */
function toMemories(answer: ValidAnswer, fix: Fix, offline: Abstraction): AbstractedMemory[] {
  const offlineOf = (level: AbstractedMemory['level']) => offline.memories.find((m) => m.level === level);
  const evidence = offlineOf('insight')?.evidence ?? offline.memories[0]?.evidence ?? [];
  const tags = tagsOf(answer, fix);
  const { workflow, summary, insight } = answer;

  const insightMemory: AbstractedMemory = {
    level: 'insight',
    ...insight,
    body: { level: 'insight', insight },
    tags,
    evidence,
  };
  const workflowMemory: AbstractedMemory = {
    level: 'workflow',
    title: workflow.goal,
    description: insight.description,
    content: workflow.steps.map((s, i) => `${i + 1}. ${s}`).join('\n'),
    body: { level: 'workflow', workflow },
    tags,
    evidence,
  };
  const summaryMemory: AbstractedMemory = {
    level: 'summary',
    title: insight.title,
    description: summary.task_summary,
    content: summary.experience_summary,
    body: { level: 'summary', summary },
    tags,
    evidence,
  };

  const checked = checkSpecificity(insightMemory, fix);
  if (!checked.ok) throw new AnswerRejected(`specificity: ${checked.reason ?? 'names its source'}`);
  const out: AbstractedMemory[] = [];
  const trajectory = offlineOf('trajectory');
  if (trajectory) out.push(trajectory);
  // a workflow or summary that names its source is replaced by the rules' version of that level
  for (const memory of [workflowMemory, summaryMemory]) {
    const result = checkSpecificity(memory, fix);
    const fallback = offlineOf(memory.level);
    if (result.ok) out.push(result.rewritten ?? memory);
    else if (fallback) out.push(fallback);
  }
  out.push(checked.rewritten ?? insightMemory);
  return out;
}

/** routine:, check:, lang:, tool: tags; language and tool from the files first (one vocabulary with the rules). */
function tagsOf(answer: ValidAnswer, fix: Fix): string[] {
  const ecosystem = detectEcosystem(fix.files, fix.language);
  const language = ecosystem.language ?? (answer.tags.language !== 'other' ? answer.tags.language : null);
  const tool = ecosystem.tool ?? (answer.tags.tool !== 'other' ? answer.tags.tool : null);
  const tags = answer.tags.routine.map(routineTag);
  for (const check of [...answer.tags.check].sort()) tags.push(`check:${check}`);
  if (language) tags.push(`lang:${language}`);
  if (tool) tags.push(`tool:${tool}`);
  return tags;
}
