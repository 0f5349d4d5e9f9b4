/**
 * serve: runs the GitHub App (webhooks, /healthz, the recall API, the job worker) until SIGINT
 * or SIGTERM, then stops gracefully. Settings come from the environment (docs/app-setup.md).
 */
import type { Command } from 'commander';
import { z } from 'zod';
import { startServer } from '../../app/server.js';
import { readServeConfig } from '../../app/settings.js';
import type { CliContext } from '../context.js';
import { parseFlags } from '../flags.js';
import type { CliCommand } from './command.js';

const shape = {
  port: z.coerce.number().int('must be a whole number').min(0).max(65_535).optional(),
  host: z.string().min(1).optional(),
  dev: z.boolean().optional(),
};

async function serve(ctx: CliContext, raw: Record<string, unknown>): Promise<void> {
  const opts = parseFlags(shape, raw);
  const config = readServeConfig(ctx.io.env, {
    ...(opts.dev ? { dev: true } : {}),
    ...(opts.port !== undefined ? { port: opts.port } : {}),
    ...(opts.host ? { host: opts.host } : {}),
    ...(ctx.globals.db ? { db: ctx.globals.db } : {}),
  });
  if (config.dev)
    ctx.io.err('memory-transfer: warning: development mode: webhooks signed with the default secret are accepted\n');
  const server = await startServer({ config, env: ctx.io.env });
  ctx.io.err(
    server.setup
      ? `memory-transfer: set-up mode: open ${server.url} to create the GitHub App from app.yml\n`
      : `memory-transfer: listening on ${server.url} (webhooks at ${config.webhookPath}, health at /healthz)\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  ctx.io.err('memory-transfer: stopping (finishing running jobs)…\n');
  await server.stop();
}

export const serveCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('serve')
      .description(
        'run the GitHub App: webhooks, the recall API and the job worker (APP_ID, PRIVATE_KEY, WEBHOOK_SECRET)',
      )
      .option('--port <n>', 'port to listen on (default: $PORT, else 3000)')
      .option('--host <host>', 'address to listen on (default: $HOST, else 0.0.0.0)')
      .option('--dev', 'development only: accept the default webhook secret "development"')
      .action((options: Record<string, unknown>) => serve(ctx, options));
  },
};
