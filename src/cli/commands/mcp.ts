/**
 * mcp: an MCP server over stdio (stdout is the protocol; logs go to stderr) that lets an agent
 * recall insights mid-run, show one, and report what helped (docs/mcp.md). Its insights come from
 * the pool (--db/--tenant), a pool file (--pool, read-only) or the App (--server, with the run's
 * OIDC token). Runs until the client closes stdin, or SIGINT/SIGTERM.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Option, type Command } from 'commander';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { InputError, describeError } from '../../core/errors.js';
import { tenantOf } from '../../core/ids.js';
import { VERSION } from '../../core/version.js';
import { MemoryIndex } from '../../core/memory-index.js';
import { parsePool } from '../../core/pool-file.js';
import type { Visibility } from '../../core/types.js';
import type { InsightSource } from '../../mcp/insight-source.js';
import { createPoolSource, type BoundRepository } from '../../mcp/pool-source.js';
import { createRemoteSource } from '../../mcp/remote-source.js';
import { createMcpServer } from '../../mcp/server.js';
import { workflowRunOf, type WorkflowRun } from '../../mcp/workflow-run.js';
import { DEFAULT_ALLOWED_HOSTS } from '../../security/screen.js';
import { screenPoolMemory } from '../../services/pool-screen.js';
import { systemClock } from '../../ports/index.js';
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

const TOKEN_ENV = 'MEMORY_TRANSFER_OIDC_TOKEN';

/** GITHUB_SERVER_URL (an Actions job on GitHub Enterprise), else github.com: the only host links may point to */
function githubUrlOf(env: Record<string, string | undefined>): string {
  const given = env.GITHUB_SERVER_URL?.trim();
  return given && URL.canParse(given) ? given : 'https://github.com';
}

async function readEventPayload(env: Record<string, string | undefined>): Promise<unknown> {
  if (!env.GITHUB_EVENT_PATH) return {};
  try {
    return JSON.parse(await readFile(env.GITHUB_EVENT_PATH, 'utf8'));
  } catch {
    return undefined;
  }
}

/** --repo/--visibility, else the job's repository and the visibility its event says (public when unknown). */
function boundRepository(opts: McpFlags, run: WorkflowRun): BoundRepository | undefined {
  const repo = opts.repo ?? run.repository;
  if (!repo) return undefined;
  const sameAsRun = run.repository !== undefined && run.repository.toLowerCase() === repo.toLowerCase();
  const visibility: Visibility = opts.visibility ?? (sameAsRun ? run.visibility : undefined) ?? 'public';
  return { repo, visibility };
}

async function serveOver(ctx: CliContext, source: InsightSource, version: string): Promise<void> {
  const server = createMcpServer(source, {
    logger: ctx.logger,
    version,
    githubUrl: githubUrlOf(ctx.io.env),
    exposeUnexpected: true,
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    const stop = () => {
      process.stdin.off('end', stop);
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    transport.onclose = stop;
    process.stdin.on('end', stop);
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await server.connect(transport);
  ctx.logger.info(`mcp: serving ${source.label} over stdio`);
  await closed;
  await server.close().catch(() => undefined);
}

async function poolFileSource(ctx: CliContext, opts: McpFlags, file: string, bound: BoundRepository | undefined) {
  const location = path.resolve(ctx.io.cwd, file);
  let text: string;
  try {
    text = await readFile(location, 'utf8');
  } catch (error) {
    throw new InputError(
      `--pool: cannot read "${file}" (${describeError(error)}); give the path of a pool file made by \`memory-transfer export\``,
    );
  }
  let parsed: ReturnType<typeof parsePool>;
  try {
    parsed = parsePool(text);
  } catch (error) {
    throw new InputError(`--pool: "${file}" is not a valid Memory Transfer export: ${describeError(error)}`);
  }
  const tenant = parsed.header.tenant.toLowerCase();
  const asked = ctx.globals.tenant?.trim().toLowerCase() ?? (bound ? tenantOf(bound.repo) : undefined);
  if (asked !== undefined && asked !== tenant) {
    throw new InputError(
      `--pool: "${file}" is the pool of "${tenant}", but this server answers for "${asked}": insights never cross organizations`,
    );
  }
  const memories = parsed.memories.filter((m) => m.status === 'active');
  const githubUrl = githubUrlOf(ctx.io.env);
  const allowedHosts = [...DEFAULT_ALLOWED_HOSTS, new URL(githubUrl).hostname];
  const verdicts = new Map<string, boolean>();
  return createPoolSource({
    label: `the pool file ${file}`,
    recallDeps: { store: new MemoryIndex(memories), logger: ctx.logger, clock: systemClock },
    tenant,
    ...(bound ? { bound } : {}),
    ...(opts.visibility ? { unboundVisibility: opts.visibility } : {}),
    githubUrl,
    list: async () => memories,
    screen: (memory) => {
      let ok = verdicts.get(memory.id);
      if (ok === undefined) {
        const verdict = screenPoolMemory(memory, { allowedHosts });
        ok = verdict.ok;
        verdicts.set(memory.id, ok);
        if (!ok)
          ctx.logger.warn(`mcp: memory ${memory.id} in the pool file fails the insight screen; it is never served`);
      }
      return ok;
    },
  });
}

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
  const run = workflowRunOf(ctx.io.env, await readEventPayload(ctx.io.env));
  const bound = boundRepository(opts, run);
  if (opts.server !== undefined) {
    const env = ctx.io.env;
    const audience = opts.audience;
    const source = createRemoteSource({
      serverUrl: opts.server,
      version,
      getToken: async () => {
        const given = env[TOKEN_ENV]?.trim();
        if (given) return given;
        if (!env.ACTIONS_ID_TOKEN_REQUEST_URL) {
          throw new InputError(
            `--server needs the workflow's OIDC token: give the job "permissions: id-token: write" (or set ${TOKEN_ENV})`,
          );
        }
        return (await import('@actions/core')).getIDToken(audience);
      },
    });
    try {
      await serveOver(ctx, source, version);
    } finally {
      await source.close();
    }
    return;
  }
  if (opts.pool !== undefined) {
    await serveOver(ctx, await poolFileSource(ctx, opts, opts.pool, bound), version);
    return;
  }
  const store = await openStore(ctx.poolLocation, ctx.logger);
  try {
    const tenant = await ctx.tenant(store, bound?.repo);
    await serveOver(ctx, await storeSource(ctx, opts, store, tenant, bound, run), version);
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
          "the visibility of --repo (default: the event's repository visibility in Actions, else public; without a repo, that of a repo argument, default private)",
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
