/** A fixed-window request limit per key (a repository id), in memory. */
import type { Clock } from '../../ports/index.js';

export interface RateLimitDecision {
  allowed: boolean;
  /** seconds until the window resets (for Retry-After) */
  retryAfterSeconds: number;
}

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
