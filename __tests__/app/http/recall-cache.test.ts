import { describe, expect, it } from 'vitest';
import { createRecallCache, recallCacheKey } from '../../../src/app/http/recall-cache.js';

function manualClock(start = 0) {
  let now = start;
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

const deferred = <T>() => {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

describe('recall result cache', () => {
  it('identical concurrent recalls share one computation', async () => {
    const cache = createRecallCache<string>({ clock: manualClock() });
    const pending = deferred<string>();
    let computed = 0;
    const compute = () => {
      computed += 1;
      return pending.promise;
    };
    const answers = Promise.all(Array.from({ length: 20 }, () => cache.get('k', 'g1', compute)));
    pending.resolve('result');
    expect(await answers).toEqual(Array(20).fill('result'));
    expect(computed).toBe(1);
    expect(await cache.get('k', 'g1', async () => 'other')).toBe('result');
  });

  it('recomputes when the pool generation changed, or the entry is too old', async () => {
    const clock = manualClock();
    const cache = createRecallCache<string>({ clock, ttlMs: 1_000 });
    expect(await cache.get('k', 'g1', async () => 'before')).toBe('before');
    expect(await cache.get('k', 'g2', async () => 'after a write')).toBe('after a write');
    expect(await cache.get('k', 'g2', async () => 'unused')).toBe('after a write');
    clock.advance(1_000);
    expect(await cache.get('k', 'g2', async () => 'expired')).toBe('expired');
  });

  it('does not keep a failure', async () => {
    const cache = createRecallCache<string>({ clock: manualClock() });
    await expect(cache.get('k', 'g', async () => Promise.reject(new Error('store down')))).rejects.toThrow(
      'store down',
    );
    expect(await cache.get('k', 'g', async () => 'recovered')).toBe('recovered');
  });

  it('keeps at most `max` entries, dropping the least recently used', async () => {
    const cache = createRecallCache<string>({ clock: manualClock(), max: 2 });
    await cache.get('a', 'g', async () => 'a1');
    await cache.get('b', 'g', async () => 'b1');
    await cache.get('a', 'g', async () => 'a2'); // a used again: b is now the oldest
    await cache.get('c', 'g', async () => 'c1');
    expect(cache.size).toBe(2);
    expect(await cache.get('a', 'g', async () => 'a3')).toBe('a1');
    expect(await cache.get('b', 'g', async () => 'b2')).toBe('b2');
  });

  it('keys on every input: requester, visibility, task and options', () => {
    const base = {
      tenant: 'acme',
      repoId: 1,
      repo: 'acme/web',
      visibility: 'public',
      task: 't',
      k: 3,
      level: 'insight',
      minScore: undefined,
    };
    const variants = [
      base,
      { ...base, tenant: 'globex' },
      { ...base, repoId: 2 },
      { ...base, repo: 'acme/core' },
      { ...base, visibility: 'private' },
      { ...base, task: 't ' },
      { ...base, k: 4 },
      { ...base, level: 'workflow' },
      { ...base, minScore: 0 },
      // a separator inside a value cannot make two different inputs collide
      { ...base, tenant: 'acme","x', repo: 'web' },
    ];
    expect(new Set(variants.map(recallCacheKey)).size).toBe(variants.length);
  });
});
