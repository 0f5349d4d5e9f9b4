/**
 * The MCP server over stdio, as `memory-transfer mcp` and the Action's own bundled server
 * (dist/action/memory-transfer-mcp.js) run it: stdout is the protocol, logs go to stderr. What both
 * share: the sources that need no database (a pool file, the App), the repository a server answers
 * for, and serving until the client closes stdin (or SIGINT/SIGTERM).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { InputError, describeError } from '../core/errors.js';
import { tenantOf } from '../core/ids.js';
import { MemoryIndex } from '../core/retrieval/memory-index.js';
import { parsePoolBytes } from '../core/retrieval/pool-file.js';
import type { Visibility } from '../core/types.js';
import { DEFAULT_REPO_VISIBILITY } from '../core/visibility.js';
import { DEFAULT_ALLOWED_HOSTS } from '../security/screen.js';
import { screenPoolMemory } from '../services/pool-screen.js';
import { systemClock, type Logger } from '../ports/index.js';
import type { InsightSource } from './insight-source.js';
import { createPoolSource, type BoundRepository } from './pool-source.js';
import { createRemoteSource } from './remote-source.js';
import { createMcpServer } from './server.js';
import type { WorkflowRun } from './workflow-run.js';

/** Where a workflow's OIDC token may be given by hand (outside the job's own token request). */
export const TOKEN_ENV = 'MEMORY_TRANSFER_OIDC_TOKEN';

type Env = Record<string, string | undefined>;

/** GITHUB_SERVER_URL (an Actions job on GitHub Enterprise), else github.com: the only host links may point to */
export function githubUrlOf(env: Env): string {
  const given = env.GITHUB_SERVER_URL?.trim();
  return given && URL.canParse(given) ? given : 'https://github.com';
}

/** The job's event payload ({} outside a job; undefined when it cannot be read). */
export async function readEventPayload(env: Env): Promise<unknown> {
  if (!env.GITHUB_EVENT_PATH) return {};
  try {
    return JSON.parse(await readFile(env.GITHUB_EVENT_PATH, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The repository a server answers for, and the visibility it reads with: `--visibility`, else for
 * the job's own repository the visibility its event says (public when it does not say, as the
 * Action), else for a repository named by hand DEFAULT_REPO_VISIBILITY (as `recall --repo`).
 * Undefined outside a job without `--repo`: a local admin's server.
 */
export function boundRepository(
  given: { repo?: string | undefined; visibility?: Visibility | undefined },
  run: WorkflowRun,
): BoundRepository | undefined {
  const repo = given.repo ?? run.repository;
  if (!repo) return undefined;
  const sameAsRun = run.repository !== undefined && run.repository.toLowerCase() === repo.toLowerCase();
  const visibility: Visibility =
    given.visibility ?? (sameAsRun ? (run.visibility ?? 'public') : DEFAULT_REPO_VISIBILITY);
  return { repo, visibility };
}

/**
 * A pool file made by `memory-transfer export` (plain or gzip-compressed, read by the one pool-file
 * reader), read-only. Refuses a file of another organization than `tenant` (the one asked for, or
 * the bound repository's owner).
 */
export async function poolFileSource(options: {
  file: string;
  cwd: string;
  /** the tenant asked for (--tenant); default: the bound repository's owner */
  tenant?: string | undefined;
  bound: BoundRepository | undefined;
  unboundVisibility?: Visibility | undefined;
  logger: Logger;
  githubUrl: string;
}): Promise<InsightSource> {
  const { file, bound, logger, githubUrl } = options;
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path.resolve(options.cwd, file));
  } catch (error) {
    throw new InputError(
      `--pool: cannot read "${file}" (${describeError(error)}); give the path of a pool file made by \`memory-transfer export\``,
    );
  }
  let parsed: ReturnType<typeof parsePoolBytes>;
  try {
    parsed = parsePoolBytes(bytes);
  } catch (error) {
    throw new InputError(`--pool: "${file}" is not a valid Memory Transfer export: ${describeError(error)}`);
  }
  const tenant = parsed.header.tenant.toLowerCase();
  const asked = options.tenant?.trim().toLowerCase() ?? (bound ? tenantOf(bound.repo) : undefined);
  if (asked !== undefined && asked !== tenant) {
    throw new InputError(
      `--pool: "${file}" is the pool of "${tenant}", but this server answers for "${asked}": insights never cross organizations (export it with --for-org ${asked})`,
    );
  }
  const memories = parsed.memories.filter((m) => m.status === 'active');
  const allowedHosts = [...DEFAULT_ALLOWED_HOSTS, new URL(githubUrl).hostname];
  const verdicts = new Map<string, boolean>();
  return createPoolSource({
    label: `the pool file ${file}`,
    recallDeps: { store: new MemoryIndex(memories), logger, clock: systemClock },
    tenant,
    ...(bound ? { bound } : {}),
    ...(options.unboundVisibility ? { unboundVisibility: options.unboundVisibility } : {}),
    githubUrl,
    list: async () => memories,
    screen: (memory) => {
      let ok = verdicts.get(memory.id);
      if (ok === undefined) {
        ok = screenPoolMemory(memory, { allowedHosts }).ok;
        verdicts.set(memory.id, ok);
        if (!ok) logger.warn(`mcp: memory ${memory.id} in the pool file fails the insight screen; it is never served`);
      }
      return ok;
    },
  });
}

/** The App's /mcp endpoint, with the workflow's OIDC token (or $MEMORY_TRANSFER_OIDC_TOKEN). */
export function appSource(options: {
  serverUrl: string;
  audience: string;
  version: string;
  env: Env;
  getIdToken: (audience: string) => Promise<string>;
}): InsightSource & { close(): Promise<void> } {
  const { env, audience } = options;
  return createRemoteSource({
    serverUrl: options.serverUrl,
    version: options.version,
    getToken: async () => {
      const given = env[TOKEN_ENV]?.trim();
      if (given) return given;
      if (!env.ACTIONS_ID_TOKEN_REQUEST_URL) {
        throw new InputError(
          `--server needs the workflow's OIDC token: give the job "permissions: id-token: write" (or set ${TOKEN_ENV})`,
        );
      }
      return options.getIdToken(audience);
    },
  });
}

/** Serves the App's /mcp endpoint over stdio (the run's OIDC token from @actions/core), then closes it. */
export async function serveApp(
  options: { serverUrl: string; audience: string; version: string; env: Env },
  serving: { logger: Logger; version: string; githubUrl: string },
): Promise<void> {
  const source = appSource({
    ...options,
    getIdToken: async (audience) => (await import('@actions/core')).getIDToken(audience),
  });
  try {
    await serveStdio(source, serving);
  } finally {
    await source.close();
  }
}

/** Serves the source over stdio until the client closes stdin, or SIGINT/SIGTERM. */
export async function serveStdio(
  source: InsightSource,
  options: { logger: Logger; version: string; githubUrl: string },
): Promise<void> {
  const server = createMcpServer(source, {
    logger: options.logger,
    version: options.version,
    githubUrl: options.githubUrl,
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
  options.logger.info(`mcp: serving ${source.label} over stdio`);
  await closed;
  await server.close().catch(() => undefined);
}
