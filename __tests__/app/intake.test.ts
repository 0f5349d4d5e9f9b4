import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { actionOf, createGroupCommit, type EnqueueRequest, signatureMatches } from '../../src/app/intake.js';

const job = (key: string): EnqueueRequest => ({ key, kind: 'x', payload: null });

describe('group commit of webhook deliveries', () => {
  it('writes the jobs that arrive together in one write, and answers each with its own result', async () => {
    const writes: string[][] = [];
    const seen = new Set<string>();
    const commit = createGroupCommit(async (jobs) => {
      writes.push(jobs.map((j) => j.key));
      return jobs.map((j) => (seen.has(j.key) ? false : (seen.add(j.key), true)));
    });
    const results = await Promise.all(['a', 'b', 'a', 'c'].map((key) => commit.add(job(key))));
    expect(results).toEqual([true, true, false, true]);
    expect(writes).toEqual([['a', 'b', 'a', 'c']]);
  });

  it('collects what arrives during a write into the next single write', async () => {
    const writes: string[][] = [];
    let release: () => void = () => undefined;
    const commit = createGroupCommit(async (jobs) => {
      writes.push(jobs.map((j) => j.key));
      if (writes.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return jobs.map(() => true);
    });
    const first = commit.add(job('1'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    const later = ['2', '3', '4'].map((key) => commit.add(job(key)));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(writes).toEqual([['1']]);
    release();
    expect(await Promise.all([first, ...later])).toEqual([true, true, true, true]);
    expect(writes).toEqual([['1'], ['2', '3', '4']]);
  });

  it('rejects every request of a failed write, and keeps working for the next ones', async () => {
    let fail = true;
    const commit = createGroupCommit(async (jobs) => {
      if (fail) throw new Error('disk full');
      return jobs.map(() => true);
    });
    await expect(Promise.all([commit.add(job('a')), commit.add(job('b'))])).rejects.toThrow('disk full');
    fail = false;
    expect(await commit.add(job('c'))).toBe(true);
  });
});

describe('webhook signature and action', () => {
  const sign = (secret: string, raw: Buffer) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

  it('accepts the signature of the exact bytes received, even bytes that are not UTF-8', () => {
    const raw = Buffer.concat([
      Buffer.from('{"action":"closed","title":"'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}'),
    ]);
    expect(signatureMatches('s3cret', raw, sign('s3cret', raw))).toBe(true);
  });

  it('refuses a changed byte, another secret, a truncated or sha1 signature', () => {
    const raw = Buffer.from('{"action":"closed"}');
    const good = sign('s3cret', raw);
    expect(signatureMatches('s3cret', Buffer.from('{"action":"opened"}'), good)).toBe(false);
    expect(signatureMatches('other', raw, good)).toBe(false);
    expect(signatureMatches('s3cret', raw, good.slice(0, -1))).toBe(false);
    expect(signatureMatches('s3cret', raw, `sha1=${createHmac('sha1', 's3cret').update(raw).digest('hex')}`)).toBe(
      false,
    );
    expect(signatureMatches('s3cret', raw, '')).toBe(false);
  });

  it('reads the action wherever it is in the object, and refuses what is not a JSON object', () => {
    expect(actionOf('{"action":"closed","number":1}')).toEqual({ ok: true, action: 'closed' });
    expect(actionOf('{"number":1,"action":"reopened"}')).toEqual({ ok: true, action: 'reopened' });
    expect(actionOf('{"zen":"Keep it logically awesome."}')).toEqual({ ok: true });
    expect(actionOf('[1,2]')).toEqual({ ok: false });
    expect(actionOf('{"action":')).toEqual({ ok: false });
  });
});

describe('recorded deliveries in the worker', () => {
  it('hands a recorded delivery (raw body, or deflated by an earlier version) to the handlers; a corrupt one is dead at once', async () => {
    const { createHarness, loadEvent } = await import('./app-harness.js');
    const { WEBHOOK_JOB } = await import('../../src/app/intake.js');
    const { deflateRawSync } = await import('node:zlib');
    const h = await createHarness();
    try {
      const event = loadEvent('pull_request.closed') as { pull_request: { number: number } };
      const bodyOf = (number: number) =>
        Buffer.from(JSON.stringify({ ...event, pull_request: { ...event.pull_request, number } }));
      const record = (id: string, body?: Buffer) =>
        h.store.enqueueJob({
          key: `webhook:${id}`,
          kind: WEBHOOK_JOB,
          payload: { id, name: 'pull_request', encoding: 'job-body' },
          ...(body ? { body } : {}),
        });
      await record('raw', bodyOf(1));
      await h.store.enqueueJob({
        key: 'webhook:legacy',
        kind: WEBHOOK_JOB,
        payload: {
          id: 'legacy',
          name: 'pull_request',
          encoding: 'deflate-raw-base64',
          body: deflateRawSync(bodyOf(2)).toString('base64'),
        },
      });
      await record('not-json', Buffer.from('{"action":"closed", cut off'));
      await record('no-body');
      const fixes: unknown[] = [];
      h.worker.register('resolve-fix', async (payload) => {
        fixes.push(payload);
      });
      // 4 deliveries + one fix job from each of the 2 readable ones
      expect(await h.worker.drain()).toBe(6);
      expect(fixes).toHaveLength(2);
      expect(fixes.map((fix) => (fix as { number: number }).number).sort()).toEqual([1, 2]);
      expect(await h.store.countJobs('done')).toBe(4);
      expect(await h.store.countJobs('dead')).toBe(2);
    } finally {
      await h.cleanup();
    }
  });
});
