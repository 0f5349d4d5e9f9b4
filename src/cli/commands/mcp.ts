/**
 * mcp: an MCP server over stdio (stdout is the protocol; logs go to stderr) that lets an agent
 * recall insights mid-run, show one, and report what helped (docs/mcp.md). Its insights come from
 * the pool (--db/--tenant), a pool file (--pool, read-only) or the App (--server, with the run's
 * OIDC token). Runs until the client closes stdin, or SIGINT/SIGTERM.
 */
import { randomUUID } from 'node:crypto';
import { Option, type Command } from 'commander';
import { z } from 'zod';
import { InputError } from '../../core/errors.js';
import { VERSION } from '../../core/version.js';
import type { InsightSource } from '../../mcp/insight-source.js';
import { createPoolSource, type BoundRepository } from '../../mcp/pool-source.js';
import {
  TOKEN_ENV,
  serveApp,
  boundRepository,
  githubUrlOf,
  poolFileSource,
  readEventPayload,
  serveStdio,
} from '../../mcp/stdio.js';
import { workflowRunOf, type WorkflowRun } from '../../mcp/workflow-run.js';
import { openStore } from '../../store/open-store.js';
import type { Store } from '../../store/store.js';
import type { CliContext } from '../context.js';
import { engineDeps } from '../engine.js';
import { flag, parseFlags } from '../flags.js';
import type { CliCommand } from './command.js';

const shape = {
  pool: z.string().trim().min(1, 'give the path of a pool file made by `memory-transfer export`').optional(),
  server: z
    .url({ protocol: /^https?$/, error: "must be the App's http(s) URL, e.g. https://memory.acme.dev" })
    .optional(),
  audience: z.string().trim().min(1, 'must not be empty').default('memory-transfer'),
  repo: flag.repo.optional(),
  visibility: flag.visibility.optional(),
  runId: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'must be a workflow run id such as 1234567890 (letters, digits, . _ : -)')
    .optional(),
};
type McpFlags = z.output<z.ZodObject<typeof shape>>;

async function storeSource(
  ctx: CliContext,
  opts: McpFlags,
  store: Store,
  tenant: string,
  bound: BoundRepository | undefined,
  run: WorkflowRun,
): Promise<InsightSource> {
  const deps = await engineDeps(ctx, store);
  return createPoolSource({
    label: `the pool ${ctx.poolLocation} (tenant ${tenant})`,
    recallDeps: deps,
    tenant,
    ...(bound ? { bound } : {}),
    ...(opts.visibility ? { unboundVisibility: opts.visibility } : {}),
    githubUrl: githubUrlOf(ctx.io.env),
    list: () => store.listMemories(tenant, { status: ['active'], level: ['insight'], limit: 5_000 }),
    voting: {
      deps,
      // one server process is one session when no workflow run names it
      runId: opts.runId ?? run.runId ?? `session-${randomUUID()}`,
      mayVote: async () => run.voteRefusal,
    },
  });
}

async function mcp(ctx: CliContext, raw: Record<string, unknown>, version: string): Promise<void> {
  const opts = parseFlags(shape, raw);
  if (opts.pool !== undefined && opts.server !== undefined) {
    throw new InputError('give one of --pool (a pool file) and --server (the App), not both');
  }
  if ((opts.pool !== undefined || opts.server !== undefined) && ctx.globals.db) {
    throw new InputError(
      `--db cannot be combined with ${opts.pool !== undefined ? '--pool' : '--server'}: give one source`,
    );
  }
  const env = ctx.io.env;
  const run = workflowRunOf(env, await readEventPayload(env));
  const bound = boundRepository(opts, run);
  const serving = { logger: ctx.logger, version, githubUrl: githubUrlOf(env) };
  if (opts.server !== undefined) {
    await serveApp({ serverUrl: opts.server, audience: opts.audience, version, env }, serving);
    return;
  }
  if (opts.pool !== undefined) {
    const source = await poolFileSource({
      file: opts.pool,
      cwd: ctx.io.cwd,
      tenant: ctx.globals.tenant,
      bound,
      unboundVisibility: opts.visibility,
      logger: ctx.logger,
      githubUrl: serving.githubUrl,
    });
    await serveStdio(source, serving);
    return;
  }
  const store = await openStore(ctx.poolLocation, ctx.logger);
  try {
    const tenant = await ctx.tenant(store, bound?.repo);
    await serveStdio(await storeSource(ctx, opts, store, tenant, bound, run), serving);
  } finally {
    await store.close();
  }
}

export const mcpCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('mcp')
      .option('--pool <file>', 'serve a pool file made by `memory-transfer export` (read-only: no report_outcome)')
      .option(
        '--server <url>',
        `serve through the App at this URL (its /mcp endpoint), with the workflow's OIDC token (needs "id-token: write"; or $${TOKEN_ENV})`,
      )
      .option('--audience <aud>', "audience of the OIDC token with --server; must equal the App's", 'memory-transfer')
      .option(
        '--repo <owner/name>',
        'the repository the agent works in; its visibility limits what is served (default: $GITHUB_REPOSITORY in Actions, else none: every insight of the tenant)',
      )
      .addOption(
        new Option(
          '--visibility <visibility>',
          "the visibility of --repo (default: for the job's own repository, its event's visibility, public when unknown; for a repository named by hand, private, as recall --repo; without a repo, that of a repo argument, default private)",
        ).choices(['public', 'internal', 'private']),
      )
      .option(
        '--run-id <id>',
        'the run whose outcome reports count once per insight (default: $GITHUB_RUN_ID, else one id per server process)',
      )
      .addHelpText(
        'after',
        [
          '',
          'Tools: recall {task, repo?, k?, level?}, show {id}, report_outcome {ids, outcome: helped|not_relevant|wrong, note?}.',
          'Resource: memory-transfer://insights/top. Source: the pool (--db, --tenant), --pool or --server, exactly one.',
          'In a workflow, runs for forks (pull_request_target, workflow_run, fork pull requests) and runs triggered',
          'by people outside the repository may recall but not report outcomes. Logs go to stderr; stdout is the protocol.',
          '',
          'Example (Claude Code): claude --mcp-config \'{"mcpServers":{"memory-transfer":{"command":"npx","args":["memory-transfer","mcp"]}}}\'',
          'See docs/mcp.md for every agent.',
        ].join('\n'),
      )
      .action((options: Record<string, unknown>) => mcp(ctx, options, VERSION));
  },
};
