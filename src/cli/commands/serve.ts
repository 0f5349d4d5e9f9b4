/**
 * serve: runs the GitHub App (webhooks, /healthz, the recall API, the job worker) until SIGINT
 * or SIGTERM, then stops gracefully. Settings come from the environment (docs/app-setup.md).
 * With more than one process (--processes; default one per core beyond the first, up to 4) this process runs the
 * job worker and forks the HTTP processes, which run this same command (src/app/cluster.ts).
 */
import type { Command } from 'commander';
import { z } from 'zod';
import { isHttpChild, serveHttpChild, startHttpChildren, type HttpChildren } from '../../app/cluster.js';
import { startServer } from '../../app/server.js';
import { readServeConfig, type ServeConfig } from '../../app/settings.js';
import { silentLogger } from '../../ports/index.js';
import type { CliContext } from '../context.js';
import { parseFlags } from '../flags.js';
import type { CliCommand } from './command.js';

const shape = {
  port: z.coerce.number().int('must be a whole number').min(0).max(65_535).optional(),
  host: z.string().min(1).optional(),
  dev: z.boolean().optional(),
  processes: z.coerce.number().int('must be a whole number').min(1).max(64).optional(),
};

/**
 * After a graceful stop, a job still running past the grace period keeps its lease (the next
 * worker re-runs it) and may still hold timers or sockets: leave at the latest a second later.
 */
function exitSoon(): void {
  setTimeout(() => process.exit(), 1_000).unref();
}

function untilSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** A forked HTTP process: intake, /healthz and the recall API; the primary runs the jobs. */
async function serveAsChild(ctx: CliContext, config: ServeConfig): Promise<void> {
  await serveHttpChild((recordJobs) => startServer({ config, env: ctx.io.env, role: 'http', recordJobs }));
  exitSoon();
}

async function serve(ctx: CliContext, raw: Record<string, unknown>): Promise<void> {
  const opts = parseFlags(shape, raw);
  const config = readServeConfig(ctx.io.env, {
    ...(opts.dev ? { dev: true } : {}),
    ...(opts.port !== undefined ? { port: opts.port } : {}),
    ...(opts.host ? { host: opts.host } : {}),
    ...(ctx.globals.db ? { db: ctx.globals.db } : {}),
    ...(opts.processes !== undefined ? { processes: opts.processes } : {}),
  });
  if (isHttpChild()) return serveAsChild(ctx, config);
  if (config.dev)
    ctx.io.err('memory-transfer: warning: development mode: webhooks signed with the default secret are accepted\n');
  if (config.credentials && config.processes > 1) return serveClustered(ctx, config);
  const server = await startServer({ config, env: ctx.io.env });
  ctx.io.err(
    server.setup
      ? `memory-transfer: set-up mode: open ${server.url} to create the GitHub App from app.yml\n`
      : `memory-transfer: listening on ${server.url} (webhooks at ${config.webhookPath}, health at /healthz)\n`,
  );
  await untilSignal();
  ctx.io.err('memory-transfer: stopping (finishing running jobs)…\n');
  await server.stop();
  exitSoon();
}

/** The primary of a clustered serve: the job worker here, `config.processes` HTTP processes forked. */
async function serveClustered(ctx: CliContext, config: ServeConfig): Promise<void> {
  const jobs = await startServer({ config, env: ctx.io.env, role: 'jobs' });
  const recordJobs = jobs.recordJobs;
  if (!recordJobs) throw new Error('the job process did not start');
  let children: HttpChildren;
  try {
    children = await startHttpChildren({
      processes: config.processes,
      logger: jobs.deps?.logger ?? silentLogger,
      recordJobs,
    });
  } catch (error) {
    await jobs.stop();
    throw error;
  }
  const host = config.host === '0.0.0.0' ? 'localhost' : config.host;
  ctx.io.err(
    `memory-transfer: listening on http://${host}:${children.port} with ${config.processes} HTTP processes (webhooks at ${config.webhookPath}, health at /healthz)\n`,
  );
  await untilSignal();
  ctx.io.err('memory-transfer: stopping (finishing open requests and running jobs)…\n');
  await children.stop();
  await jobs.stop();
  exitSoon();
}

export const serveCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('serve')
      .option('--port <n>', 'port to listen on (default: $PORT, else 3000)')
      .option('--host <host>', 'address to listen on (default: $HOST, else 0.0.0.0)')
      .option('--dev', 'development only: accept the default webhook secret "development"')
      .option(
        '--processes <n>',
        'HTTP processes sharing the port (default: $MEMORY_TRANSFER_PROCESSES, else one per CPU core beyond the first, up to 4; 1 on two cores and in --dev)',
      )
      .action((options: Record<string, unknown>) => serve(ctx, options));
  },
};
