import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requestReview } from '../../../src/app/handlers/interaction.js';
import { keys } from '../../../src/app/interaction/state.js';
import { DASHBOARD_TITLE } from '../../../src/core/rendering/dashboard-render.js';
import { createHarness, github, type Harness } from '../app-harness.js';
import {
  CONFIG,
  delivery,
  EMPTY_INPUT,
  example,
  FULL,
  issueOpened,
  noConfigFiles,
  OWNER,
  permission,
  putInsight,
  REPO,
  repoConfigFile,
  TENANT,
} from './helpers.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.cleanup();
});

interface Written {
  created: { title: string; body: string }[];
  edited: string[];
}

function captureDashboard(scope: nock.Scope, written: Written, number = 42) {
  return {
    create: () =>
      scope.post(`/repos/${OWNER}/${REPO}/issues`).reply(201, (_uri, body: any) => {
        written.created.push(body);
        return { number, id: 1, title: body.title, body: body.body };
      }),
    edit: () =>
      scope.patch(`/repos/${OWNER}/${REPO}/issues/${number}`).reply(200, (_uri, body: any) => {
        written.edited.push(body.body);
        return { number };
      }),
  };
}

async function review(memoryIds: string[], key?: string) {
  await requestReview(h.deps.queue, { installationId: 1, repo: FULL, visibility: 'public', number: 7, memoryIds }, key);
  await h.worker.drain();
}

async function dashboardState() {
  return JSON.parse((await h.store.getState(keys.dashboard(FULL))) ?? '{}');
}

async function editDashboard(before: string, after: string, login: string) {
  const payload = example('issues', 'edited', (p) => p.repository.visibility === 'public');
  payload.issue.number = 42;
  payload.issue.title = DASHBOARD_TITLE;
  payload.issue.body = after;
  payload.changes = { body: { from: before } };
  payload.sender = { ...payload.sender, login, type: 'User' };
  await h.probot.receive({ id: delivery(), name: 'issues', payload } as any);
  await h.worker.drain();
}

describe('the review dashboard', () => {
  it('lists proposed insights in one issue, edited in place when more arrive', async () => {
    await putInsight(h.store, 'm00000000a1', FULL, 'public', { status: 'proposed', title: 'First proposal' });
    const written: Written = { created: [], edited: [] };
    let d = captureDashboard(noConfigFiles(github()), written);
    d.create();
    await review(['m00000000a1']);
    expect(written.created).toHaveLength(1);
    expect(written.created[0]?.title).toBe(DASHBOARD_TITLE);
    expect(written.created[0]?.body).toContain('- [ ] **First proposal** · `m00000000a1`');

    await putInsight(h.store, 'm00000000a2', FULL, 'public', { status: 'proposed', title: 'Second proposal' });
    d = captureDashboard(noConfigFiles(nock('https://api.github.com')), written);
    d.edit();
    await review(['m00000000a2']);
    expect(written.created).toHaveLength(1);
    expect(written.edited).toHaveLength(1);
    expect(written.edited[0]).toContain('`m00000000a1`');
    expect(written.edited[0]).toContain('`m00000000a2`');
  });

  it('approves an insight a maintainer ticks, and unticks what someone without write access ticked', async () => {
    await putInsight(h.store, 'm00000000b1', FULL, 'public', { status: 'proposed', title: 'Tick me' });
    await putInsight(h.store, 'm00000000b2', FULL, 'public', { status: 'proposed', title: 'Leave me' });
    const written: Written = { created: [], edited: [] };
    captureDashboard(noConfigFiles(github()), written).create();
    await review(['m00000000b1', 'm00000000b2']);
    const body = written.created[0]?.body ?? '';

    // someone with read access ticks b2: nothing changes, the box is unticked again
    const byReader = body.replace('- [ ] **Leave me**', '- [x] **Leave me**');
    captureDashboard(permission(nock('https://api.github.com'), 'stranger', 'read'), written).edit();
    await editDashboard(body, byReader, 'stranger');
    expect((await h.store.getMemory(TENANT, 'm00000000b2'))?.status).toBe('proposed');
    expect(written.edited.at(-1)).toContain('- [ ] **Leave me**');

    // a maintainer ticks b1: approved, with an audit entry, and it leaves the list
    const ticked = body.replace('- [ ] **Tick me**', '- [x] **Tick me**');
    captureDashboard(permission(nock('https://api.github.com'), 'Codertocat', 'admin'), written).edit();
    await editDashboard(body, ticked, 'Codertocat');
    expect((await h.store.getMemory(TENANT, 'm00000000b1'))?.status).toBe('active');
    expect(await h.store.listAudit(TENANT)).toEqual([
      expect.objectContaining({ action: 'approve', actor: 'Codertocat', memoryId: 'm00000000b1' }),
    ]);
    expect(written.edited.at(-1)).not.toContain('m00000000b1');
    expect(written.edited.at(-1)).toContain('m00000000b2');
  });

  it('ignores its own edits of the dashboard', async () => {
    await h.store.setState(keys.dashboard(FULL), JSON.stringify({ number: 42, items: [] }));
    const payload = example('issues', 'edited', (p) => p.repository.visibility === 'public');
    payload.issue.number = 42;
    payload.changes = { body: { from: '' } };
    payload.sender = { login: 'memory-transfer[bot]', type: 'Bot' };
    await h.probot.receive({ id: delivery(), name: 'issues', payload } as any);
    expect(await h.worker.drain()).toBe(0);
  });

  it('never reopens or recreates a dashboard a person closed', async () => {
    await putInsight(h.store, 'm00000000c1', FULL, 'public', { status: 'proposed' });
    const written: Written = { created: [], edited: [] };
    captureDashboard(noConfigFiles(github()), written).create();
    await review(['m00000000c1']);

    const closed = example('issues', 'opened', (p) => !p.changes);
    closed.action = 'closed';
    closed.issue.number = 42;
    closed.issue.state = 'closed';
    closed.issue.state_reason = 'not_planned';
    await h.probot.receive({ id: delivery(), name: 'issues', payload: closed } as any);
    await h.worker.drain();
    expect((await dashboardState()).closedByPerson).toBe(true);

    // a new proposal: config is read, the dashboard is neither edited nor created again
    await putInsight(h.store, 'm00000000c2', FULL, 'public', { status: 'proposed' });
    noConfigFiles(nock('https://api.github.com'));
    await review(['m00000000c2']);
    expect(written.created).toHaveLength(1);
    expect(written.edited).toHaveLength(0);
  });

  it('proposes on the source PR instead with review: comment, and nowhere with review: off', async () => {
    await putInsight(h.store, 'm00000000d1', FULL, 'public', { status: 'proposed', title: 'Proposed here' });
    const posted: string[] = [];
    repoConfigFile(github(), 'review: comment\n')
      .post(`/repos/${OWNER}/${REPO}/issues/7/comments`)
      .reply(201, (_uri, body: any) => {
        posted.push(body.body);
        return { id: 700 };
      });
    await review(['m00000000d1']);
    expect(posted).toHaveLength(1);
    expect(posted[0]).toContain('`m00000000d1`');
    expect(posted[0]).toContain('/memory approve ID');

    repoConfigFile(nock('https://api.github.com'), 'review: "off"\n');
    await review(['m00000000d1'], 'again');
    expect(posted).toHaveLength(1);
  });

  it("does not list a private repository's proposal on a public dashboard", async () => {
    await putInsight(h.store, 'm00000000e1', 'Codertocat/secret-service', 'private', {
      status: 'proposed',
      title: 'CANARY-dash-private',
    });
    const written: Written = { created: [], edited: [] };
    // the private repository's config points its dashboard at the public Hello-World
    github()
      .get(`/repos/${OWNER}/secret-service/contents/${CONFIG}`)
      .reply(200, `dashboard_repo: ${REPO}\n`, { 'content-type': 'text/plain; charset=utf-8' })
      .get(`/repos/${OWNER}/${REPO}`)
      .reply(200, { id: 1, full_name: FULL, private: false, visibility: 'public' });
    captureDashboard(nock('https://api.github.com'), written).create();
    await requestReview(h.deps.queue, {
      installationId: 1,
      repo: `${OWNER}/secret-service`,
      visibility: 'private',
      memoryIds: ['m00000000e1'],
    });
    await h.worker.drain();
    const body = written.created[0]?.body ?? '';
    expect(body).not.toContain('CANARY');
    expect(body).not.toContain('m00000000e1');
    expect(body).toContain('1 more insight waits');
  });
});

describe('a broken configuration', () => {
  async function openIssue() {
    await h.probot.receive({
      id: delivery(),
      name: 'issues',
      payload: issueOpened('Update the logo colours', 'The brand palette uses teal now.'),
    } as any);
    await h.worker.drain();
  }

  function brokenConfig(scope: nock.Scope, yaml: string) {
    return repoConfigFile(scope, yaml)
      .get(`/repos/${OWNER}/.github/contents/${CONFIG}`)
      .reply(404, { message: 'Not Found' })
      .get(`/repos/${OWNER}/${REPO}/issues/1/comments`)
      .query(true)
      .reply(200, []);
  }

  it('is reported once on the dashboard, and the defaults apply meanwhile', async () => {
    await h.store.setState(keys.dashboard(FULL), JSON.stringify({ number: 42, items: [] }));
    const written: Written = { created: [], edited: [] };
    captureDashboard(brokenConfig(github(), 'top_k: 10\nreview: sometimes\n'), written).edit();
    await openIssue();
    expect(written.edited).toHaveLength(1);
    expect(written.edited[0]).toContain('Configuration problems');
    expect(written.edited[0]).toContain('top\\_k');

    // the same broken file again: no second report
    brokenConfig(nock('https://api.github.com'), 'top_k: 10\nreview: sometimes\n');
    await openIssue();
    expect(written.edited).toHaveLength(1);
    expect(await h.store.countJobs('dead')).toBe(0);

    // fixed: the problem leaves the dashboard
    captureDashboard(
      noConfigFiles(nock('https://api.github.com'))
        .get(`/repos/${OWNER}/${REPO}/issues/1/comments`)
        .query(true)
        .reply(200, []),
      written,
    ).edit();
    await openIssue();
    expect(written.edited).toHaveLength(2);
    expect(written.edited[1]).not.toContain('Configuration problems');
  });

  it('falls back to the org defaults, and is logged once when there is no dashboard', async () => {
    const posted: string[] = [];
    await putInsight(h.store, 'm00000000f1', 'Codertocat/api', 'public');
    const scope = repoConfigFile(github(), 'top_k: [1, 2\n  oops: {\n')
      .get(`/repos/${OWNER}/.github/contents/${CONFIG}`)
      .reply(200, 'comment:\n  issues: false\n', { 'content-type': 'text/plain; charset=utf-8' });
    await h.probot.receive({
      id: delivery(),
      name: 'issues',
      payload: issueOpened(EMPTY_INPUT.title, EMPTY_INPUT.body),
    } as any);
    await h.worker.drain();
    expect(scope.isDone()).toBe(true);
    expect(posted).toEqual([]); // the org defaults turn issue comments off

    repoConfigFile(nock('https://api.github.com'), 'top_k: [1, 2\n  oops: {\n')
      .get(`/repos/${OWNER}/.github/contents/${CONFIG}`)
      .reply(200, 'comment:\n  issues: false\n', { 'content-type': 'text/plain; charset=utf-8' });
    await h.probot.receive({
      id: delivery(),
      name: 'issues',
      payload: issueOpened(EMPTY_INPUT.title, EMPTY_INPUT.body),
    } as any);
    await h.worker.drain();
    const reports = h.logs.filter((l) => l.level === 'warn' && l.message.includes('memory-transfer.yml'));
    expect(reports).toHaveLength(1);
    expect(JSON.stringify(reports[0]?.fields)).toMatch(/invalid YAML/);
    expect(await h.store.countJobs('dead')).toBe(0);
  });
});
