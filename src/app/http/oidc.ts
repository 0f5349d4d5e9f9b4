/**
 * Verifies a GitHub Actions OIDC token (the Action's `core.getIDToken(audience)`) and resolves
 * the run to an installed repository of this App, by id only.
 *
 * Rules (docs/action.md, "How the App trusts a run"):
 * - signature against GitHub's JWKS (RS256 only, keys cached by jose), issuer exact, expiry enforced;
 * - `aud` is exactly one value, equal to the App's configured audience;
 * - `repository_owner_id` and `repository_id` must be an installed repository of this App: the
 *   names in the token are never trusted, the tenant and repository names come from GitHub's
 *   installation data for those ids;
 * - `pull_request_target` and `workflow_run` runs are refused (they run with the base
 *   repository's privileges on behalf of code or events from forks);
 * - `pull_request*` runs are refused when the pull request's head repository is not the
 *   repository itself (a fork), asked of GitHub by id.
 */
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';
import { AuthError, UpstreamError } from '../../core/errors.js';
import type { Visibility } from '../../core/types.js';
import { flowsTo } from '../../core/visibility.js';
import type { Clock } from '../../ports/index.js';

export const GITHUB_OIDC_ISSUER = 'https://token.actions.githubusercontent.com';
export const GITHUB_OIDC_JWKS_URL = `${GITHUB_OIDC_ISSUER}/.well-known/jwks`;
export const DEFAULT_OIDC_AUDIENCE = 'memory-transfer';
/** events whose runs act with the base repository's privileges for fork content */
export const REFUSED_EVENTS = new Set(['pull_request_target', 'workflow_run']);
const PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_review', 'pull_request_review_comment']);

/** A repository of an installation of this App, as GitHub describes it now. */
export interface InstalledRepository {
  installationId: number;
  ownerId: number;
  /** the account's login as GitHub has it now */
  ownerLogin: string;
  repoId: number;
  /** owner/name as GitHub has it now */
  fullName: string;
  visibility: Visibility;
}

/** Looks up installations by id (never by name). Implemented over the GitHub API (installation-directory.ts). */
export interface InstallationDirectory {
  /** the installed repository with these ids, or undefined when this App is not installed there */
  findRepository(ownerId: number, repoId: number): Promise<InstalledRepository | undefined>;
  /** the id of the pull request's head repository (undefined when it is gone) */
  pullRequestHeadRepoId(repo: InstalledRepository, pullNumber: number): Promise<number | undefined>;
}

/** A run the App trusts: who asked, resolved by id. */
export interface VerifiedRun {
  tenant: string;
  repo: InstalledRepository;
  /** the reader's visibility: the more public of GitHub's repository data and the signed claim */
  visibility: Visibility;
  runId: string;
  runAttempt?: number;
  eventName: string;
  /** the token's `ref` (refs/pull/N/merge for a pull request run) */
  ref?: string;
  /** the token's `jti`, for logs */
  tokenId?: string;
}

const numericId = z
  .string()
  .regex(/^\d{1,20}$/)
  .transform(Number);
const claimsSchema = z.looseObject({
  aud: z.union([z.string(), z.array(z.string())]),
  repository_id: numericId,
  repository_owner_id: numericId,
  repository_visibility: z.enum(['public', 'private', 'internal']).optional(),
  event_name: z.string().min(1),
  run_id: z.string().regex(/^\d{1,20}$/),
  run_attempt: z
    .string()
    .regex(/^\d{1,6}$/)
    .optional(),
  ref: z.string().optional(),
  jti: z.string().optional(),
});

export interface OidcVerifierOptions {
  /** the App's configured audience; tokens must carry exactly this one */
  audience: string;
  directory: InstallationDirectory;
  /** the issuer's key set; default: fetched from `<issuer>/.well-known/jwks` and cached */
  jwks?: JWTVerifyGetKey;
  /** the exact issuer tokens must carry; default github.com's (oidcIssuerFor gives a GHES host's) */
  issuer?: string;
  clock?: Clock;
}

export type OidcVerifier = (token: string) => Promise<VerifiedRun>;

/**
 * The issuer of Actions OIDC tokens on the GitHub the App talks to (settings.githubUrl): github.com's
 * token service, or a GitHub Enterprise Server's own, `https://HOST/_services/token` (GHE_HOST).
 */
export function oidcIssuerFor(githubUrl: string): string {
  const url = new URL(githubUrl);
  return url.hostname === 'github.com' ? GITHUB_OIDC_ISSUER : `${url.origin}/_services/token`;
}

const sharedJwks = new Map<string, JWTVerifyGetKey>();
/**
 * One cached remote key set per issuer and process, read from the issuer's
 * `/.well-known/jwks` (jose refreshes it when an unknown kid shows up).
 */
export function githubJwks(issuer = GITHUB_OIDC_ISSUER): JWTVerifyGetKey {
  let jwks = sharedJwks.get(issuer);
  if (!jwks) {
    jwks = createRemoteJWKSet(
      new URL(issuer === GITHUB_OIDC_ISSUER ? GITHUB_OIDC_JWKS_URL : `${issuer}/.well-known/jwks`),
      {
        cacheMaxAge: 60 * 60_000,
        timeoutDuration: 5_000,
      },
    );
    sharedJwks.set(issuer, jwks);
  }
  return jwks;
}

function refuse(message: string): never {
  throw new AuthError(message, 403);
}

/** The pull request number of a `refs/pull/N/merge` (or `/head`) ref. */
export function pullNumberOf(ref: string | undefined): number | undefined {
  const match = /^refs\/pull\/(\d+)\/(merge|head)$/.exec(ref ?? '');
  return match ? Number(match[1]) : undefined;
}

export function createOidcVerifier(options: OidcVerifierOptions): OidcVerifier {
  const issuer = options.issuer ?? GITHUB_OIDC_ISSUER;
  return async (token) => {
    if (options.audience.trim() === '') throw new AuthError('the App has no OIDC audience configured', 401);
    let payload: unknown;
    try {
      ({ payload } = await jwtVerify(token, options.jwks ?? githubJwks(issuer), {
        issuer,
        audience: options.audience,
        algorithms: ['RS256'],
        requiredClaims: ['exp', 'iat', 'aud', 'iss'],
        clockTolerance: 30,
        ...(options.clock ? { currentDate: options.clock.now() } : {}),
      }));
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw new AuthError('the OIDC token has expired', 401);
      if (error instanceof joseErrors.JWTClaimValidationFailed) {
        throw new AuthError(`the OIDC token's "${error.claim}" claim is not accepted (${error.reason})`, 401);
      }
      if (error instanceof joseErrors.JWKSTimeout || !(error instanceof joseErrors.JOSEError)) {
        throw new UpstreamError("GitHub's OIDC key set could not be fetched; try again", true);
      }
      throw new AuthError('the OIDC token could not be verified (bad signature, unknown key or malformed token)', 401);
    }
    const parsed = claimsSchema.safeParse(payload);
    if (!parsed.success) {
      const field = parsed.error.issues[0]?.path.join('.') ?? 'claims';
      throw new AuthError(`the OIDC token lacks a valid "${field}" claim: is it a GitHub Actions token?`, 401);
    }
    const claims = parsed.data;
    if (Array.isArray(claims.aud) && claims.aud.length !== 1) {
      throw new AuthError('the OIDC token must carry exactly one audience', 401);
    }
    if (REFUSED_EVENTS.has(claims.event_name)) {
      refuse(
        `runs triggered by "${claims.event_name}" are refused: they act for forks with this repository's privileges`,
      );
    }
    const repo = await options.directory.findRepository(claims.repository_owner_id, claims.repository_id);
    if (!repo || repo.ownerId !== claims.repository_owner_id || repo.repoId !== claims.repository_id) {
      refuse('this App is not installed on the repository of this run');
    }
    if (PULL_REQUEST_EVENTS.has(claims.event_name)) {
      const number = pullNumberOf(claims.ref);
      if (number === undefined) refuse(`a "${claims.event_name}" run without a pull request ref is refused`);
      const head = await options.directory.pullRequestHeadRepoId(repo, number);
      if (head !== repo.repoId) refuse('runs for pull requests from forks are refused');
    }
    const claimed = claims.repository_visibility;
    const visibility = claimed && !flowsTo(repo.visibility, claimed) ? claimed : repo.visibility;
    return {
      tenant: repo.ownerLogin.toLowerCase(),
      repo,
      visibility,
      runId: claims.run_id,
      ...(claims.run_attempt ? { runAttempt: Number(claims.run_attempt) } : {}),
      eventName: claims.event_name,
      ...(claims.ref ? { ref: claims.ref } : {}),
      ...(claims.jti ? { tokenId: claims.jti } : {}),
    };
  };
}
