/**
 * The App's HTTP side as `serve --processes N` runs it, for the benchmarks: N forked processes
 * (scripts/bench/http-child.ts) sharing one port, started with src/app/cluster.ts; the bench's
 * own process is the primary (it runs the job worker when it wants one).
 */
import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { startHttpChildren } from '../../src/app/cluster.js';
import type { EnqueueBatch } from '../../src/app/intake.js';
import { defaultProcesses } from '../../src/app/settings.js';
import { silentLogger } from '../../src/ports/index.js';

/** HTTP processes the benches' clusters run: BENCH_PROCESSES, else what `serve` forks on this machine, at least 2. */
export const BENCH_PROCESSES = Number(
  process.env.BENCH_PROCESSES ?? Math.max(2, defaultProcesses(availableParallelism())),
);

export interface BenchCluster {
  port: number;
  /** the server-side time of every request since the last call, ascending, and the CPU time the processes used (ms) */
  serverTimes(): Promise<number[] & { cpuMs?: number; mainCpuMs?: number }>;
  stop(): Promise<void>;
}

export async function startBenchCluster(
  env: Record<string, string>,
  options: { processes?: number; recordJobs?: EnqueueBatch } = {},
): Promise<BenchCluster> {
  const children = await startHttpChildren({
    processes: options.processes ?? BENCH_PROCESSES,
    logger: silentLogger,
    exec: join(import.meta.dirname, 'http-child.ts'),
    args: [],
    execArgv: [
      '--import',
      'tsx',
      ...(process.env.BENCH_CHILD_PROF
        ? ['--cpu-prof', '--cpu-prof-interval', '250', `--cpu-prof-dir=${process.env.BENCH_CHILD_PROF}`]
        : []),
    ],
    env: { ...env, LOG_LEVEL: 'silent' },
    // the recall API bench records nothing
    recordJobs: options.recordJobs ?? (async (jobs) => jobs.map(() => false)),
  });
  return {
    port: children.port,
    async serverTimes() {
      const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
      const lists = await Promise.all(
        workers.map(
          (worker) =>
            new Promise<{ times: number[]; cpuMs: number; mainCpuMs: number }>((resolve) => {
              const onMessage = (message: { type?: string; times?: number[]; cpuMs?: number; mainCpuMs?: number }) => {
                if (message?.type !== 'bench:times') return;
                worker.off('message', onMessage);
                resolve({ times: message.times ?? [], cpuMs: message.cpuMs ?? 0, mainCpuMs: message.mainCpuMs ?? NaN });
              };
              worker.on('message', onMessage);
              worker.send({ type: 'bench:times' });
            }),
        ),
      );
      const times: number[] & { cpuMs?: number; mainCpuMs?: number } = lists
        .flatMap((l) => l.times)
        .sort((a, b) => a - b);
      times.cpuMs = lists.reduce((sum, l) => sum + l.cpuMs, 0);
      times.mainCpuMs = lists.reduce((sum, l) => sum + l.mainCpuMs, 0);
      return times;
    },
    stop: () => children.stop(),
  };
}
