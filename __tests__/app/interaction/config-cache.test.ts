/**
 * The App reads a repository's configuration once per short while (point 7 of the integrity
 * issue): jobs of one repository share one read of its file and of the org's `.github` file, and a
 * push to the default branch that changes either file drops the cached configuration at once.
 */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../app-harness.js';
import { CONFIG, delivery, EMPTY_INPUT, example, issueOpened, OWNER, putInsight, REPO } from './helpers.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness({ configCache: true });
});
afterEach(async () => {
  await h.cleanup();
});

/** GitHub for any number of suggestion jobs on issue #1; reads of each config file counted. */
function gitHub() {
  const reads = { repo: 0, org: 0 };
  const scope = nock('https://api.github.com')
    .persist()
    .post('/app/installations/1/access_tokens')
    .reply(201, { token: 'ghs_test', expires_at: '2099-01-01T00:00:00Z', permissions: {} })
    .get(`/repos/${OWNER}/${REPO}/contents/${CONFIG}`)
    .reply(404, () => {
      reads.repo += 1;
      return { message: 'Not Found' };
    })
    .get(`/repos/${OWNER}/.github/contents/${CONFIG}`)
    .reply(404, () => {
      reads.org += 1;
      return { message: 'Not Found' };
    })
    .get(`/repos/${OWNER}/${REPO}/issues/1/comments`)
    .query(true)
    .reply(200, [])
    .post(`/repos/${OWNER}/${REPO}/issues/1/comments`)
    .reply(201, (_uri, body: any) => ({ id: 1001, body: body.body }));
  return { reads, done: () => scope.persist(false) };
}

async function suggestionJob(): Promise<void> {
  await h.probot.receive({
    id: delivery(),
    name: 'issues',
    payload: issueOpened(EMPTY_INPUT.title, EMPTY_INPUT.body),
  } as any);
  await h.worker.drain();
}

function push(
  repo: string,
  files: { added?: string[]; modified?: string[]; removed?: string[] },
  ref = 'refs/heads/master',
) {
  const payload = example('push', undefined as never, (p) => p.ref === 'refs/heads/master');
  payload.ref = ref;
  payload.repository.name = repo;
  payload.repository.full_name = `${OWNER}/${repo}`;
  payload.commits = [{ ...payload.commits[0], added: [], modified: [], removed: [], ...files }];
  payload.head_commit = payload.commits[0];
  return h.probot.receive({ id: delivery(), name: 'push', payload } as any);
}

describe('configuration read once per short while', () => {
  it('jobs of a repository share one read of both files; a push changing either drops it', async () => {
    await putInsight(h.store, 'm00000000a1', 'Codertocat/api', 'public');
    const github = gitHub();
    await suggestionJob();
    await suggestionJob();
    await suggestionJob();
    expect(github.reads).toEqual({ repo: 1, org: 1 });

    // pushes that do not change the file, or not on the default branch, keep it
    await push(REPO, { modified: ['README.md'] });
    await push(REPO, { modified: ['.github/memory-transfer.yml'] }, 'refs/heads/feature');
    await suggestionJob();
    expect(github.reads).toEqual({ repo: 1, org: 1 });

    // the repository's file changed on the default branch: read again, once
    await push(REPO, { modified: ['.github/memory-transfer.yml'] });
    await suggestionJob();
    await suggestionJob();
    expect(github.reads).toEqual({ repo: 2, org: 2 });

    // the organization's file (its .github repository) changed: every repository reads again
    await push('.github', { added: ['.github/memory-transfer.yml'] });
    await suggestionJob();
    expect(github.reads).toEqual({ repo: 3, org: 3 });
    github.done();
    nock.cleanAll();
  });

  it('once the short while is over, the files are read again', async () => {
    await putInsight(h.store, 'm00000000a1', 'Codertocat/api', 'public');
    const github = gitHub();
    await suggestionJob();
    h.advance(10 * 60_000);
    await suggestionJob();
    expect(github.reads).toEqual({ repo: 2, org: 2 });
    github.done();
    nock.cleanAll();
  });
});
