/**
 * A circuit breaker for calls to the model: after `failures` consecutive failed calls the circuit
 * opens and no call goes out for `cooldownMs` (the caller uses the rules meanwhile); then one probe
 * call is let through (half-open): its success closes the circuit, its failure opens it again for
 * another cool-down. Pure logic over an injected clock; no timers.
 */

export type CircuitState = 'closed' | 'open' | 'half-open';

export interface CircuitBreakerOptions {
  /** consecutive failures that open the circuit (at least 1) */
  failures: number;
  /** milliseconds the circuit stays open before a probe */
  cooldownMs: number;
  /** milliseconds since any epoch (Date.now in production, a fake clock in tests) */
  now: () => number;
}

export interface CircuitBreaker {
  /**
   * Whether a call may go out now. In the half-open state only one caller gets true (the probe);
   * the others get false until the probe reports.
   */
  tryAcquire(): boolean;
  /** the call that was let through succeeded */
  succeeded(): void;
  /** the call that was let through failed */
  failed(): void;
  state(): CircuitState;
}

export function createCircuitBreaker(options: CircuitBreakerOptions): CircuitBreaker {
  const threshold = Math.max(1, options.failures);
  let consecutive = 0;
  let openedAt: number | undefined;
  let probing = false;

  const state = (): CircuitState => {
    if (openedAt === undefined) return 'closed';
    return options.now() - openedAt >= options.cooldownMs ? 'half-open' : 'open';
  };

  return {
    tryAcquire() {
      const current = state();
      if (current === 'closed') return true;
      if (current === 'open' || probing) return false;
      probing = true;
      return true;
    },
    succeeded() {
      consecutive = 0;
      openedAt = undefined;
      probing = false;
    },
    failed() {
      consecutive += 1;
      // a failed probe, or the threshold reached: (re)open for a full cool-down
      if (probing || consecutive >= threshold) openedAt = options.now();
      probing = false;
    },
    state,
  };
}
