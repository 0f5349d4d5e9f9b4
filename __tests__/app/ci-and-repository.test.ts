import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Fix } from '../../src/core/types.js';
import { learnFix } from '../../src/services/learn.js';
import { createHarness, github, loadEvent, noConfig, type Harness } from './app-harness.js';

async function receive(h: Harness, name: string, payload: unknown, id = `d-${Math.random()}`): Promise<void> {
  await h.probot.receive({ id, name, payload } as never);
}

const SHA = '3484a3fb816e0859fd6e1cea078d76385ff50625';

function commitCalls(scope: nock.Scope, owner: string, repo: string, sha: string, author = 'octocat'): nock.Scope {
  return noConfig(scope, owner, repo)
    .get(`/repos/${owner}/${repo}`)
    .reply(200, { id: 300029405, private: true, visibility: 'private', language: 'Go' })
    .get(`/repos/${owner}/${repo}/commits/${sha}`)
    .reply(200, {
      sha,
      html_url: `https://github.com/${owner}/${repo}/commit/${sha}`,
      commit: {
        message: 'Handle a nil config in the loader\n\nThe job crashed on startup.',
        committer: { date: '2026-01-02T00:00:00Z' },
      },
      author: { login: author, type: 'User' },
      committer: { login: 'web-flow', type: 'User' },
      files: [
        { filename: 'config/load.go', patch: '@@ -1 +1,2 @@\n+if cfg == nil { return defaults }' },
        { filename: 'config/load_test.go', patch: '@@ -0,0 +1 @@\n+func TestNilConfig(t *testing.T) {}' },
      ],
    });
}

function fix(over: Partial<Fix> = {}): Fix {
  return {
    tenant: 'codertocat',
    repo: 'Codertocat/Hello-World',
    repoId: 186853002,
    visibility: 'public',
    sourceKind: 'pull_request',
    ref: '1',
    url: 'https://github.com/Codertocat/Hello-World/pull/1',
    title: 'Fix crash on empty input',
    problem: 'The parser crashed on empty input.',
    change: '+ if (!input) return [];',
    files: ['src/parse.ts', 'test/parse.test.ts'],
    testsChanged: true,
    signals: [{ kind: 'tests-changed' }],
    authors: ['Codertocat'],
    trusted: true,
    date: '2026-01-01T00:00:00Z',
    ...over,
  };
}

describe('CI going red → green on the default branch', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(async () => h.cleanup());

  it('workflow_run success after a failed run learns the fixing commit with the failure as evidence', async () => {
    await receive(h, 'workflow_run', loadEvent('workflow_run.completed'));
    let scope = github()
      .get('/repos/octo-org/octo-repo/actions/workflows/2823525/runs')
      .query(true)
      .reply(200, {
        total_count: 2,
        workflow_runs: [
          { id: 289782451, name: 'CI', conclusion: 'success', created_at: '2020-10-05T16:33:24Z' },
          { id: 289700000, name: 'CI', conclusion: 'failure', created_at: '2020-10-05T15:00:00Z' },
        ],
      })
      .get('/repos/octo-org/octo-repo/actions/runs/289700000/jobs')
      .query(true)
      .reply(200, { total_count: 1, jobs: [{ id: 77, name: 'unit tests', conclusion: 'failure' }] })
      .get(`/repos/octo-org/octo-repo/commits/${SHA}/pulls`)
      .reply(200, []);
    scope = commitCalls(scope, 'octo-org', 'octo-repo', SHA)
      .get('/repos/octo-org/octo-repo/check-runs/77/annotations')
      .query(true)
      .reply(200, [{ annotation_level: 'failure', title: 'load_test.go', message: 'panic: nil pointer dereference' }])
      .get('/repos/octo-org/octo-repo/collaborators/octocat/permission')
      .reply(200, { permission: 'write' });
    await h.worker.drain();
    scope.done();
    const memories = await h.store.listMemories('octo-org');
    expect(memories.length).toBeGreaterThan(0);
    expect(memories[0]?.provenance[0]).toMatchObject({
      repo: 'octo-org/octo-repo',
      sourceKind: 'commit',
      ref: SHA,
      visibility: 'private',
    });
  });

  it('a green run after a green run learns nothing', async () => {
    await receive(h, 'workflow_run', loadEvent('workflow_run.completed'));
    const scope = github()
      .get('/repos/octo-org/octo-repo/actions/workflows/2823525/runs')
      .query(true)
      .reply(200, {
        total_count: 1,
        workflow_runs: [{ id: 1, name: 'CI', conclusion: 'success', created_at: '2020-10-05T15:00:00Z' }],
      });
    await h.worker.drain();
    scope.done();
    expect(await h.store.listMemories('octo-org')).toEqual([]);
  });

  it('a green commit that belongs to a merged PR is learned as that PR (one natural key with pull_request.closed)', async () => {
    await receive(h, 'workflow_run', loadEvent('workflow_run.completed'));
    const scope = github()
      .get('/repos/octo-org/octo-repo/actions/workflows/2823525/runs')
      .query(true)
      .reply(200, {
        total_count: 1,
        workflow_runs: [{ id: 5, name: 'CI', conclusion: 'failure', created_at: '2020-10-05T15:00:00Z' }],
      })
      .get('/repos/octo-org/octo-repo/actions/runs/5/jobs')
      .query(true)
      .reply(200, { total_count: 0, jobs: [] })
      .get(`/repos/octo-org/octo-repo/commits/${SHA}/pulls`)
      .reply(200, [{ number: 12, merged_at: '2020-10-05T16:00:00Z', merge_commit_sha: SHA }]);
    h.worker.register('learn-pr', async () => undefined);
    await h.worker.drain();
    scope.done();
    expect(await h.worker.enqueue(`fix:300029405:pr:12:${SHA}`, 'learn-pr', {})).toBe(false);
  });

  it('a third-party check suite green after a failed suite on the previous commit learns the commit', async () => {
    const event = loadEvent('check_suite.completed');
    event.check_suite.app = { id: 1234, slug: 'circleci' };
    const sha = event.check_suite.head_sha as string;
    await receive(h, 'check_suite', event);
    let scope = github()
      .get(`/repos/Codertocat/Hello-World/commits/${event.check_suite.before}/check-runs`)
      .query((q) => q.app_id === '1234')
      .reply(200, { total_count: 1, check_runs: [{ id: 88, name: 'build', conclusion: 'failure' }] })
      .get(`/repos/Codertocat/Hello-World/commits/${sha}/pulls`)
      .reply(200, []);
    scope = commitCalls(scope, 'Codertocat', 'Hello-World', sha, 'Codertocat')
      .get('/repos/Codertocat/Hello-World/check-runs/88/annotations')
      .query(true)
      .reply(200, [])
      .get('/repos/Codertocat/Hello-World/actions/jobs/88/logs')
      .reply(404, { message: 'Not Found' })
      .get('/repos/Codertocat/Hello-World/collaborators/Codertocat/permission')
      .reply(200, { permission: 'admin' });
    await h.worker.drain();
    scope.done();
    expect((await h.store.listMemories('codertocat')).length).toBeGreaterThan(0);
  });

  it('ignores GitHub Actions check suites (workflow_run covers them) and non-default branches', async () => {
    await receive(h, 'check_suite', loadEvent('check_suite.completed'));
    const run = loadEvent('workflow_run.completed');
    run.workflow_run.head_branch = 'feature';
    await receive(h, 'workflow_run', run);
    expect(await h.store.countJobs('pending')).toBe(0);
  });
});

describe('installation and repository events', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(async () => h.cleanup());

  it('a new installation backfills a bounded number of merged PRs per repository', async () => {
    await receive(h, 'installation', loadEvent('installation.created'));
    expect(await h.store.countJobs('pending')).toBe(1);
    const pr = {
      number: 4,
      url: 'https://github.com/Codertocat/Hello-World/pull/4',
      title: 'Fix crash when the cache is empty',
      body: 'Adds a regression test.',
      mergedAt: '2025-01-01T00:00:00Z',
      changedFiles: 2,
      mergeCommit: { oid: 'abc' },
      author: { login: 'Codertocat', __typename: 'User' },
      mergedBy: { login: 'Codertocat', __typename: 'User' },
      labels: { nodes: [{ name: 'bug' }] },
      files: { nodes: [{ path: 'src/cache.ts' }, { path: 'test/cache.test.ts' }] },
      closingIssuesReferences: { nodes: [] },
    };
    const scope = noConfig(github(957387), 'Codertocat', 'Hello-World')
      .post('/graphql', (body: { variables: { first: number } }) => body.variables.first === 20)
      .reply(200, {
        data: {
          repository: {
            databaseId: 186853002,
            nameWithOwner: 'Codertocat/Hello-World',
            isPrivate: false,
            visibility: 'PUBLIC',
            primaryLanguage: null,
            pullRequests: { totalCount: 1, pageInfo: { hasNextPage: false, endCursor: 'c1' }, nodes: [pr] },
          },
        },
      })
      .get('/repos/Codertocat/Hello-World/collaborators/Codertocat/permission')
      .reply(200, { permission: 'admin' });
    await h.worker.drain();
    scope.done();
    expect(await h.store.isFixLearned('codertocat', 'Codertocat/Hello-World', '4')).toBe(true);
  });

  it('repositories added to an installation are backfilled too', async () => {
    await receive(h, 'installation_repositories', loadEvent('installation_repositories.added'));
    expect(await h.store.countJobs('pending')).toBe(1);
  });

  it('a repository made private makes what was learned from it private', async () => {
    await learnFix(h.deps, fix());
    const before = await h.store.listMemories('codertocat');
    expect(before.every((m) => m.visibility === 'public')).toBe(true);
    await receive(h, 'repository', loadEvent('repository.privatized'));
    await h.worker.drain();
    const after = await h.store.listMemories('codertocat');
    expect(after).toHaveLength(before.length);
    expect(after.every((m) => m.visibility === 'private' && m.provenance[0]?.visibility === 'private')).toBe(true);
  });

  it('a repository made public keeps its memories as private as they were learned', async () => {
    await learnFix(h.deps, fix({ visibility: 'private' }));
    await receive(h, 'repository', loadEvent('repository.publicized'));
    await h.worker.drain();
    expect((await h.store.listMemories('codertocat')).every((m) => m.visibility === 'private')).toBe(true);
  });

  it('a deleted repository: what was learned only from it is revoked, and the audit log says so', async () => {
    await learnFix(h.deps, fix());
    expect((await h.store.listMemories('codertocat')).length).toBeGreaterThan(0);
    await receive(h, 'repository', loadEvent('repository.deleted'));
    await h.worker.drain();
    expect(
      await h.store.listMemories('codertocat', { status: ['proposed', 'active', 'rejected', 'archived'] }),
    ).toEqual([]);
    expect(await h.store.isFixLearned('codertocat', 'Codertocat/Hello-World', '1')).toBe(false);
    expect((await h.store.listAudit('codertocat')).some((e) => e.action === 'revoke-source')).toBe(true);
  });

  it('a repository transferred to another owner is revoked from the old pool; a rename keeps it under the new name', async () => {
    const moved = {
      tenant: 'octocat',
      repo: 'octocat/Hello-World',
      repoId: 186853261,
      url: 'https://github.com/octocat/Hello-World/pull/1',
    };
    await learnFix(h.deps, fix(moved));
    await receive(h, 'repository', loadEvent('repository.transferred'));
    await h.worker.drain();
    expect(await h.store.listMemories('octocat')).toEqual([]);

    const renamed = {
      tenant: 'octocoders',
      repo: 'Octocoders/Hello-World',
      repoId: 186853261,
      url: 'https://github.com/Octocoders/Hello-World/pull/1',
    };
    const event = loadEvent('repository.renamed');
    event.repository.name = 'Hello-Universe';
    event.repository.full_name = 'Octocoders/Hello-Universe';
    await learnFix(h.deps, fix(renamed));
    await receive(h, 'repository', event);
    await h.worker.drain();
    const memories = await h.store.listMemories('octocoders');
    expect(memories.length).toBeGreaterThan(0);
    expect(memories.every((m) => m.provenance[0]?.repo === 'Octocoders/Hello-Universe')).toBe(true);
    expect(memories[0]?.provenance[0]?.url).toBe('https://github.com/Octocoders/Hello-Universe/pull/1');
  });
});
