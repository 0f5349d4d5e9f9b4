/**
 * Leases that hold (docs/security.md): a suggestion job whose GitHub answer takes longer than its
 * lease keeps the job (heartbeat), so a second worker — another process on the same pool — never
 * runs it again and the thread gets one comment. A run that lost its lease writes nothing, and a
 * rerun finds the App's comment by its hidden marker and edits it instead of adding a second one.
 */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../../src/core/rendering/comment-render.js';
import type { Store } from '../../../src/store/store.js';
import { createHarness, tempPool, type Harness } from '../app-harness.js';
import { CONFIG, delivery, EMPTY_INPUT, issueOpened, OWNER, putInsight, REPO, TENANT } from './helpers.js';

const LEASE_MS = 300;
let store: Store;
let cleanup: () => Promise<void>;
let a: Harness;
let b: Harness;
beforeEach(async () => {
  ({ store, cleanup } = await tempPool());
  a = await createHarness({ store, worker: { leaseMs: LEASE_MS, pollMs: 20 } });
  b = await createHarness({ store, worker: { leaseMs: LEASE_MS, pollMs: 20 } });
});
afterEach(async () => {
  await Promise.all([a.worker.stop(0), b.worker.stop(0)]);
  await cleanup();
});

/** GitHub for any number of runs: every call counted; the comments list answers after `delayMs`. */
function gitHub(delayMs: number, existing: unknown[] = []) {
  const calls = { requested: 0, list: 0, post: 0, patch: 0 };
  const scope = nock('https://api.github.com')
    .persist()
    .post('/app/installations/1/access_tokens')
    .reply(201, { token: 'ghs_test', expires_at: '2099-01-01T00:00:00Z', permissions: {} })
    .get(`/repos/${OWNER}/${REPO}/contents/${CONFIG}`)
    .reply(404, { message: 'Not Found' })
    .get(`/repos/${OWNER}/.github/contents/${CONFIG}`)
    .reply(404, { message: 'Not Found' })
    .get(`/repos/${OWNER}/${REPO}/issues/1/comments`)
    .query(true)
    .delay(delayMs)
    .reply(200, () => {
      calls.list += 1;
      return existing;
    })
    .get(/\/repos\/.*\/reactions/)
    .query(true)
    .reply(200, [])
    .post(`/repos/${OWNER}/${REPO}/issues/1/comments`)
    .reply(201, (_uri, body: any) => {
      calls.post += 1;
      return { id: 1001, body: body.body };
    })
    .patch(`/repos/${OWNER}/${REPO}/issues/comments/77`)
    .reply(200, (_uri, body: any) => {
      calls.patch += 1;
      return { id: 77, body: body.body };
    });
  // the comments list was asked for (its answer comes `delayMs` later)
  scope.on('request', (req: { path: string }) => {
    if (req.path.includes('/issues/1/comments') && !req.path.includes('reactions')) calls.requested += 1;
  });
  return { calls, done: () => scope.persist(false) };
}

async function until(what: () => Promise<boolean>): Promise<void> {
  while (!(await what())) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('a suggestion job slower than its lease', () => {
  it('keeps its lease while GitHub answers late: one run, one comment, however many workers poll', async () => {
    await putInsight(store, 'm00000000a1', 'Codertocat/api', 'public');
    const github = gitHub(LEASE_MS * 4);
    await a.probot.receive({
      id: delivery(),
      name: 'issues',
      payload: issueOpened(EMPTY_INPUT.title, EMPTY_INPUT.body),
    } as any);
    a.worker.start();
    await until(async () => github.calls.requested > 0);
    b.worker.start();
    await until(async () => (await store.countJobs('done')) === 1);
    await Promise.all([a.worker.stop(0), b.worker.stop(0)]);
    expect(github.calls.post).toBe(1);
    expect(github.calls.list).toBe(1);
    // the comment shows the insight and it counts as one use
    expect((await store.listUsage(TENANT, 'comment:1001')).map((u) => u.memoryId)).toEqual(['m00000000a1']);
    expect((await store.getMemory(TENANT, 'm00000000a1'))?.uses).toBe(1);
    github.done();
    nock.cleanAll();
  });

  it('a run that lost its lease writes nothing, and records nothing about the job', async () => {
    await putInsight(store, 'm00000000a1', 'Codertocat/api', 'public');
    const github = gitHub(LEASE_MS * 2);
    await a.probot.receive({
      id: delivery(),
      name: 'issues',
      payload: issueOpened(EMPTY_INPUT.title, EMPTY_INPUT.body),
    } as any);
    // this worker claims the job, then (a stalled process) another claim takes it over while the
    // first waits on GitHub: its heartbeat or its check before writing finds the claim gone
    const first = a.worker.drain();
    await until(async () => github.calls.requested > 0);
    const later = new Date(Date.now() + LEASE_MS * 10);
    const stolen = await store.claimJob(later.toISOString(), new Date(later.getTime() + 60_000).toISOString());
    expect(stolen).toBeDefined();
    await first;
    expect(github.calls.post).toBe(0);
    expect(github.calls.patch).toBe(0);
    // the job is still the second claim's: not done, not failed by the first
    expect(await store.countJobs('done')).toBe(0);
    expect(await store.countJobs('pending')).toBe(1);
    expect(a.logs.some((l) => /lease (was )?lost/.test(l.message))).toBe(true);
    github.done();
    nock.cleanAll();
  });

  it('a rerun that does not know its comment finds it by the hidden marker and edits it', async () => {
    await putInsight(store, 'm00000000a1', 'Codertocat/api', 'public');
    const github = gitHub(0, [
      { id: 55, user: { login: 'someone' }, body: `quoting the bot ${COMMENT_MARKER}` },
      { id: 77, user: { login: 'memory-transfer[bot]' }, body: `Edited by a maintainer\n${COMMENT_MARKER}` },
    ]);
    await a.probot.receive({
      id: delivery(),
      name: 'issues',
      payload: issueOpened(EMPTY_INPUT.title, EMPTY_INPUT.body),
    } as any);
    await a.worker.drain();
    expect(github.calls).toMatchObject({ list: 1, post: 0, patch: 1 });
    github.done();
    nock.cleanAll();
  });
});
