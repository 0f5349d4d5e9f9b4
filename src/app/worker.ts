/**
 * The durable JobQueue (src/app/deps.ts) over the store's jobs: handlers enqueue in one insert
 * and return; the worker polls, claims a job with a lease, runs its handler, and completes it,
 * or records the error and retries with exponential backoff until it is dead after N attempts.
 * A running job renews its lease (a heartbeat every third of it), so only a job whose worker died
 * (or stalled past its lease) is claimed again once the lease expires; a run that lost its lease
 * records nothing (its claim no longer matches) and handlers ask `held()` before a write that must
 * happen once. Handlers must be idempotent (learn is, by natural key).
 */
import { describeError, UpstreamError } from '../core/errors.js';
import type { Job, NewJob, Store } from '../store/store.js';
import type { Clock, Logger } from '../ports/index.js';
import type { JobHandler, JobQueue } from './deps.js';

/**
 * How long a stopping worker waits for its running jobs: with the HTTP side's few seconds before it,
 * `serve` exits within 10 s of SIGTERM, the time Docker gives before it kills.
 */
export const STOP_GRACE_MS = 7_000;

export interface WorkerOptions {
  store: Store;
  logger: Logger;
  clock: Clock;
  /** how long a claimed job is leased before another worker may take it (default 5 min) */
  leaseMs?: number;
  /** idle wait between polls when the queue is empty (default 500 ms) */
  pollMs?: number;
  /** jobs run at the same time (default 4) */
  concurrency?: number;
  /** attempts before a job is dead (default 6) */
  maxAttempts?: number;
  /** first retry delay; doubles each attempt, capped at maxBackoffMs (default 2 s) */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** finished (done or dead) jobs are kept this long, then pruned (default 7 days) */
  retainMs?: number;
  /** how often the running worker prunes (default 1 hour) */
  pruneEveryMs?: number;
}

export interface Worker extends JobQueue {
  /** starts polling (idempotent) */
  start(): void;
  /**
   * Stops polling and waits for running jobs up to `graceMs` (default STOP_GRACE_MS). Jobs still running
   * after that keep their lease and are re-run by the next worker once it expires.
   */
  stop(graceMs?: number): Promise<void>;
  /** claims and runs due jobs until none is due; returns how many ran (tests, CLI, bench) */
  drain(): Promise<number>;
  /** records many jobs in one store write (group commit); for each, whether it was new */
  enqueueMany(jobs: NewJob[]): Promise<boolean[]>;
  /** the delay before retry number `attempts` (1-based) */
  backoff(attempts: number): number;
  /** removes finished jobs older than the retention; returns how many */
  prune(): Promise<number>;
}

/**
 * Thrown by a handler that found its lease lost before a write: another worker owns the job now,
 * so this run stops without writing and without recording anything about the job.
 */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
  constructor(key: string) {
    super(`the lease of job ${key} was lost (claimed again by another worker); this run wrote nothing`);
  }
}

/** Thrown by a handler for an error that retrying will never fix: the job is dead at once. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

export function createWorker(options: WorkerOptions): Worker {
  const { store, logger, clock } = options;
  const leaseMs = options.leaseMs ?? 5 * 60_000;
  const pollMs = options.pollMs ?? 500;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const maxAttempts = options.maxAttempts ?? 6;
  const backoffMs = options.backoffMs ?? 2_000;
  const maxBackoffMs = options.maxBackoffMs ?? 10 * 60_000;
  const retainMs = options.retainMs ?? 7 * 24 * 3600_000;
  const pruneEveryMs = options.pruneEveryMs ?? 3600_000;
  let pruneTimer: NodeJS.Timeout | undefined;
  const handlers = new Map<string, JobHandler>();
  const running = new Set<Promise<void>>();
  let loops: Promise<void>[] = [];
  let stopping = false;
  let started = false;
  const sleepers = new Set<() => void>();
  const wakeAll = (): void => {
    for (const wake of [...sleepers]) wake();
  };

  const backoff = (attempts: number): number => Math.min(maxBackoffMs, backoffMs * 2 ** Math.max(0, attempts - 1));

  async function claim(): Promise<Job | undefined> {
    const now = clock.now();
    return store.claimJob(now.toISOString(), new Date(now.getTime() + leaseMs).toISOString());
  }

  /**
   * The lease of a running job: renewed every third of its length (a heartbeat) so a long run
   * (a rate-limit wait, a slow answer) is never claimed again while it is alive; `held` renews at
   * once and says whether the claim still holds. A lost lease aborts the signal.
   */
  function holdLease(job: Job): { held: () => Promise<boolean>; signal: AbortSignal; release: () => void } {
    const controller = new AbortController();
    let lost = false;
    const renew = async (): Promise<boolean> => {
      if (lost) return false;
      const until = new Date(clock.now().getTime() + leaseMs).toISOString();
      const kept = await store.renewJob(job.id, job.attempts, until).catch((error: unknown) => {
        // the store is unreachable: the lease still runs until it expires
        logger.warn('could not renew a job lease', { id: job.id, key: job.key, error: describeError(error) });
        return true;
      });
      if (!kept && !lost) {
        lost = true;
        controller.abort(new LeaseLostError(job.key));
        logger.warn('job lease lost: another worker claimed it', { id: job.id, key: job.key, kind: job.kind });
      }
      return kept;
    };
    const timer = setInterval(() => void renew(), Math.max(1, Math.floor(leaseMs / 3)));
    timer.unref();
    return { held: renew, signal: controller.signal, release: () => clearInterval(timer) };
  }

  async function run(job: Job): Promise<void> {
    const handler = handlers.get(job.kind);
    // `attempts` counts this claim too (the store increments it when claiming)
    const attempt = Math.max(1, job.attempts);
    const lease = holdLease(job);
    try {
      if (!handler) throw new PermanentJobError(`no handler for job kind "${job.kind}"`);
      await handler(job.payload, {
        id: job.id,
        key: job.key,
        attempts: attempt,
        ...(job.body ? { body: job.body } : {}),
        held: lease.held,
        signal: lease.signal,
      });
      lease.release();
      // only the claim that still holds the job records its result
      if (await store.completeJob(job.id, job.attempts)) logger.debug('job done', { id: job.id, key: job.key });
      else
        logger.warn('job finished after its lease was lost; its result is not recorded', { id: job.id, key: job.key });
    } catch (error) {
      lease.release();
      if (error instanceof LeaseLostError || lease.signal.aborted) {
        logger.warn('job stopped: its lease was lost', { id: job.id, key: job.key, kind: job.kind });
        return;
      }
      const permanent = error instanceof PermanentJobError || (error instanceof UpstreamError && !error.retryable);
      const dead = permanent || attempt >= maxAttempts;
      const runAfter = new Date(clock.now().getTime() + backoff(attempt)).toISOString();
      const message = describeError(error);
      await store.failJob(job.id, message, runAfter, dead, job.attempts).catch((failError: unknown) => {
        logger.error('could not record a job failure', { id: job.id, error: describeError(failError) });
      });
      const fields = { id: job.id, key: job.key, kind: job.kind, attempt, error: message };
      if (dead) logger.error('job dead', fields);
      else logger.warn('job failed, will retry', { ...fields, runAfter });
    }
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      let job: Job | undefined;
      try {
        job = await claim();
      } catch (error) {
        logger.error('could not claim a job', { error: describeError(error) });
      }
      if (stopping && job) {
        // claimed while stopping: leave it leased; it is re-run after the lease expires
        return;
      }
      if (!job) {
        await new Promise<void>((resolve) => {
          const wake = (): void => {
            clearTimeout(timer);
            sleepers.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, pollMs);
          sleepers.add(wake);
        });
        continue;
      }
      const task = run(job);
      running.add(task);
      await task;
      running.delete(task);
    }
  }

  async function prune(): Promise<number> {
    const removed = await store.pruneJobs(new Date(clock.now().getTime() - retainMs).toISOString());
    if (removed > 0) logger.debug('finished jobs pruned', { removed });
    return removed;
  }

  return {
    async enqueue(key, kind, payload) {
      const added = await store.enqueueJob({ key, kind, payload, runAfter: clock.now().toISOString() });
      if (added) wakeAll();
      return added;
    },
    async enqueueMany(jobs) {
      const runAfter = clock.now().toISOString();
      const added = await store.enqueueJobs(jobs.map((job) => ({ ...job, runAfter })));
      if (added.some(Boolean)) wakeAll();
      return added;
    },
    register(kind, handler) {
      handlers.set(kind, handler);
    },
    start() {
      if (started) return;
      started = true;
      stopping = false;
      loops = Array.from({ length: concurrency }, () => loop());
      pruneTimer = setInterval(() => {
        prune().catch((error: unknown) =>
          logger.warn('could not prune finished jobs', { error: describeError(error) }),
        );
      }, pruneEveryMs);
      pruneTimer.unref();
    },
    async stop(graceMs = STOP_GRACE_MS) {
      stopping = true;
      clearInterval(pruneTimer);
      wakeAll();
      const all = Promise.all([...loops, ...running]).then(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      });
      await Promise.race([all, timeout]);
      clearTimeout(timer);
      started = false;
    },
    async drain() {
      let count = 0;
      for (;;) {
        const job = await claim();
        if (!job) return count;
        await run(job);
        count += 1;
      }
    },
    backoff,
    prune,
  };
}
