/**
 * A circuit breaker for calls to a model endpoint: after `failures` consecutive failed calls of
 * one kind (a chat model, an embedding model) the circuit opens and no call of any kind goes out
 * for `cooldownMs` (the rules learn meanwhile, and insights are stored without vectors); then one
 * probe call is let through (half-open): its success closes the circuit, its failure opens it
 * again for another cool-down. One breaker serves an endpoint's completions and embeddings alike
 * (createEndpointBreaker), so a hanging endpoint costs a few timeouts, not two per fix. Pure logic
 * over an injected clock; no timers.
 */
import type { Logger } from '../ports/index.js';

export type CircuitState = 'closed' | 'open' | 'half-open';

export interface CircuitBreakerOptions {
  /** consecutive failures (of one kind of call) that open the circuit (at least 1) */
  failures: number;
  /** milliseconds the circuit stays open before a probe */
  cooldownMs: number;
  /** milliseconds since any epoch (Date.now in production, a fake clock in tests) */
  now: () => number;
  /** told once each time the circuit opens, with what failed */
  onOpen?: (why: string) => void;
}

export interface CircuitBreaker {
  /**
   * Whether a call may go out now. In the half-open state only one caller gets true (the probe);
   * the others get false until the probe reports.
   */
  tryAcquire(): boolean;
  /** the call that was let through succeeded; `call` names its kind (e.g. the model) */
  succeeded(call?: string): void;
  /** the call that was let through failed; `why` is passed to onOpen if this opens the circuit */
  failed(call?: string, why?: string): void;
  state(): CircuitState;
}

export function createCircuitBreaker(options: CircuitBreakerOptions): CircuitBreaker {
  const threshold = Math.max(1, options.failures);
  // consecutive failures per kind of call: an endpoint whose embeddings answer while its chat
  // completions hang still opens the circuit
  const consecutive = new Map<string, number>();
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
    succeeded(call = 'call') {
      if (openedAt !== undefined) consecutive.clear();
      else consecutive.delete(call);
      openedAt = undefined;
      probing = false;
    },
    failed(call = 'call', why = `calls keep failing`) {
      const count = (consecutive.get(call) ?? 0) + 1;
      consecutive.set(call, count);
      // a failed probe, or the threshold reached: (re)open for a full cool-down
      if (probing || count >= threshold) {
        const wasOpen = state() === 'open';
        openedAt = options.now();
        if (!wasOpen) options.onOpen?.(why);
      }
      probing = false;
    },
    state,
  };
}

/**
 * The breaker of one model endpoint, shared by its abstractor and its embedder; a warn line when
 * it opens says what failed and what happens meanwhile.
 */
export function createEndpointBreaker(
  config: { breakerFailures: number; breakerCooldownMs: number },
  logger: Logger,
  now: () => number = Date.now,
): CircuitBreaker {
  return createCircuitBreaker({
    failures: config.breakerFailures,
    cooldownMs: config.breakerCooldownMs,
    now,
    onOpen: (why) =>
      logger.warn(
        `${why}: circuit breaker open for ${Math.round(config.breakerCooldownMs / 1000)} s; the rules learn the ` +
          'next fixes and their insights are stored without vectors until a probe call succeeds ' +
          '(`memory-transfer reembed` or the next learn run fills the vectors in)',
      ),
  });
}
