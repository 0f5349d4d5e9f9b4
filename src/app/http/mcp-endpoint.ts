/**
 * POST /mcp: the MCP server (src/mcp/server.ts) over streamable HTTP, for agents outside the
 * Action's process and for `memory-transfer mcp --server` in a workflow. The same door as the
 * recall API: the run's GitHub OIDC token verified by the same verifier (oidc.ts: issuer,
 * audience, installed repository by id, no fork runs), the same visibility rules (the run's
 * repository reads with its visibility), the same budgets per token, repository and installation
 * (429 + Retry-After), a body size limit. Stateless: each request gets its own server and transport (no session to steal).
 * Votes (report_outcome) count once per run per insight, and only from runs whose actor has write
 * access to the repository: an outsider's run reads but does not vote.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { decodeJwt } from 'jose';
import { describeError } from '../../core/errors.js';
import { createPoolSource } from '../../mcp/pool-source.js';
import { createMcpServer } from '../../mcp/server.js';
import { MCP_PATH } from '../../mcp/tools.js';
import type { AppDeps } from '../deps.js';
import {
  bearer,
  classify,
  createEndpointLimiter,
  createRunVerifier,
  enforceLimits,
  HttpError,
  readJson,
  send,
  type ApiHandler,
  type ApiOptions,
} from './api.js';
import type { VerifiedRun } from './oidc.js';

/** undefined when the run may vote; otherwise why not */
export type VoteCheck = (run: VerifiedRun, actor: string | undefined) => Promise<string | undefined>;

export interface McpEndpointOptions extends ApiOptions {
  /**
   * may this run's actor vote? server.ts asks GitHub whether the actor has write access to the
   * repository (src/github/trust.ts). Without it, no run votes.
   */
  mayVote?: VoteCheck;
  /** the server's version, reported to clients */
  version?: string;
}

const refuseAll: VoteCheck = async () => 'the App cannot check who triggered the run';

function actorOf(token: string): string | undefined {
  try {
    const actor = decodeJwt(token).actor;
    return typeof actor === 'string' ? actor : undefined;
  } catch {
    return undefined;
  }
}

export function createMcpHandler(deps: AppDeps, options: McpEndpointOptions): ApiHandler {
  // the recall API's verifier: the same issuer (GHE_HOST's on Enterprise Server), audience and directory
  const verify = createRunVerifier(deps, options);
  const limit = createEndpointLimiter(deps, options);
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
    enforceLimits(limit, run, token);
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
