import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keys } from '../../../src/app/interaction/state.js';
import { createHarness, github, type Harness } from '../app-harness.js';
import { delivery, example, FULL, OWNER, permission, putCommentState, putInsight, REPO, TENANT } from './helpers.js';

const CANARY = 'CANARY-51de-private-only';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.cleanup();
});

function commentEvent(
  body: string,
  options: { login?: string; type?: string; visibility?: 'public' | 'private'; commentId?: number } = {},
) {
  const payload = example('issue_comment', 'created', (p) => p.repository.visibility === 'public');
  payload.comment.body = body;
  payload.comment.id = options.commentId ?? 9001;
  payload.comment.user = {
    ...payload.comment.user,
    login: options.login ?? 'Codertocat',
    type: options.type ?? 'User',
  };
  payload.sender = { ...payload.sender, login: options.login ?? 'Codertocat', type: options.type ?? 'User' };
  payload.repository.visibility = options.visibility ?? 'public';
  payload.repository.private = (options.visibility ?? 'public') !== 'public';
  return payload;
}

/** Answers the reply POST and records its body. */
function captureReply(scope: nock.Scope, replies: string[]) {
  return scope.post(`/repos/${OWNER}/${REPO}/issues/1/comments`).reply(201, (_uri, body: any) => {
    replies.push(body.body);
    return { id: 5000 + replies.length };
  });
}

async function send(body: string, options?: Parameters<typeof commentEvent>[1]) {
  await h.probot.receive({ id: delivery(), name: 'issue_comment', payload: commentEvent(body, options) } as any);
  await h.worker.drain();
}

describe('/memory commands', () => {
  it('lets someone with write access approve a proposed insight, with an audit entry and one reply', async () => {
    await putInsight(h.store, 'm00000000a1', 'Codertocat/api', 'public', { status: 'proposed' });
    const replies: string[] = [];
    captureReply(permission(github(), 'Codertocat', 'write'), replies);
    await send('Looks right to me.\n/memory approve m00000000a1');
    expect((await h.store.getMemory(TENANT, 'm00000000a1'))?.status).toBe('active');
    const audit = await h.store.listAudit(TENANT);
    expect(audit).toEqual([
      expect.objectContaining({ actor: 'Codertocat', action: 'approve', memoryId: 'm00000000a1' }),
    ]);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatch(/Approved `m00000000a1`/);
  });

  it('refuses politely and changes nothing for someone without write access', async () => {
    await putInsight(h.store, 'm00000000a1', 'Codertocat/api', 'public', { status: 'proposed' });
    await putInsight(h.store, 'm00000000a2', 'Codertocat/api', 'public', { status: 'active' });
    const replies: string[] = [];
    captureReply(permission(github(), 'stranger', 'read'), replies);
    await send('/memory approve m00000000a1\n/memory forget m00000000a2\n/memory reject m00000000a2', {
      login: 'stranger',
    });
    expect((await h.store.getMemory(TENANT, 'm00000000a1'))?.status).toBe('proposed');
    expect((await h.store.getMemory(TENANT, 'm00000000a2'))?.status).toBe('active');
    expect(await h.store.listAudit(TENANT)).toEqual([]);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatch(/only people with write access/);
    // one refusal, however many write commands
    expect(replies[0]?.match(/only people with write access/g)).toHaveLength(1);
  });

  it('treats a user who is not a collaborator at all as without write access', async () => {
    await putInsight(h.store, 'm00000000a1', 'Codertocat/api', 'public', { status: 'proposed' });
    const replies: string[] = [];
    captureReply(
      github().get(`/repos/${OWNER}/${REPO}/collaborators/drive-by/permission`).reply(404, { message: 'Not Found' }),
      replies,
    );
    await send('/memory reject m00000000a1', { login: 'drive-by' });
    expect((await h.store.getMemory(TENANT, 'm00000000a1'))?.status).toBe('proposed');
    expect(replies[0]).toMatch(/only people with write access/);
  });

  it('asks GitHub once per person: a second command within minutes reuses the cached permission', async () => {
    await putInsight(h.store, 'm00000000a2', 'Codertocat/api', 'public', { status: 'proposed' });
    await putInsight(h.store, 'm00000000a3', 'Codertocat/api', 'public', { status: 'proposed' });
    const replies: string[] = [];
    captureReply(permission(github(), 'Codertocat', 'write'), replies);
    await send('/memory approve m00000000a2');
    captureReply(nock('https://api.github.com'), replies);
    await send('/memory approve m00000000a3', { commentId: 99 });
    expect((await h.store.getMemory(TENANT, 'm00000000a2'))?.status).toBe('active');
    expect((await h.store.getMemory(TENANT, 'm00000000a3'))?.status).toBe('active');
  });

  it('lets a writer reject and forget; forget removes the insight from the pool', async () => {
    await putInsight(h.store, 'm00000000b1', 'Codertocat/api', 'public');
    await putInsight(h.store, 'm00000000b2', 'Codertocat/web', 'public');
    const replies: string[] = [];
    captureReply(permission(github(), 'Codertocat', 'admin'), replies);
    await send('/memory reject m00000000b1\n/memory forget m00000000b2');
    expect((await h.store.getMemory(TENANT, 'm00000000b1'))?.status).toBe('rejected');
    expect(await h.store.getMemory(TENANT, 'm00000000b2')).toBeUndefined();
    expect((await h.store.listAudit(TENANT)).map((a) => a.action).sort()).toEqual(['forget', 'reject']);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatch(/Rejected `m00000000b1`/);
    expect(replies[0]).toMatch(/Forgot `m00000000b2`/);
  });

  it("does not let a public repository act on, or learn about, a private repository's insight", async () => {
    await putInsight(h.store, 'm00000000c1', 'Codertocat/secret-service', 'private', {
      status: 'proposed',
      title: `Secret routine ${CANARY}`,
    });
    const replies: string[] = [];
    captureReply(permission(github(), 'Codertocat', 'admin'), replies);
    await send('/memory approve m00000000c1');
    expect((await h.store.getMemory(TENANT, 'm00000000c1'))?.status).toBe('proposed');
    expect(replies[0]).toMatch(/no insight with this id is visible/);
    expect(replies[0]).not.toContain('CANARY');
  });

  it('answers search, why and help for anyone, without asking for permissions, and escapes what it echoes', async () => {
    await putInsight(h.store, 'm00000000d1', 'Codertocat/api', 'public');
    await putInsight(h.store, 'm00000000d2', 'Codertocat/secret-service', 'private', {
      title: `Empty input ${CANARY}`,
    });
    await putCommentState(
      h.store,
      1,
      1001,
      [{ id: 'm00000000d1', score: 0.61, parts: { lexical: 0.5, vector: 0, routine: 0.3, prior: 0.1, fused: 0.61 } }],
      '2026-01-01T00:00:00Z',
    );
    const replies: string[] = [];
    captureReply(github(), replies);
    await send(
      '/memory search empty input parser <img src=x onerror=alert(1)> @Codertocat\n/memory why\n/memory help',
      {
        login: 'stranger',
      },
    );
    expect(replies).toHaveLength(1);
    const reply = replies[0] ?? '';
    expect(reply).toContain('`m00000000d1`');
    expect(reply).toContain('score 0.610');
    expect(reply).toContain('/memory approve ID');
    expect(reply).not.toContain('CANARY');
    expect(reply).not.toMatch(/<img/);
    expect(reply).not.toMatch(/@Codertocat/);
  });

  it('ignores comments by bots, its own included, and comments without a command', async () => {
    await send('/memory forget m00000000a1', { login: 'memory-transfer[bot]', type: 'Bot' });
    await send('/memory forget m00000000a1', { login: 'renovate[bot]', type: 'Bot' });
    await send('I think we should /memory this later');
    expect(await h.store.countJobs('done')).toBe(0);
    expect(await h.store.countJobs('pending')).toBe(0);
  });

  it('replies once to a redelivered command comment', async () => {
    await putInsight(h.store, 'm00000000e1', 'Codertocat/api', 'public', { status: 'proposed' });
    const replies: string[] = [];
    captureReply(permission(github(), 'Codertocat', 'maintain'), replies);
    const payload = commentEvent('/memory approve m00000000e1');
    await h.probot.receive({ id: 'same-delivery', name: 'issue_comment', payload } as any);
    await h.probot.receive({ id: 'another-delivery-same-comment', name: 'issue_comment', payload } as any);
    await h.worker.drain();
    expect(replies).toHaveLength(1);
    expect((await h.store.getMemory(TENANT, 'm00000000e1'))?.status).toBe('active');
  });

  it('brings the review dashboard up to date after a command decides an insight it lists', async () => {
    await putInsight(h.store, 'm00000000f1', FULL, 'public', { status: 'proposed', title: 'Approve me' });
    await putInsight(h.store, 'm00000000f2', FULL, 'public', { status: 'proposed', title: 'Still waiting' });
    await h.store.setState(
      keys.dashboard(FULL),
      JSON.stringify({ number: 42, installationId: 1, items: ['m00000000f1', 'm00000000f2'] }),
    );
    const replies: string[] = [];
    const dashboards: string[] = [];
    captureReply(
      permission(github(), 'Codertocat', 'write')
        .patch(`/repos/${OWNER}/${REPO}/issues/42`)
        .reply(200, (_uri, body: any) => {
          dashboards.push(body.body);
          return { number: 42 };
        }),
      replies,
    );
    await send('/memory approve m00000000f1');
    expect(dashboards).toHaveLength(1);
    expect(dashboards[0]).not.toContain('m00000000f1');
    expect(dashboards[0]).toContain('m00000000f2');
  });
});
