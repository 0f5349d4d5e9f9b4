/**
 * POST /mcp: the MCP server (src/mcp/server.ts) over streamable HTTP, for agents outside the
 * Action's process and for `memory-transfer mcp --server` in a workflow. The same door as the
 * recall API: the run's GitHub OIDC token verified by the same verifier (oidc.ts: issuer,
 * audience, installed repository by id, no fork runs), the same visibility rules (the run's
 * repository reads with its visibility), a rate limit per token (429 + Retry-After), a body size
 * limit. Stateless: each request gets its own server and transport (no session to steal).
 * Votes (report_outcome) count once per run per insight, and only from runs whose actor has write
 * access to the repository: an outsider's run reads but does not vote.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { decodeJwt } from 'jose';
import { describeError } from '../../core/errors.js';
import { createPoolSource } from '../../mcp/pool-source.js';
import { createMcpServer } from '../../mcp/server.js';
import { MCP_PATH } from '../../mcp/tools.js';
import type { AppDeps } from '../deps.js';
import { bearer, classify, HttpError, readJson, send, type ApiHandler, type ApiOptions } from './api.js';
import { createGitHubInstallationDirectory } from './installation-directory.js';
import { createOidcVerifier, DEFAULT_OIDC_AUDIENCE, type VerifiedRun } from './oidc.js';
import { createRateLimiter } from './rate-limit.js';

/** undefined when the run may vote; otherwise why not */
export type VoteCheck = (run: VerifiedRun, actor: string | undefined) => Promise<string | undefined>;

export interface McpEndpointOptions extends ApiOptions {
  /**
   * may this run's actor vote? server.ts asks GitHub whether the actor has write access to the
   * repository (src/github/trust.ts). Without it, no run votes.
   */
  mayVote?: VoteCheck;
  /** requests per token per minute (default 120) */
  mcpRateLimitPerMinute?: number;
  /** the server's version, reported to clients */
  version?: string;
}

const refuseAll: VoteCheck = async () => 'the App cannot check who triggered the run';

function tokenKey(run: VerifiedRun, token: string): string {
  return run.tokenId ? `jti:${run.tokenId}` : `sha:${createHash('sha256').update(token).digest('hex')}`;
}

function actorOf(token: string): string | undefined {
  try {
    const actor = decodeJwt(token).actor;
    return typeof actor === 'string' ? actor : undefined;
  } catch {
    return undefined;
  }
}

export function createMcpHandler(deps: AppDeps, options: McpEndpointOptions): ApiHandler {
  const directory =
    options.directory ?? (options.auth ? createGitHubInstallationDirectory(options.auth, deps.clock) : undefined);
  if (!directory) throw new Error('createMcpHandler needs a directory or the App auth to resolve installations');
  const verify = createOidcVerifier({
    audience: options.audience ?? DEFAULT_OIDC_AUDIENCE,
    directory,
    ...(options.jwks ? { jwks: options.jwks } : {}),
    clock: deps.clock,
  });
  const limit = createRateLimiter(options.mcpRateLimitPerMinute ?? 120, 60_000, deps.clock);
  const maxBody = options.maxBodyBytes ?? 64 * 1024;
  const mayVote = options.mayVote ?? refuseAll;

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') {
      throw new HttpError(405, 'method-not-allowed', 'use POST (this endpoint is stateless: no stream, no session)', {
        allow: 'POST',
      });
    }
    const token = bearer(req);
    const run = await verify(token);
    const decision = limit(tokenKey(run, token));
    if (!decision.allowed) {
      throw new HttpError(
        429,
        'rate-limited',
        `too many requests for this token; retry in ${decision.retryAfterSeconds} s`,
        {
          'retry-after': String(decision.retryAfterSeconds),
        },
      );
    }
    const body = await readJson(req, maxBody);
    const actor = actorOf(token);
    const source = createPoolSource({
      label: `the pool of ${run.tenant} for ${run.repo.fullName}`,
      recallDeps: deps,
      tenant: run.tenant,
      bound: { repo: run.repo.fullName, repoId: run.repo.repoId, visibility: run.visibility },
      githubUrl: deps.settings.githubUrl,
      list: () => deps.store.listMemories(run.tenant, { status: ['active'], level: ['insight'], limit: 5_000 }),
      voting: { deps, runId: run.runId, mayVote: () => mayVote(run, actor) },
      // a repository is told how many were withheld, never which (as the recall API)
      nameWithheld: false,
    });
    const server = createMcpServer(source, {
      logger: deps.logger,
      version: options.version ?? '0.0.0',
      githubUrl: deps.settings.githubUrl,
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== MCP_PATH) return false;
    try {
      await answer(req, res);
    } catch (error) {
      req.resume();
      const [status, code, headers] = classify(error);
      if (status >= 500) deps.logger.error('mcp request failed', { error: describeError(error) });
      if (!res.headersSent) {
        send(
          res,
          status,
          { error: { code, message: status === 500 ? 'internal error' : describeError(error) } },
          headers,
        );
      } else res.end();
    }
    return true;
  };
}
