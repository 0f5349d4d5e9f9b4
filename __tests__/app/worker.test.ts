import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorker, PermanentJobError } from '../../src/app/worker.js';
import { silentLogger, type Clock } from '../../src/ports/index.js';
import type { Store } from '../../src/store/store.js';
import { tempPool } from './app-harness.js';

/** A clock the test moves by hand. */
function manualClock(start = Date.parse('2026-01-01T00:00:00Z')): Clock & { advance(ms: number): void } {
  let now = start;
  return { now: () => new Date(now), advance: (ms) => (now += ms) };
}

describe('the durable job worker', () => {
  let store: Store;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    ({ store, cleanup } = await tempPool());
  });
  afterEach(async () => cleanup());

  it('runs each job once, and ignores a second enqueue with the same key', async () => {
    const clock = manualClock();
    const worker = createWorker({ store, logger: silentLogger, clock });
    const seen: unknown[] = [];
    worker.register('echo', async (payload) => {
      seen.push(payload);
    });
    expect(await worker.enqueue('delivery:1', 'echo', { n: 1 })).toBe(true);
    expect(await worker.enqueue('delivery:1', 'echo', { n: 1 })).toBe(false);
    expect(await worker.drain()).toBe(1);
    expect(await worker.enqueue('delivery:1', 'echo', { n: 1 })).toBe(false);
    expect(await worker.drain()).toBe(0);
    expect(seen).toEqual([{ n: 1 }]);
    expect(await store.countJobs('done')).toBe(1);
  });

  it('retries a failing job with exponential backoff, then marks it dead after N attempts', async () => {
    const clock = manualClock();
    const worker = createWorker({ store, logger: silentLogger, clock, maxAttempts: 3, backoffMs: 1000 });
    let calls = 0;
    worker.register('flaky', async () => {
      calls += 1;
      throw new Error('GitHub 502');
    });
    await worker.enqueue('k', 'flaky', {});
    expect(await worker.drain()).toBe(1);
    // not due before the backoff has passed
    clock.advance(999);
    expect(await worker.drain()).toBe(0);
    clock.advance(1);
    expect(await worker.drain()).toBe(1);
    clock.advance(1999);
    expect(await worker.drain()).toBe(0);
    clock.advance(1);
    expect(await worker.drain()).toBe(1);
    clock.advance(60_000);
    expect(await worker.drain()).toBe(0);
    expect(calls).toBe(3);
    expect(await store.countJobs('dead')).toBe(1);
    expect(worker.backoff(1)).toBe(1000);
    expect(worker.backoff(4)).toBe(8000);
  });

  it('succeeds on a retry after a transient failure', async () => {
    const clock = manualClock();
    const worker = createWorker({ store, logger: silentLogger, clock, backoffMs: 10 });
    let calls = 0;
    worker.register('once-flaky', async () => {
      calls += 1;
      if (calls === 1) throw new Error('503');
    });
    await worker.enqueue('k', 'once-flaky', {});
    await worker.drain();
    clock.advance(10);
    await worker.drain();
    expect(calls).toBe(2);
    expect(await store.countJobs('done')).toBe(1);
  });

  it('marks a job dead at once for a permanent error or an unknown kind', async () => {
    const clock = manualClock();
    const worker = createWorker({ store, logger: silentLogger, clock });
    worker.register('bad', async () => {
      throw new PermanentJobError('payload is not valid');
    });
    await worker.enqueue('a', 'bad', {});
    await worker.enqueue('b', 'nobody-handles-this', {});
    expect(await worker.drain()).toBe(2);
    expect(await store.countJobs('dead')).toBe(2);
  });

  it('re-runs a job whose worker died mid-job once its lease expires, with the effect exactly once', async () => {
    const clock = manualClock();
    const effects = new Set<string>();
    let runs = 0;
    // the first worker claims the job and "dies": its handler never finishes
    const dying = createWorker({ store, logger: silentLogger, clock, leaseMs: 60_000, pollMs: 5 });
    let claimed!: () => void;
    const wasClaimed = new Promise<void>((resolve) => (claimed = resolve));
    dying.register('learn', async (payload) => {
      runs += 1;
      effects.add(String((payload as { fix: string }).fix));
      claimed();
      await new Promise(() => undefined);
    });
    await dying.enqueue('fix:1:pr:7:abc', 'learn', { fix: 'acme/api#7' });
    dying.start();
    await wasClaimed;
    await dying.stop(20);
    expect(await store.countJobs('pending')).toBe(1);

    // a new process: nothing to claim while the lease holds, then it runs the job to completion
    const restarted = createWorker({ store, logger: silentLogger, clock, leaseMs: 60_000 });
    restarted.register('learn', async (payload) => {
      runs += 1;
      effects.add(String((payload as { fix: string }).fix));
    });
    expect(await restarted.drain()).toBe(0);
    clock.advance(60_000);
    expect(await restarted.drain()).toBe(1);
    expect(await restarted.drain()).toBe(0);
    expect(runs).toBe(2);
    expect([...effects]).toEqual(['acme/api#7']);
    expect(await store.countJobs('done')).toBe(1);
    expect(await store.countJobs('pending')).toBe(0);
  });

  it('prunes finished jobs after the retention, keeping pending ones', async () => {
    const worker = createWorker({
      store,
      logger: silentLogger,
      clock: { now: () => new Date(Date.now() + 8 * 24 * 3600_000) },
      retainMs: 7 * 24 * 3600_000,
    });
    worker.register('ok', async () => undefined);
    await worker.enqueue('done-1', 'ok', {});
    await worker.drain();
    await store.enqueueJob({ key: 'later', kind: 'ok', payload: {}, runAfter: '2999-01-01T00:00:00Z' });
    expect(await worker.prune()).toBe(1);
    expect(await store.countJobs('done')).toBe(0);
    expect(await store.countJobs('pending')).toBe(1);
  });

  it('polls in the background and stops gracefully, finishing the running job', async () => {
    const worker = createWorker({
      store,
      logger: silentLogger,
      clock: { now: () => new Date() },
      pollMs: 5,
      concurrency: 2,
    });
    const done: number[] = [];
    worker.register('slow', async (payload) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      done.push((payload as { n: number }).n);
    });
    worker.start();
    for (let n = 0; n < 5; n += 1) await worker.enqueue(`k${n}`, 'slow', { n });
    while ((await store.countJobs('done')) < 5) await new Promise((resolve) => setTimeout(resolve, 10));
    await worker.stop();
    expect(done.sort()).toEqual([0, 1, 2, 3, 4]);
  });
});
