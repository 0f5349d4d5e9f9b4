/**
 * Request budgets of the App's HTTP door (the recall API and /mcp), in memory: fixed windows of a
 * minute per token, per repository and per installation. A run's OIDC token is cheap to get again
 * (each job gets a new one), so a budget per token alone is escaped by asking for a new token per
 * call; the repository's and the installation's budgets hold whatever the token.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../../ports/index.js';
import type { VerifiedRun } from './oidc.js';

export interface RateLimitDecision {
  allowed: boolean;
  /** seconds until the window resets (for Retry-After) */
  retryAfterSeconds: number;
}

/** A fixed-window request limit per key, in memory. */
export function createRateLimiter(limit: number, windowMs: number, clock: Clock) {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return (key: string): RateLimitDecision => {
    const now = clock.now().getTime();
    if (windows.size > 10_000) for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
    let window = windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      windows.set(key, window);
    }
    window.count += 1;
    return { allowed: window.count <= limit, retryAfterSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)) };
  };
}

/** Requests a minute per token, per repository and per installation of the App. */
export interface RunLimits {
  perToken: number;
  perRepository: number;
  perInstallation: number;
}

export const DEFAULT_RUN_LIMITS: RunLimits = { perToken: 120, perRepository: 120, perInstallation: 600 };

export type LimitScope = 'token' | 'repository' | 'installation';

export interface RunLimitDecision extends RateLimitDecision {
  /** the budget that refused the request */
  scope?: LimitScope;
}

/** Counts a verified run's request against every budget; refused when any is spent. */
export type RunLimiter = (run: VerifiedRun, token: string) => RunLimitDecision;

function tokenKey(run: VerifiedRun, token: string): string {
  return run.tokenId ? `jti:${run.tokenId}` : `sha:${createHash('sha256').update(token).digest('hex')}`;
}

export function createRunLimiter(limits: RunLimits, clock: Clock): RunLimiter {
  const budgets: [LimitScope, ReturnType<typeof createRateLimiter>, (run: VerifiedRun, token: string) => string][] = [
    ['token', createRateLimiter(limits.perToken, 60_000, clock), tokenKey],
    ['repository', createRateLimiter(limits.perRepository, 60_000, clock), (run) => String(run.repo.repoId)],
    [
      'installation',
      createRateLimiter(limits.perInstallation, 60_000, clock),
      (run) => String(run.repo.installationId),
    ],
  ];
  return (run, token) => {
    let refused: RunLimitDecision | undefined;
    for (const [scope, limit, keyOf] of budgets) {
      // every budget counts the request, so one spent budget cannot hide the others' use
      const decision = limit(keyOf(run, token));
      if (!decision.allowed && (!refused || decision.retryAfterSeconds > refused.retryAfterSeconds)) {
        refused = { ...decision, scope };
      }
    }
    return refused ?? { allowed: true, retryAfterSeconds: 0 };
  };
}
