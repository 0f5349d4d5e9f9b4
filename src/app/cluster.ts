/**
 * A clustered `serve`: several HTTP processes behind one port (node:cluster), one job worker.
 *
 * Verifying a webhook signature, parsing HTTP and checking an OIDC token are CPU work on one
 * event loop; with hundreds of deliveries or dozens of Action runs in flight, one process makes
 * them queue. So the primary forks `processes` children that each run the HTTP side
 * (`startServer({ role: 'http' })`: intake, /healthz, recall API) and share the port, while the
 * primary itself runs the job worker and the periodic sweeps (`role: 'jobs'`). Every process opens
 * the same pool to read (SQLite in WAL mode: readers never wait). The webhook deliveries a child
 * takes in are recorded by the primary: the child sends each group-committed batch over the
 * cluster's IPC channel (structured clone, so bodies travel as bytes), the primary folds the
 * batches of all children into its own group commit and answers once they are stored; the child
 * acknowledges GitHub only then. One writer: no process ever waits on another's write lock
 * (SQLite's busy wait sleeps in steps of up to 100 ms), and the worker learns of new jobs at once.
 *
 * A child that dies is replaced (after 1 s, doubling up to 30 s while it keeps dying); on stop
 * the primary disconnects every child, each finishes its open requests and exits.
 */
import cluster, { type Worker as ClusterWorker } from 'node:cluster';
import { describeError } from '../core/errors.js';
import type { Logger } from '../ports/index.js';
import type { EnqueueBatch, EnqueueRequest } from './intake.js';

const LISTENING = 'memory-transfer:listening';
const RECORD = 'memory-transfer:record-jobs';
const RECORDED = 'memory-transfer:recorded-jobs';
const FAILED = 'memory-transfer:failed';

type ChildMessage =
  | { type: typeof LISTENING; port: number }
  | { type: typeof RECORD; id: number; jobs: EnqueueRequest[] }
  | { type: typeof FAILED; message: string };

type PrimaryMessage = { type: typeof RECORDED; id: number; added?: boolean[]; error?: string };

function isChildMessage(value: unknown): value is ChildMessage {
  const type = (value as { type?: unknown } | null)?.type;
  return type === LISTENING || type === RECORD || type === FAILED;
}

export interface HttpChildrenOptions {
  /** how many HTTP processes */
  processes: number;
  logger: Logger;
  /** records the jobs (webhook deliveries) a child took in; the child acknowledges them once this resolves */
  recordJobs: EnqueueBatch;
  /** the script the children run, its arguments and Node flags (default: this process's own) */
  exec?: string;
  args?: string[];
  execArgv?: string[];
  /** extra environment for the children */
  env?: Record<string, string>;
  /** how long stop() waits for a child to finish its requests before killing it (default 2 s: requests take milliseconds) */
  graceMs?: number;
}

export interface HttpChildren {
  /** the port they share */
  port: number;
  /** the children's process ids (tests) */
  pids(): number[];
  /** disconnects every child and waits for it to exit; no child is replaced after this */
  stop(): Promise<void>;
}

/** Forks the HTTP children and resolves once every one listens; rejects if one fails to start. */
export function startHttpChildren(options: HttpChildrenOptions): Promise<HttpChildren> {
  const { logger } = options;
  if (!cluster.isPrimary) throw new Error('startHttpChildren runs in the primary process only');
  cluster.setupPrimary({
    serialization: 'advanced',
    ...(options.exec ? { exec: options.exec } : {}),
    ...(options.args ? { args: options.args } : {}),
    ...(options.execArgv ? { execArgv: options.execArgv } : {}),
  });
  const children = new Set<ClusterWorker>();
  let stopping = false;
  let port = 0;
  let restartDelay = 1_000;
  let restartTimer: NodeJS.Timeout | undefined;

  return new Promise<HttpChildren>((resolve, reject) => {
    let waiting = options.processes;
    let started = false;

    const fork = (): void => {
      const child = cluster.fork({ ...options.env });
      children.add(child);
      child.on('message', (message: unknown) => {
        if (!isChildMessage(message)) return;
        if (message.type === RECORD) {
          const answer = (reply: Omit<PrimaryMessage, 'type' | 'id'>): void => {
            if (child.isConnected()) child.send({ type: RECORDED, id: message.id, ...reply } satisfies PrimaryMessage);
          };
          options.recordJobs(message.jobs).then(
            (added) => answer({ added }),
            (error: unknown) => answer({ error: describeError(error) }),
          );
        } else if (message.type === LISTENING) {
          port = message.port;
          restartDelay = 1_000;
          waiting -= 1;
          if (!started && waiting === 0) {
            started = true;
            resolve(handle);
          }
        } else if (!started) {
          stopping = true;
          void stopChildren().then(() => reject(new Error(message.message)));
        }
      });
      child.on('exit', (code, signal) => {
        children.delete(child);
        if (stopping) return;
        if (!started) {
          stopping = true;
          void stopChildren().then(() =>
            reject(new Error(`an HTTP process exited while starting (${signal ?? `exit code ${String(code)}`})`)),
          );
          return;
        }
        logger.error('an HTTP process exited; starting another', {
          pid: child.process.pid,
          exit: signal ?? code,
          inMs: restartDelay,
        });
        restartTimer = setTimeout(fork, restartDelay);
        restartDelay = Math.min(30_000, restartDelay * 2);
      });
    };

    const stopChildren = async (): Promise<void> => {
      clearTimeout(restartTimer);
      await Promise.all(
        [...children].map(
          (child) =>
            new Promise<void>((done) => {
              if (child.isDead()) return done();
              const kill = setTimeout(() => child.process.kill('SIGKILL'), options.graceMs ?? 2_000);
              child.once('exit', () => {
                clearTimeout(kill);
                done();
              });
              if (child.isConnected()) child.disconnect();
              else child.process.kill('SIGTERM');
            }),
        ),
      );
    };

    const handle: HttpChildren = {
      get port() {
        return port;
      },
      pids: () => [...children].flatMap((child) => (child.process.pid ? [child.process.pid] : [])),
      async stop() {
        stopping = true;
        await stopChildren();
      },
    };

    for (let i = 0; i < options.processes; i += 1) fork();
  });
}

/** True in a child forked by startHttpChildren. */
export function isHttpChild(): boolean {
  return cluster.isWorker;
}

/** Child side: records a batch of jobs through the primary (rejects if it cannot, or is gone). */
function recordJobsInPrimary(): EnqueueBatch {
  let next = 0;
  const waiting = new Map<number, { resolve: (added: boolean[]) => void; reject: (error: Error) => void }>();
  process.on('message', (message: PrimaryMessage) => {
    if (message?.type !== RECORDED) return;
    const call = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.added) call?.resolve(message.added);
    else call?.reject(new Error(`the primary process could not record the jobs: ${message.error ?? 'no answer'}`));
  });
  process.on('disconnect', () => {
    for (const call of waiting.values()) call.reject(new Error('the primary process is gone'));
    waiting.clear();
  });
  return (jobs) =>
    new Promise<boolean[]>((resolve, reject) => {
      if (!process.connected || !process.send) {
        reject(new Error('the primary process is gone'));
        return;
      }
      const id = (next += 1);
      waiting.set(id, { resolve, reject });
      process.send({ type: RECORD, id, jobs } satisfies ChildMessage, undefined, {}, (error: Error | null) => {
        if (!error) return;
        waiting.delete(id);
        reject(error);
      });
    });
}

/**
 * Child side, the whole life of an HTTP process: starts it with `start` (given how to record jobs
 * through the primary), tells the primary it listens (or why it could not start: the primary then
 * gives up rather than restart it in a loop), and stops it when the child should stop.
 */
export async function serveHttpChild(
  start: (recordJobs: EnqueueBatch) => Promise<{ port: number; stop(): Promise<void> }>,
): Promise<void> {
  let server: { port: number; stop(): Promise<void> };
  try {
    server = await start(recordJobsInPrimary());
  } catch (error) {
    process.send?.({ type: FAILED, message: describeError(error) } satisfies ChildMessage);
    throw error;
  }
  process.send?.({ type: LISTENING, port: server.port } satisfies ChildMessage);
  await untilChildStops();
  await server.stop();
}

/** Child side: resolves when the child should stop: the primary disconnected it, or it got SIGINT / SIGTERM itself. */
function untilChildStops(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.off('disconnect', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    process.on('disconnect', stop);
  });
}
