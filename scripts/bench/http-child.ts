/**
 * An HTTP process of the benchmarks' clustered server (forked by scripts/bench/cluster.ts): the
 * App's own `startServer({ role: 'http' })`, as `serve --processes N` runs it, configured from the
 * environment the bench passes. For the recall API it takes a local key set (BENCH_JWKS) and an
 * installation directory that knows one repository (BENCH_REPO): no GitHub. It times each
 * request on the server (scripts/bench/server-times.ts) and hands the times, and the CPU time it
 * used meanwhile, to the bench on request.
 */
import { createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { readFileSync } from 'node:fs';
import { pino } from 'pino';
import { serveHttpChild } from '../../src/app/cluster.js';
import type { InstalledRepository } from '../../src/app/http/oidc.js';
import { startServer } from '../../src/app/server.js';
import { readServeConfig } from '../../src/app/settings.js';
import { timeRequests } from './server-times.js';

const env = process.env;
const repo = env.BENCH_REPO ? (JSON.parse(env.BENCH_REPO) as InstalledRepository) : undefined;
const times: number[] = [];
/**
 * The main (JavaScript) thread's CPU in ms, from Linux's per-thread clock ticks (utime + stime,
 * 10 ms each); NaN elsewhere. The rest of the process's CPU is the libuv pool (the sqlite3
 * driver's queries, WebCrypto) and V8's helper threads.
 */
function mainThreadCpuMs(): number {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}
let cpu = process.cpuUsage();
let mainCpu = mainThreadCpuMs();
process.on('message', (message: { type?: string }) => {
  if (message?.type !== 'bench:times') return;
  const used = process.cpuUsage(cpu);
  cpu = process.cpuUsage();
  const main = mainThreadCpuMs();
  const mainCpuMs = main - mainCpu;
  mainCpu = main;
  process.send?.({ type: 'bench:times', times: times.splice(0), cpuMs: (used.user + used.system) / 1000, mainCpuMs });
});
await serveHttpChild(async (recordJobs) => {
  const server = await startServer({
    config: readServeConfig(env),
    env: {},
    role: 'http',
    log: pino({ level: 'silent' }),
    recordJobs,
    api: {
      ...(env.BENCH_JWKS ? { jwks: createLocalJWKSet(JSON.parse(env.BENCH_JWKS) as JSONWebKeySet) } : {}),
      ...(repo
        ? {
            directory: {
              findRepository: async (ownerId, repoId) =>
                ownerId === repo.ownerId && repoId === repo.repoId ? repo : undefined,
              pullRequestHeadRepoId: async () => undefined,
            },
          }
        : {}),
      rateLimitPerMinute: 1_000_000,
      tokenRateLimitPerMinute: 1_000_000,
      installationRateLimitPerMinute: 1_000_000,
    },
  });
  timeRequests(server.http, times);
  return server;
});
