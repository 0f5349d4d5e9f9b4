import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SWEEP_JOB, scheduleReactionSweeps, sweepKey } from '../../../src/app/interaction/reactions.js';
import { keys } from '../../../src/app/interaction/state.js';
import { createHarness, github, type Harness } from '../app-harness.js';
import {
  commentStateOf,
  delivery,
  example,
  FULL,
  OWNER,
  putCommentState,
  putInsight,
  REPO,
  TENANT,
} from './helpers.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await putInsight(h.store, 'm00000000a1', 'Codertocat/api', 'public');
  await putInsight(h.store, 'm00000000a2', 'Codertocat/web', 'public');
  // the App's comment on Hello-World#1 shows both insights
  await putCommentState(h.store, 1, 1001, [{ id: 'm00000000a1' }, { id: 'm00000000a2' }]);
  await h.store.setState(
    keys.sweepIndex(),
    JSON.stringify([{ repo: FULL, number: 1, installationId: 1, at: new Date().toISOString() }]),
  );
});
afterEach(async () => {
  await h.cleanup();
});

const user = (login: string, type = 'User') => ({ login, type });
const REACTIONS = [
  { id: 1, content: '+1', user: user('ada') },
  { id: 2, content: '-1', user: user('bob') },
  { id: 3, content: 'heart', user: user('cy') },
  { id: 4, content: '+1', user: user('dependabot[bot]', 'Bot') },
];

async function votes(id: string) {
  return (await h.store.getMemory(TENANT, id))?.votes;
}

async function sweep(slot: string) {
  await h.deps.queue.enqueue(`${SWEEP_JOB}:${slot}`, SWEEP_JOB, {});
  await h.worker.drain();
}

describe('reactions become votes', () => {
  it('counts each 👍/👎 by a person once, however many sweeps see it', async () => {
    const scope = github()
      .get(`/repos/${OWNER}/${REPO}/issues/comments/1001/reactions`)
      .query(true)
      .reply(200, REACTIONS)
      .get(`/repos/${OWNER}/${REPO}/issues/comments/1001/reactions`)
      .query(true)
      .reply(200, [...REACTIONS, { id: 5, content: '+1', user: user('dee') }]);
    await sweep('1');
    expect(await votes('m00000000a1')).toEqual({ up: 1, down: 1 });
    expect(await votes('m00000000a2')).toEqual({ up: 1, down: 1 });
    await sweep('2');
    expect(scope.isDone()).toBe(true);
    expect(await votes('m00000000a1')).toEqual({ up: 2, down: 1 });
    expect((await commentStateOf(h.store)).countedReactions.sort()).toEqual([1, 2, 4, 5]);
  });

  it('reads reactions one last time when the issue closes, then stops sweeping it', async () => {
    github()
      .get(`/repos/${OWNER}/${REPO}/issues/comments/1001/reactions`)
      .query(true)
      .reply(200, [{ id: 7, content: '-1', user: user('ada') }]);
    const closed = example('issues', 'opened', (p) => !p.changes);
    closed.action = 'closed';
    closed.issue.state = 'closed';
    closed.issue.state_reason = 'not_planned';
    await h.probot.receive({ id: delivery(), name: 'issues', payload: closed } as any);
    await h.worker.drain();
    expect(await votes('m00000000a1')).toEqual({ up: 0, down: 1 });
    expect(JSON.parse((await h.store.getState(keys.sweepIndex())) ?? '[]')).toEqual([]);
    // a sweep now calls GitHub for nothing
    await sweep('3');
  });

  it('skips a thread whose comment is gone and keeps sweeping the others', async () => {
    await h.store.setState(
      keys.sweepIndex(),
      JSON.stringify([
        { repo: `${OWNER}/gone`, number: 3, installationId: 1, at: new Date().toISOString() },
        { repo: FULL, number: 1, installationId: 1, at: new Date().toISOString() },
      ]),
    );
    await h.store.setState(
      keys.comment(`${OWNER}/gone`, 3),
      JSON.stringify({
        installationId: 1,
        commentId: 3003,
        shown: [{ id: 'm00000000a2', score: 1, parts: { lexical: 1, vector: 0, routine: 0, prior: 0, fused: 1 } }],
        updatedAt: 'x',
      }),
    );
    github()
      .get(`/repos/${OWNER}/gone/issues/comments/3003/reactions`)
      .query(true)
      .reply(404, { message: 'Not Found' })
      .get(`/repos/${OWNER}/${REPO}/issues/comments/1001/reactions`)
      .query(true)
      .reply(200, [{ id: 8, content: '+1', user: user('ada') }]);
    await sweep('4');
    expect(await votes('m00000000a1')).toEqual({ up: 1, down: 0 });
  });

  it('takes the votes of a removed 👍/👎 back from the insights it voted on, and counts it again if it comes back', async () => {
    const reactions = `/repos/${OWNER}/${REPO}/issues/comments/1001/reactions`;
    const scope = github()
      .get(reactions)
      .query(true)
      .reply(200, [
        { id: 21, content: '+1', user: user('ada') },
        { id: 22, content: '-1', user: user('bob') },
      ])
      // ada removed her 👍; bob's 👎 stays
      .get(reactions)
      .query(true)
      .reply(200, [{ id: 22, content: '-1', user: user('bob') }])
      // ada reacts 👍 again: a new reaction, a new vote
      .get(reactions)
      .query(true)
      .reply(200, [
        { id: 22, content: '-1', user: user('bob') },
        { id: 23, content: '+1', user: user('ada') },
      ]);
    await sweep('w1');
    expect(await votes('m00000000a1')).toEqual({ up: 1, down: 1 });
    await sweep('w2');
    expect(await votes('m00000000a1')).toEqual({ up: 0, down: 1 });
    expect(await votes('m00000000a2')).toEqual({ up: 0, down: 1 });
    await sweep('w3');
    expect(scope.isDone()).toBe(true);
    expect(await votes('m00000000a1')).toEqual({ up: 1, down: 1 });
    expect((await commentStateOf(h.store)).votedReactions.map((r: { id: number }) => r.id).sort()).toEqual([22, 23]);
  });

  it('a person who reacted both ways and removed one keeps the vote of the other', async () => {
    const reactions = `/repos/${OWNER}/${REPO}/issues/comments/1001/reactions`;
    github()
      .get(reactions)
      .query(true)
      .reply(200, [
        { id: 31, content: '+1', user: user('ada') },
        { id: 32, content: '-1', user: user('ada') },
      ])
      .get(reactions)
      .query(true)
      .reply(200, [{ id: 31, content: '+1', user: user('ada') }]);
    await sweep('b1');
    // one vote per person: the later 👎 moved it
    expect(await votes('m00000000a1')).toEqual({ up: 0, down: 1 });
    await sweep('b2');
    expect(await votes('m00000000a1')).toEqual({ up: 1, down: 0 });
  });

  it('keeps a person’s vote while a 👍 of theirs on another thread still backs it', async () => {
    // a second thread (#2) whose comment shows m00000000a1 too
    await putCommentState(h.store, 2, 1002, [{ id: 'm00000000a1' }]);
    const now = new Date().toISOString();
    await h.store.setState(
      keys.sweepIndex(),
      JSON.stringify([1, 2].map((number) => ({ repo: FULL, number, installationId: 1, at: now }))),
    );
    const on = (comment: number) => `/repos/${OWNER}/${REPO}/issues/comments/${comment}/reactions`;
    const ada41 = { id: 41, content: '+1', user: user('ada') };
    const ada42 = { id: 42, content: '+1', user: user('ada') };
    // per sweep, what each thread's comment lists: both 👍; ada removes hers on #1 (her 👍 on #2
    // still backs her vote); then on #2 too (nothing backs it any more)
    const sweeps = [
      [[ada41], [ada42]],
      [[], [ada42]],
      [[], []],
    ];
    const scope = github();
    for (const [first, second] of sweeps) {
      scope.get(on(1001)).query(true).reply(200, first).get(on(1002)).query(true).reply(200, second);
    }
    await sweep('t1');
    expect(await votes('m00000000a1')).toEqual({ up: 1, down: 0 });
    await sweep('t2');
    expect(await votes('m00000000a1')).toEqual({ up: 1, down: 0 });
    expect(await votes('m00000000a2')).toEqual({ up: 0, down: 0 }); // shown on #1 only: withdrawn
    await sweep('t3');
    expect(scope.isDone()).toBe(true);
    expect(await votes('m00000000a1')).toEqual({ up: 0, down: 0 });
  });

  it('withdraws nothing when the reactions cannot be read (the comment is gone)', async () => {
    const reactions = `/repos/${OWNER}/${REPO}/issues/comments/1001/reactions`;
    github()
      .get(reactions)
      .query(true)
      .reply(200, [{ id: 41, content: '+1', user: user('ada') }])
      .get(reactions)
      .query(true)
      .reply(404, { message: 'Not Found' });
    await sweep('g1');
    await sweep('g2');
    expect(await votes('m00000000a1')).toEqual({ up: 1, down: 0 });
  });

  it('withdraws nothing for a reaction still listed in a shape it cannot read', async () => {
    const reactions = `/repos/${OWNER}/${REPO}/issues/comments/1001/reactions`;
    github()
      .get(reactions)
      .query(true)
      .reply(200, [{ id: 51, content: '+1', user: user('ada') }])
      .get(reactions)
      .query(true)
      .reply(200, [{ id: 51, content: '+1', user: { type: 'User' } }]);
    await sweep('s1');
    await sweep('s2');
    expect(await votes('m00000000a1')).toEqual({ up: 1, down: 0 });
  });

  it('asks for one sweep per time slot, however often the timer fires', async () => {
    const slot = 60_000;
    const now = new Date('2026-03-01T10:00:30Z');
    expect(sweepKey(now, slot)).toBe(sweepKey(new Date('2026-03-01T10:00:59Z'), slot));
    expect(sweepKey(now, slot)).not.toBe(sweepKey(new Date('2026-03-01T10:01:00Z'), slot));
    const enqueued: string[] = [];
    const stop = scheduleReactionSweeps(
      { enqueue: async (key) => (enqueued.push(key), true), register: () => undefined },
      { now: () => now },
      () => undefined,
      5,
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    stop();
    expect(enqueued.length).toBeGreaterThan(0);
    expect(new Set(enqueued).size).toBe(1);
  });

  it('three 👎 from three people and no 👍 archive the insights the comment shows, with an audit entry', async () => {
    github()
      .get(`/repos/${OWNER}/${REPO}/issues/comments/1001/reactions`)
      .query(true)
      .reply(200, [
        { id: 11, content: '-1', user: user('ada') },
        { id: 12, content: '-1', user: user('bob') },
        { id: 13, content: '-1', user: user('cy') },
      ]);
    await sweep('archive');
    for (const id of ['m00000000a1', 'm00000000a2']) {
      const memory = await h.store.getMemory(TENANT, id);
      expect(memory?.votes).toEqual({ up: 0, down: 3 });
      expect(memory?.status).toBe('archived');
    }
    const audit = await h.store.listAudit(TENANT);
    expect(
      audit
        .filter((a) => a.action === 'archive')
        .map((a) => a.memoryId)
        .sort(),
    ).toEqual(['m00000000a1', 'm00000000a2']);
  });
});
