/**
 * The App's HTTP API for the Action: POST /api/v1/recall and POST /api/v1/usage. JSON in and
 * out, bodies validated with zod (400 naming the field), the run's GitHub OIDC token as the only
 * credential (oidc.ts), rate limits per token, repository and installation (429 + Retry-After),
 * a body size limit.
 * Mounted by server.ts with Probot's `server.addHandler(createApiHandler(deps, options))`.
 */
import { AGENT_TASK_KINDS } from '../../core/retrieval/task-kind.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JWTVerifyGetKey } from 'jose';
import { AuthError, InputError, NotFoundError, StoreError, UpstreamError, describeError } from '../../core/errors.js';
import {
  RECALL_PATH,
  USAGE_PATH,
  describeZodError,
  recallRequestSchema,
  usageRequestSchema,
  type RecallResponse,
  type WithheldInsights,
} from '../../core/recall-api.js';
import { toInjectedInsights } from '../../core/rendering/render-injection.js';
import type { RecallHit, Requester } from '../../core/types.js';
import { recall, taskKindFor, type RecallOptions } from '../../services/recall.js';
import { recordInjectionUsage } from '../../services/usage.js';
import { withheldInsights } from '../../services/withheld.js';
import type { AppDeps } from '../deps.js';
import {
  createOidcVerifier,
  oidcIssuerFor,
  DEFAULT_OIDC_AUDIENCE,
  pullNumberOf,
  type InstallationDirectory,
  type OidcVerifier,
  type VerifiedRun,
} from './oidc.js';
import { createGitHubInstallationDirectory, type GitHubAuth } from './installation-directory.js';
import { createRunLimiter, DEFAULT_RUN_LIMITS, type RunLimiter } from './rate-limit.js';
import { createRecallCache, recallCacheKey } from './recall-cache.js';

export interface ApiOptions {
  /** resolves a run's owner and repository ids to an installation of this App (default: over `auth`) */
  directory?: InstallationDirectory;
  /** Probot's `(id?) => app.auth(id)`: the GitHub API as the App (no id) or as an installation */
  auth?: GitHubAuth;
  /** the audience tokens must carry, exactly (default "memory-transfer"; env MEMORY_TRANSFER_AUDIENCE in server.ts) */
  audience?: string;
  /** GitHub's key set (default: fetched from GitHub and cached); tests and the bench pass a local one */
  jwks?: JWTVerifyGetKey;
  /** the run verifier to use (server.ts builds one for the recall API and /mcp); default: built from the options above */
  verify?: OidcVerifier;
  /** requests per repository per minute (default 120) */
  rateLimitPerMinute?: number;
  /** requests per token per minute (default 120) */
  tokenRateLimitPerMinute?: number;
  /** requests per installation of the App (an organization) per minute (default 600) */
  installationRateLimitPerMinute?: number;
  /** the budgets to count against (server.ts builds one for the recall API and /mcp); default: from the limits above */
  limiter?: RunLimiter;
  /** largest accepted body (default 64 KiB) */
  maxBodyBytes?: number;
  /** recent recall results kept (default 1,000; 0 turns the cache and the sharing of identical requests off) */
  recallCacheSize?: number;
}

export type ApiHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

const API_PREFIX = '/api/v1/';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

export async function readJson(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type))
    throw new HttpError(415, 'unsupported-media-type', 'send the body as application/json');
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    throw new HttpError(413, 'too-large', `the body is larger than ${maxBytes} bytes`);
  }
  const raw = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.removeAllListeners('data');
        reject(new HttpError(413, 'too-large', `the body is larger than ${maxBytes} bytes`));
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)));
    req.on('error', reject);
  });
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new HttpError(400, 'bad-input', 'body: not valid JSON');
  }
}

export function bearer(req: IncomingMessage): string {
  const header = req.headers.authorization ?? '';
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)$/i.exec(header);
  if (!match?.[1]) throw new AuthError('send the workflow\'s OIDC token as "Authorization: Bearer <token>"', 401);
  return match[1];
}

function requesterOf(run: VerifiedRun): Requester & { repo: string } {
  return { tenant: run.tenant, repo: run.repo.fullName, repoId: run.repo.repoId, visibility: run.visibility };
}

/**
 * The one door of the App's HTTP endpoints (the recall API and /mcp): the verifier of a run's
 * OIDC token, built once from the options (server.ts passes the same one to both endpoints).
 */
export function createRunVerifier(deps: AppDeps, options: ApiOptions): OidcVerifier {
  if (options.verify) return options.verify;
  const directory =
    options.directory ?? (options.auth ? createGitHubInstallationDirectory(options.auth, deps.clock) : undefined);
  if (!directory) throw new Error('the OIDC verifier needs a directory or the App auth to resolve installations');
  return createOidcVerifier({
    audience: options.audience ?? DEFAULT_OIDC_AUDIENCE,
    directory,
    ...(options.jwks ? { jwks: options.jwks } : {}),
    // Actions runs of a GitHub Enterprise Server (GHE_HOST) are signed by that server's issuer
    issuer: oidcIssuerFor(deps.settings.githubUrl),
    clock: deps.clock,
  });
}

/** The request budgets of the App's HTTP endpoints, per token, repository and installation (rate-limit.ts). */
export function createEndpointLimiter(deps: AppDeps, options: ApiOptions): RunLimiter {
  return (
    options.limiter ??
    createRunLimiter(
      {
        perToken: options.tokenRateLimitPerMinute ?? DEFAULT_RUN_LIMITS.perToken,
        perRepository: options.rateLimitPerMinute ?? DEFAULT_RUN_LIMITS.perRepository,
        perInstallation: options.installationRateLimitPerMinute ?? DEFAULT_RUN_LIMITS.perInstallation,
      },
      deps.clock,
    )
  );
}

/** Counts the run's request against its budgets: 429 with Retry-After, naming the budget, when one is spent. */
export function enforceLimits(limit: RunLimiter, run: VerifiedRun, token: string): void {
  const decision = limit(run, token);
  if (decision.allowed) return;
  const whose =
    decision.scope === 'token'
      ? 'this token'
      : decision.scope === 'installation'
        ? `the installation of ${run.repo.ownerLogin}`
        : run.repo.fullName;
  throw new HttpError(429, 'rate-limited', `too many requests for ${whose}; retry in ${decision.retryAfterSeconds} s`, {
    'retry-after': String(decision.retryAfterSeconds),
  });
}

export function createApiHandler(deps: AppDeps, options: ApiOptions): ApiHandler {
  const verify = createRunVerifier(deps, options);
  const limit = createEndpointLimiter(deps, options);
  const maxBody = options.maxBodyBytes ?? 64 * 1024;
  // identical recalls (same requester, task and options) under the same pool generation share one result
  const cacheSize = options.recallCacheSize ?? 1_000;
  const results = cacheSize > 0 ? createRecallCache<RecallResponse>({ max: cacheSize, clock: deps.clock }) : undefined;

  async function recallRoute(run: VerifiedRun, body: unknown): Promise<RecallResponse> {
    const parsed = recallRequestSchema.safeParse(body);
    if (!parsed.success) throw new InputError(describeZodError(parsed.error));
    const requester = requesterOf(run);
    const k = parsed.data.top_k ?? 3;
    const level = parsed.data.level ?? 'insight';
    const minScore = parsed.data.min_score;
    const compute = async (): Promise<RecallResponse> => {
      const options = {
        k,
        level,
        // an agent is given routines for a feature it builds too
        taskKinds: AGENT_TASK_KINDS,
        // only insights transfer; the concrete levels (raw PR text, diffs) stay in their own repository
        ...(level !== 'insight' ? { onlyRepo: requester.repo } : {}),
        ...(minScore !== undefined ? { minScore } : {}),
      };
      const hits = await recall(deps, requester, parsed.data.task, options);
      const withheld = await withheldFrom(hits, options);
      return {
        insights: toInjectedInsights(hits, requester, deps.settings.githubUrl),
        ...(withheld ? { withheld } : {}),
        task_kind: await taskKindFor(deps, parsed.data.task),
      };
    };
    // what a private repository of the organization would have been given, less what this one was:
    // a count only, so a public repository's job summary never names a private insight
    const withheldFrom = (hits: RecallHit[], options: RecallOptions): Promise<WithheldInsights | undefined> =>
      withheldInsights(requester, hits, {
        k,
        nameIds: false,
        recallAsPrivate: (wider) => recall(deps, wider, parsed.data.task, options),
      });
    const generation = results && (await deps.store.poolGeneration?.(requester.tenant));
    if (!results || generation === undefined) return compute();
    const key = recallCacheKey({
      tenant: requester.tenant,
      repoId: requester.repoId,
      repo: requester.repo,
      visibility: requester.visibility,
      task: parsed.data.task,
      k,
      level,
      minScore,
    });
    return results.get(key, generation, compute);
  }

  async function usageRoute(run: VerifiedRun, body: unknown): Promise<{ recorded: number }> {
    const parsed = usageRequestSchema.safeParse(body);
    if (!parsed.success) throw new InputError(describeZodError(parsed.error));
    if (parsed.data.run_id !== run.runId) {
      throw new AuthError("run_id: a run may only report its own usage (it differs from the token's run_id)", 403);
    }
    const pullRequest = pullNumberOf(run.ref);
    const recorded = await recordInjectionUsage(deps, {
      requester: requesterOf(run),
      runId: run.runId,
      ids: parsed.data.ids,
      ...(pullRequest !== undefined ? { pullRequest } : {}),
    });
    return { recorded };
  }

  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!url.pathname.startsWith(API_PREFIX)) return false;
    try {
      const route = url.pathname === RECALL_PATH ? recallRoute : url.pathname === USAGE_PATH ? usageRoute : undefined;
      if (!route) throw new HttpError(404, 'not-found', `no such endpoint: ${url.pathname}`);
      if (req.method !== 'POST') throw new HttpError(405, 'method-not-allowed', 'use POST', { allow: 'POST' });
      const token = bearer(req);
      const run = await verify(token);
      enforceLimits(limit, run, token);
      const body = await readJson(req, maxBody);
      send(res, 200, await route(run, body));
    } catch (error) {
      req.resume();
      const [status, code, headers] = classify(error);
      if (status >= 500) deps.logger.error('api request failed', { path: url.pathname, error: describeError(error) });
      send(
        res,
        status,
        { error: { code, message: status === 500 ? 'internal error' : describeError(error) } },
        headers,
      );
    }
    return true;
  };
}

export function classify(error: unknown): [number, string, Record<string, string>] {
  if (error instanceof HttpError) return [error.status, error.code, error.headers];
  if (error instanceof AuthError)
    return [error.status, error.code, error.status === 401 ? { 'www-authenticate': 'Bearer' } : {}];
  if (error instanceof InputError) return [400, error.code, {}];
  if (error instanceof NotFoundError) return [404, error.code, {}];
  if (error instanceof UpstreamError) return [503, error.code, { 'retry-after': '30' }];
  if (error instanceof StoreError && error.code === 'locked') return [503, 'busy', { 'retry-after': '5' }];
  return [500, 'internal', {}];
}
