import { describe, expect, it } from 'vitest';
import { createCircuitBreaker } from '../../src/config/circuit-breaker.js';

function setup(failures = 3, cooldownMs = 60_000) {
  const clock = { t: 1_000 };
  const breaker = createCircuitBreaker({ failures, cooldownMs, now: () => clock.t });
  return { breaker, clock };
}

describe('circuit breaker', () => {
  it('stays closed while failures are not consecutive', () => {
    const { breaker } = setup(3);
    for (const outcome of ['fail', 'fail', 'ok', 'fail', 'fail', 'ok']) {
      expect(breaker.tryAcquire()).toBe(true);
      if (outcome === 'fail') breaker.failed();
      else breaker.succeeded();
    }
    expect(breaker.state()).toBe('closed');
  });

  it('opens after N consecutive failures and lets nothing through during the cool-down', () => {
    const { breaker, clock } = setup(3, 60_000);
    for (let i = 0; i < 3; i += 1) {
      expect(breaker.tryAcquire()).toBe(true);
      breaker.failed();
    }
    expect(breaker.state()).toBe('open');
    expect(breaker.tryAcquire()).toBe(false);
    clock.t += 59_999;
    expect(breaker.tryAcquire()).toBe(false);
  });

  it('lets one probe through after the cool-down (half-open); its success closes the circuit', () => {
    const { breaker, clock } = setup(1, 60_000);
    breaker.tryAcquire();
    breaker.failed();
    clock.t += 60_000;
    expect(breaker.state()).toBe('half-open');
    expect(breaker.tryAcquire()).toBe(true);
    // while the probe is out, nobody else goes
    expect(breaker.tryAcquire()).toBe(false);
    breaker.succeeded();
    expect(breaker.state()).toBe('closed');
    expect(breaker.tryAcquire()).toBe(true);
  });

  it('a failed probe opens the circuit for a full cool-down again', () => {
    const { breaker, clock } = setup(2, 10_000);
    for (let i = 0; i < 2; i += 1) {
      breaker.tryAcquire();
      breaker.failed();
    }
    clock.t += 10_000;
    expect(breaker.tryAcquire()).toBe(true);
    breaker.failed();
    expect(breaker.state()).toBe('open');
    clock.t += 9_999;
    expect(breaker.tryAcquire()).toBe(false);
    clock.t += 1;
    expect(breaker.tryAcquire()).toBe(true);
  });

  it('counts each kind of call on its own: answered embeddings do not keep failing completions going', () => {
    const opened: string[] = [];
    const clock = { t: 0 };
    const breaker = createCircuitBreaker({
      failures: 2,
      cooldownMs: 1_000,
      now: () => clock.t,
      onOpen: (why) => opened.push(why),
    });
    breaker.tryAcquire();
    breaker.failed('gpt-5-mini', 'chat hangs');
    breaker.tryAcquire();
    breaker.succeeded('text-embedding-3-small');
    breaker.tryAcquire();
    breaker.failed('gpt-5-mini', 'chat hangs');
    // open for every kind of call: the embeddings wait too
    expect(breaker.state()).toBe('open');
    expect(breaker.tryAcquire()).toBe(false);
    // a call that was already out fails too: still one warning
    breaker.failed('gpt-5-mini', 'chat hangs');
    expect(opened).toEqual(['chat hangs']);
    // the probe after the cool-down fails: open again, said again
    clock.t += 1_000;
    expect(breaker.tryAcquire()).toBe(true);
    breaker.failed('text-embedding-3-small', 'embeddings hang');
    expect(opened).toEqual(['chat hangs', 'embeddings hang']);
  });
});
