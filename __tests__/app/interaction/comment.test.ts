import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTaskReader } from '../../../src/abstraction/llm-task-reader.js';
import { llmConfigFromEnv } from '../../../src/config/llm.js';
import { COMMENT_HEADING } from '../../../src/core/rendering/comment-render.js';
import { silentLogger } from '../../../src/ports/index.js';
import { chatCompletion } from '../../helpers/openai-server.js';
import { createHarness, github, type Harness } from '../app-harness.js';
import {
  commentStateOf,
  delivery,
  EMPTY_INPUT,
  example,
  FULL,
  issueOpened,
  noConfigFiles,
  OWNER,
  putInsight,
  REPO,
  TENANT,
} from './helpers.js';

const CANARY = 'CANARY-7f3a9c-private-knowledge';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.cleanup();
});

async function receiveIssue(payload: any, id = delivery()) {
  await h.probot.receive({ id, name: 'issues', payload } as any);
}

/** Records every comment body the App posts or edits. */
function captureComments(scope: nock.Scope, number = 1, commentId = 1001) {
  const posted: string[] = [];
  const edited: string[] = [];
  return {
    posted,
    edited,
    post: () =>
      scope.post(`/repos/${OWNER}/${REPO}/issues/${number}/comments`).reply(201, (_uri, body: any) => {
        posted.push(body.body);
        return { id: commentId, body: body.body };
      }),
    patch: (id = commentId) =>
      scope.patch(`/repos/${OWNER}/${REPO}/issues/comments/${id}`).reply(200, (_uri, body: any) => {
        edited.push(body.body);
        return { id, body: body.body };
      }),
  };
}

function idsIn(body: string): string[] {
  return [...body.matchAll(/`(m[0-9a-f]{10})`/g)].map((m) => m[1] ?? '');
}

/** The App again, with a model endpoint (mocked at the HTTP layer) that reads the next task as `answer` says. */
async function withModelReading(answer: { task_kind: string; routines: string[] }): Promise<void> {
  nock('https://llm.test').post('/v1/chat/completions').reply(200, chatCompletion(answer));
  const config = llmConfigFromEnv({
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: 'https://llm.test/v1',
    MEMORY_TRANSFER_LLM_RETRIES: '0',
  });
  await h.cleanup();
  h = await createHarness({ engine: { taskReader: createTaskReader(config, silentLogger)! } });
}

/** The App reads the issue's configuration and writes nothing. */
async function expectSilentOn(title: string, body: string): Promise<void> {
  const scope = noConfigFiles(github());
  await receiveIssue(issueOpened(title, body));
  await h.worker.drain();
  expect(scope.isDone()).toBe(true);
  expect(await commentStateOf(h.store)).toBeUndefined();
}

describe('the suggestion comment when a model reads the issue', () => {
  const AUCKLAND = {
    title: 'Invoice totals are off for customers in Auckland',
    body: 'The monthly report puts their last payment in the previous month.',
  };
  const TIME_ZONES = {
    title: 'Test date arithmetic in time zones far from UTC',
    description: 'A date computed in UTC lands on the previous or next day for users east or west of it.',
    content: 'Run the date tests with TZ set to Pacific/Auckland and to a zone west of UTC.',
    tags: ['routine:encoding-locale'],
    routines: ['encoding-locale' as const],
    lesson: null,
  };

  it('comments with the routine the model read on an issue whose words the rules do not know', async () => {
    await putInsight(h.store, 'm00000000f1', 'Codertocat/cal', 'public', TIME_ZONES);
    // read by the rules, the issue is a discussion: no comment
    await expectSilentOn(AUCKLAND.title, AUCKLAND.body);

    await withModelReading({ task_kind: 'failure', routines: ['encoding-locale'] });
    await putInsight(h.store, 'm00000000f1', 'Codertocat/cal', 'public', TIME_ZONES);
    const scope = noConfigFiles(github()).get(`/repos/${OWNER}/${REPO}/issues/1/comments`).query(true).reply(200, []);
    const c = captureComments(scope);
    c.post();
    await receiveIssue(issueOpened(AUCKLAND.title, AUCKLAND.body));
    await h.worker.drain();
    expect(c.posted).toHaveLength(1);
    expect(idsIn(c.posted[0]!)).toEqual(['m00000000f1']);
  });

  it('stays silent on an issue the model reads as a feature request, though the rules read a failure', async () => {
    await withModelReading({ task_kind: 'feature', routines: ['edge-input'] });
    await putInsight(h.store, 'm00000000f2', 'Codertocat/api', 'public');
    await expectSilentOn(EMPTY_INPUT.title, EMPTY_INPUT.body);
  });
});

describe('the suggestion comment', () => {
  it('posts one comment with at most three insights learned in other repositories', async () => {
    await putInsight(h.store, 'm00000000a1', 'Codertocat/api', 'public');
    await putInsight(h.store, 'm00000000a2', 'Codertocat/web', 'public', { title: 'Guard empty input before parsing' });
    await putInsight(h.store, 'm00000000a3', 'Codertocat/cli', 'public', {
      title: 'Test the empty string case of a parser',
    });
    await putInsight(h.store, 'm00000000a4', 'Codertocat/docs', 'public', {
      title: 'Empty input parser regression test',
    });
    await putInsight(h.store, 'm00000000a5', FULL, 'public', { title: 'Empty input parser crash fixed here' });

    const scope = noConfigFiles(github()).get(`/repos/${OWNER}/${REPO}/issues/1/comments`).query(true).reply(200, []);
    const c = captureComments(scope);
    c.post();
    await receiveIssue(issueOpened(EMPTY_INPUT.title, EMPTY_INPUT.body));
    await h.worker.drain();

    expect(c.posted).toHaveLength(1);
    const body = c.posted[0] ?? '';
    expect(body.startsWith(COMMENT_HEADING)).toBe(true);
    const ids = idsIn(body);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.length).toBeLessThanOrEqual(3);
    expect(ids).not.toContain('m00000000a5');
    expect(body).toContain('https://github.com/Codertocat/');
    expect(body).toMatch(/React 👍 or 👎/);
    // usage recorded for each insight shown
    const usage = await h.store.listUsage(TENANT, 'comment:1001');
    expect(usage.map((u) => u.memoryId).sort()).toEqual([...ids].sort());
  });

  it('edits the same comment in place on a later trigger, and a redelivery does nothing', async () => {
    await putInsight(h.store, 'm00000000b1', 'Codertocat/api', 'public');
    const first = delivery();
    let scope = noConfigFiles(github()).get(`/repos/${OWNER}/${REPO}/issues/1/comments`).query(true).reply(200, []);
    const c = captureComments(scope);
    c.post();
    await receiveIssue(issueOpened(EMPTY_INPUT.title, EMPTY_INPUT.body), first);
    await h.worker.drain();
    // the same delivery again: deduplicated, no GitHub call
    await receiveIssue(issueOpened(EMPTY_INPUT.title, EMPTY_INPUT.body), first);
    await h.worker.drain();
    expect(c.posted).toHaveLength(1);

    // a second relevant insight appears, then the body is edited
    await putInsight(h.store, 'm00000000b2', 'Codertocat/web', 'public', {
      title: 'Treat whitespace-only input like empty input',
      description: 'A parser that handles empty input often still crashes on whitespace-only input.',
      content: 'Add a whitespace-only case next to the empty input test and run it before the fix.',
    });
    const edited = example('issues', 'edited', (p) => p.repository.visibility === 'public');
    edited.issue.title = EMPTY_INPUT.title;
    edited.issue.body = `${EMPTY_INPUT.body} Also crashes on whitespace-only input.`;
    edited.changes = { body: { from: EMPTY_INPUT.body } };
    scope = noConfigFiles(nock('https://api.github.com'))
      .get(`/repos/${OWNER}/${REPO}/issues/comments/1001/reactions`)
      .query(true)
      .reply(200, []);
    const c2 = captureComments(scope);
    c2.patch();
    await receiveIssue(edited);
    await h.worker.drain();
    expect(c2.posted).toHaveLength(0);
    expect(c2.edited).toHaveLength(1);
    expect(idsIn(c2.edited[0] ?? '')).toEqual(expect.arrayContaining(['m00000000b1', 'm00000000b2']));
    // showing an insight in a comment is a use: once per comment, not again on each edit
    const [b1, b2] = await h.store.getMemories(TENANT, ['m00000000b1', 'm00000000b2']);
    expect([b1?.uses, b2?.uses]).toEqual([1, 1]);
    expect(b1?.lastUsedAt).toBeDefined();
    expect(b2?.lastUsedAt).toBeDefined();

    // an edit of the title only asks nothing
    const titleOnly = structuredClone(edited);
    titleOnly.changes = { title: { from: 'old' } };
    await receiveIssue(titleOnly);
    expect(await h.worker.drain()).toBe(0);
  });

  it('stays silent when nothing clears the relevance bar', async () => {
    await putInsight(h.store, 'm00000000c1', 'Codertocat/api', 'public');
    const scope = noConfigFiles(github()).get(`/repos/${OWNER}/${REPO}/issues/1/comments`).query(true).reply(200, []);
    await receiveIssue(issueOpened('Update the logo colours', 'The new brand palette uses teal instead of navy.'));
    await h.worker.drain();
    expect(scope.isDone()).toBe(true);
    expect(await commentStateOf(h.store)).toBeUndefined();
    expect(await h.store.countJobs('dead')).toBe(0);
  });

  it('edits an earlier comment it finds by listing when nothing is relevant any more', async () => {
    await putInsight(h.store, 'm00000000d1', 'Codertocat/api', 'public');
    const scope = noConfigFiles(github())
      .get(`/repos/${OWNER}/${REPO}/issues/1/comments`)
      .query(true)
      .reply(200, [
        { id: 55, user: { login: 'someone' }, body: `${COMMENT_HEADING}\n\nquoted by a person` },
        { id: 77, user: { login: 'memory-transfer[bot]' }, body: `${COMMENT_HEADING}\n\nold` },
      ]);
    const c = captureComments(scope, 1, 77);
    c.patch(77);
    await receiveIssue(issueOpened('Update the logo colours', 'The new brand palette uses teal instead of navy.'));
    await h.worker.drain();
    expect(c.edited).toHaveLength(1);
    expect(c.edited[0]).toMatch(/No insight from other repositories clears the relevance bar/);
    expect((await commentStateOf(h.store)).commentId).toBe(77);
  });

  it("never shows a private repository's insight, or its canary, in a public repository", async () => {
    await putInsight(h.store, 'm00000000e1', 'Codertocat/secret-service', 'private', {
      title: `Empty input parser crash ${CANARY}`,
      content: `Run the empty input test against ${CANARY} before merging.`,
    });
    await putInsight(h.store, 'm00000000e2', 'Codertocat/api', 'public');
    const scope = noConfigFiles(github()).get(`/repos/${OWNER}/${REPO}/issues/1/comments`).query(true).reply(200, []);
    const c = captureComments(scope);
    c.post();
    await receiveIssue(issueOpened(EMPTY_INPUT.title, `${EMPTY_INPUT.body} ${CANARY}`));
    await h.worker.drain();
    expect(c.posted).toHaveLength(1);
    const body = c.posted[0] ?? '';
    expect(idsIn(body)).toEqual(['m00000000e2']);
    expect(body).not.toContain('CANARY');
    expect(body).not.toContain('secret-service');
    // the comment says how many were withheld and how to share them, never which
    expect(body).toContain(
      '1 relevant insight was withheld: its sources are more private than this repository (public). A maintainer of the pool can share it',
    );
    expect(body).not.toContain('m00000000e1');
  });

  it('shows a private insight in a private repository of the org, with its source link', async () => {
    await putInsight(h.store, 'm00000000f1', 'Codertocat/secret-service', 'private');
    const scope = noConfigFiles(github()).get(`/repos/${OWNER}/${REPO}/issues/1/comments`).query(true).reply(200, []);
    const c = captureComments(scope);
    c.post();
    await receiveIssue(issueOpened(EMPTY_INPUT.title, EMPTY_INPUT.body, 'private'));
    await h.worker.drain();
    expect(idsIn(c.posted[0] ?? '')).toEqual(['m00000000f1']);
    expect(c.posted[0]).toContain('https://github.com/Codertocat/secret-service/pull/7');
  });

  it('escapes hostile insight text: no HTML, no images, links only to GitHub', async () => {
    await putInsight(h.store, 'm000000000a', 'Codertocat/api', 'public', {
      title: 'Empty input parser <img src=x onerror=alert(1)> @Codertocat/owners',
      description: '![pixel](https://evil.example/p.png) empty input',
      content: '[docs](https://evil.example/phish) <script>alert(1)</script> empty input parser',
    });
    const scope = noConfigFiles(github()).get(`/repos/${OWNER}/${REPO}/issues/1/comments`).query(true).reply(200, []);
    const c = captureComments(scope);
    c.post();
    await receiveIssue(issueOpened(EMPTY_INPUT.title, EMPTY_INPUT.body));
    await h.worker.drain();
    const body = c.posted[0] ?? '';
    expect(body).toContain('m000000000a');
    expect(body).not.toMatch(/<[a-z/]/i);
    expect(body).not.toContain('![');
    expect(body).not.toContain('https://evil');
    expect(body).not.toMatch(/@Codertocat/);
    for (const [, target] of body.matchAll(/\]\(([^)]*)\)/g)) expect(target).toMatch(/^https:\/\/github\.com\//);
  });

  it('comments once on a PR whose CI failed, whichever of check_suite and workflow_run arrives', async () => {
    await putInsight(h.store, 'm000000000b', 'Codertocat/api', 'public');
    const suite = example('check_suite', 'completed', (p) => p.check_suite.pull_requests.length > 0);
    suite.check_suite.conclusion = 'failure';
    const prNumber = suite.check_suite.pull_requests[0].number as number;
    const run = example('workflow_run', 'completed', (p) => p.workflow_run.pull_requests.length > 0);
    run.repository = suite.repository;
    run.workflow_run.conclusion = 'failure';
    run.workflow_run.head_sha = suite.check_suite.head_sha;
    run.workflow_run.pull_requests = [{ ...run.workflow_run.pull_requests[0], number: prNumber }];

    const scope = noConfigFiles(github())
      .get(`/repos/${OWNER}/${REPO}/pulls/${prNumber}`)
      .reply(200, { number: prNumber, state: 'open', title: EMPTY_INPUT.title, body: EMPTY_INPUT.body })
      .get(`/repos/${OWNER}/${REPO}/commits/${suite.check_suite.head_sha}/check-runs`)
      .query(true)
      .reply(200, { total_count: 0, check_runs: [] })
      .get(`/repos/${OWNER}/${REPO}/issues/${prNumber}/comments`)
      .query(true)
      .reply(200, []);
    const c = captureComments(scope, prNumber);
    c.post();
    await h.probot.receive({ id: delivery(), name: 'check_suite', payload: suite } as any);
    await h.probot.receive({ id: delivery(), name: 'workflow_run', payload: run } as any);
    await h.worker.drain();
    expect(c.posted).toHaveLength(1);
    expect(idsIn(c.posted[0] ?? '')).toEqual(['m000000000b']);
  });

  describe('on a PR whose CI failed, the failing check is read with its text', () => {
    const TIME_ZONES = {
      title: 'Date code must be tested in time zones far from UTC, on both sides',
      description: 'A date computed in UTC and shown in local time is a day off east of UTC+12 or west of UTC-12.',
      content: 'Run the date tests with TZ set to Pacific/Kiritimati and to Pacific/Pago_Pago.',
      tags: ['routine:encoding-locale'],
    };

    async function failOn(checkRuns: object[], annotations: object[], { comments }: { comments: boolean }) {
      await putInsight(h.store, 'm00000000d1', 'Codertocat/api', 'public', TIME_ZONES);
      const suite = example('check_suite', 'completed', (p) => p.check_suite.pull_requests.length > 0);
      suite.check_suite.conclusion = 'failure';
      const prNumber = suite.check_suite.pull_requests[0].number as number;
      const scope = noConfigFiles(github())
        .get(`/repos/${OWNER}/${REPO}/pulls/${prNumber}`)
        .reply(200, { number: prNumber, state: 'open', title: 'Add a dark mode toggle', body: 'Adds a theme switch.' })
        .get(`/repos/${OWNER}/${REPO}/commits/${suite.check_suite.head_sha}/check-runs`)
        .query(true)
        .reply(200, { total_count: checkRuns.length, check_runs: checkRuns })
        .get(`/repos/${OWNER}/${REPO}/check-runs/501/annotations`)
        .query(true)
        .optionally()
        .reply(200, annotations)
        .get(`/repos/${OWNER}/${REPO}/issues/${prNumber}/comments`)
        .query(true)
        .optionally()
        .reply(200, []);
      const c = captureComments(scope, prNumber);
      if (comments) c.post();
      await h.probot.receive({ id: delivery(), name: 'check_suite', payload: suite } as any);
      await h.worker.drain();
      return c.posted;
    }

    it('answers a feature PR whose test failed in a time zone with the time-zone insight', async () => {
      const posted = await failOn(
        [
          { id: 500, name: 'lint', conclusion: 'success' },
          { id: 501, name: 'test (ubuntu, node 22)', conclusion: 'failure' },
        ],
        [
          {
            annotation_level: 'failure',
            title: 'formatDate › renders the local date in UTC+13',
            message: 'Expected "2024-01-01", received "2023-12-31": the date shown is a day off.',
          },
        ],
        { comments: true },
      );
      expect(posted).toHaveLength(1);
      expect(idsIn(posted[0] ?? '')).toEqual(['m00000000d1']);
    });

    it('stays silent on the same feature PR when no check can be read as failing', async () => {
      const posted = await failOn([{ id: 500, name: 'lint', conclusion: 'success' }], [], { comments: false });
      expect(posted).toHaveLength(0);
    });

    it.each(['check runs', 'annotations and log'] as const)(
      "falls back to the PR's own text when GitHub refuses the %s",
      async (refusal) => {
        await putInsight(h.store, 'm000000000e', 'Codertocat/api', 'public');
        const suite = example('check_suite', 'completed', (p) => p.check_suite.pull_requests.length > 0);
        suite.check_suite.conclusion = 'failure';
        const prNumber = suite.check_suite.pull_requests[0].number as number;
        const checkRuns = `/repos/${OWNER}/${REPO}/commits/${suite.check_suite.head_sha}/check-runs`;
        const scope = noConfigFiles(github())
          .get(`/repos/${OWNER}/${REPO}/pulls/${prNumber}`)
          .reply(200, { number: prNumber, state: 'open', title: EMPTY_INPUT.title, body: EMPTY_INPUT.body })
          .get(`/repos/${OWNER}/${REPO}/issues/${prNumber}/comments`)
          .query(true)
          .reply(200, []);
        if (refusal === 'check runs')
          scope.get(checkRuns).query(true).reply(403, { message: 'Resource not accessible by integration' });
        else
          scope
            .get(checkRuns)
            .query(true)
            .reply(200, { total_count: 1, check_runs: [{ id: 502, name: 'test', conclusion: 'failure' }] })
            .get(`/repos/${OWNER}/${REPO}/check-runs/502/annotations`)
            .query(true)
            .reply(500, { message: 'Server Error' })
            .get(`/repos/${OWNER}/${REPO}/actions/jobs/502/logs`)
            .reply(404, { message: 'Not Found' });
        const c = captureComments(scope, prNumber);
        c.post();
        await h.probot.receive({ id: delivery(), name: 'check_suite', payload: suite } as any);
        await h.worker.drain();
        // the PR's own text (a parser crashing on empty input) still finds its insight
        expect(c.posted).toHaveLength(1);
        expect(idsIn(c.posted[0] ?? '')).toContain('m000000000e');
      },
    );
  });

  it('does not comment on a successful run, or when the config turns comments off', async () => {
    await putInsight(h.store, 'm000000000c', 'Codertocat/api', 'public');
    const suite = example('check_suite', 'completed', (p) => p.check_suite.pull_requests.length > 0);
    await h.probot.receive({ id: delivery(), name: 'check_suite', payload: suite } as any);
    // a green suite on a PR branch: nothing to do for anyone
    expect(await h.store.countJobs('pending')).toBe(0);

    github()
      .get(`/repos/${OWNER}/${REPO}/contents/${encodeURIComponent('.github/memory-transfer.yml')}`)
      .reply(200, 'comment:\n  issues: false\n', { 'content-type': 'text/plain; charset=utf-8' });
    await receiveIssue(issueOpened(EMPTY_INPUT.title, EMPTY_INPUT.body));
    await h.worker.drain();
    expect(await commentStateOf(h.store)).toBeUndefined();
    expect(await h.store.countJobs('dead')).toBe(0);
  });

  it('gives up without retrying when GitHub refuses the comment for good (a locked issue)', async () => {
    await putInsight(h.store, 'm00000000f9', 'Codertocat/api', 'public');
    noConfigFiles(github())
      .get(`/repos/${OWNER}/${REPO}/issues/1/comments`)
      .query(true)
      .reply(200, [])
      .post(`/repos/${OWNER}/${REPO}/issues/1/comments`)
      .reply(403, { message: 'Unable to create comment because issue is locked.' });
    await receiveIssue(issueOpened(EMPTY_INPUT.title, EMPTY_INPUT.body));
    expect(await h.worker.drain()).toBe(1);
    expect(await h.store.countJobs('dead')).toBe(0);
    expect(await h.store.countJobs('done')).toBe(1);
  });

  it('ignores a payload missing a field with one log line naming it, and caps a huge body', async () => {
    const broken = issueOpened(EMPTY_INPUT.title, EMPTY_INPUT.body);
    delete broken.installation;
    await receiveIssue(broken);
    expect(await h.store.countJobs('pending')).toBe(0);
    expect(h.logs.some((l) => l.level === 'warn' && l.message.includes('installation'))).toBe(true);

    await receiveIssue(issueOpened('Huge', 'x'.repeat(5_000_000)));
    const job = await h.store.claimJob(new Date().toISOString(), new Date(Date.now() + 60_000).toISOString());
    expect(JSON.stringify(job?.payload).length).toBeLessThan(30_000);
    await h.store.completeJob(job!.id);
  });
});
