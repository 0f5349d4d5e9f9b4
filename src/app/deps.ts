/**
 * What the App's handlers and workers are given. Built once in server.ts from the environment;
 * tests build it from a temp SQLite pool and nock'd GitHub/LLM.
 */
import type { Store } from '../store/store.js';
import type { Abstractor, Clock, Embedder, Logger, Redactor, TaskReader, TokenMeter } from '../ports/index.js';
import type { ConfigCache } from './interaction/config-cache.js';

/** A durable job handler: runs in the worker, may throw to be retried with backoff. */
/** `job.body` holds the raw bytes recorded with the job, if any (a webhook delivery's body). */
export type JobHandler = (
  payload: unknown,
  job: {
    id: number;
    key: string;
    attempts: number;
    body?: Buffer;
    /**
     * Renews the job's lease now; false when it was lost (another worker claimed the job after
     * the lease expired). A handler asks right before a write that must happen once (a comment).
     */
    held?: () => Promise<boolean>;
    /** aborted when a heartbeat finds the lease lost */
    signal?: AbortSignal;
  },
) => Promise<void>;

export interface JobQueue {
  /** records the job durably; false when a job with this key was already recorded (dedupe) */
  enqueue(key: string, kind: string, payload: unknown): Promise<boolean>;
  /** registers the handler for a job kind; the worker calls it */
  register(kind: string, handler: JobHandler): void;
}

export interface AppSettings {
  /** the App's slug, e.g. "memory-transfer" (its bot login is `${slug}[bot]`) */
  appSlug: string;
  /** GitHub host links may point to, e.g. "https://github.com" */
  githubUrl: string;
  /** how many merged PRs a fresh installation backfills per repository */
  installBackfillLimit: number;
  /** how often the staleness sweep runs (default daily; 0 turns it off) */
  stalenessSweepMs?: number;
  /** false: this process schedules no periodic sweep (the HTTP children of a clustered serve) */
  sweeps?: boolean;
}

export interface AppDeps {
  store: Store;
  abstractor: Abstractor;
  embedder?: Embedder;
  /** reads a task by a model for recall (absent: offline, or MEMORY_TRANSFER_READ_MODEL=rules) */
  taskReader?: TaskReader;
  redactor: Redactor;
  logger: Logger;
  clock: Clock;
  queue: JobQueue;
  settings: AppSettings;
  /** the model adapters' token use since the process started (logged per learned fix, on /metrics) */
  meter?: TokenMeter;
  /** repositories' configuration read once per short while (absent: read for every job) */
  configs?: ConfigCache;
}
