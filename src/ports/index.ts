/**
 * The ports services take as arguments. Adapters implement them: pino or @actions/core for the
 * logger, the OpenAI-compatible client or the rules for the abstractor, and so on. They sit below
 * every adapter and import only core, so no adapter imports up into services.
 */
import type { RoutineKind } from '../core/knowledge/routines.js';
import type { TaskKind } from '../core/retrieval/task-kind.js';
import type { Fix, Memory, MemoryIdentity } from '../core/types.js';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * What an abstractor makes of one (already redacted) fix: the four levels, without ids or
 * bookkeeping, each with its identity (lesson, routines, facet, examples) as fields beside the
 * tags that say it for people.
 */
export interface AbstractedMemory extends MemoryIdentity {
  level: Memory['level'];
  title: string;
  description: string;
  content: string;
  body: Memory['body'];
  tags: string[];
  evidence: string[];
}

export interface Abstraction {
  memories: AbstractedMemory[];
  /** "rules@1" or the LLM model that wrote the insight */
  model: string;
  /** who wrote these memories: the rules ('rules', also when they stood in for a model) or a model */
  writer: 'rules' | 'model';
  /**
   * Set when the model was asked but the rules wrote these memories: why ("timeout", "circuit
   * open", "HTTP 500: …", "screen: …"). The fix is recorded as learned by fallback, and a later
   * run with a model abstracts it again.
   */
  fallback?: { reason: string };
}

export interface Abstractor {
  /** true when a model writes the insights: fixes learned by fallback are then abstracted again */
  readonly usesModel?: boolean;
  /** abstractions that may run at once (learnFixes runs them ahead of its in-order writes); default 1 */
  readonly concurrency?: number;
  /**
   * Never throws for a bad model answer or a failed call: falls back to the rules and logs.
   * Throws LlmAuthError when the endpoint refuses the API key (every later call would fail too).
   */
  abstract(fix: Fix): Promise<Abstraction>;
}

/** What a model read in a task: the kind of task, and the routine kinds it needs (the main one first). */
export interface TaskReadingByModel {
  taskKind: TaskKind;
  routines: RoutineKind[];
}

/** Reads a task by a model; undefined when it could not (the rules' reading stands). Never throws. */
export interface TaskReader {
  read(task: string): Promise<TaskReadingByModel | undefined>;
}

export interface Embedder {
  /** model name stored beside the vectors; vectors of different models are never compared */
  readonly model: string;
  readonly dimensions: number;
  embed(texts: string[]): Promise<Float32Array[]>;
}

export type { TokenMeter } from '../core/token-usage.js';

/** Redacts secrets from text. Throws if redaction could not be done (then nothing is sent or stored). */
export interface Redactor {
  redact(text: string): Promise<string>;
}
