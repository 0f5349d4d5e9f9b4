import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadRepoConfig } from '../../../src/app/interaction/config.js';
import { DEFAULT_REPO_CONFIG } from '../../../src/core/repo-config.js';
import { createHarness, github, type Harness } from '../app-harness.js';
import { CONFIG, FULL, OWNER, REPO } from './helpers.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.cleanup();
});

const yaml = (text: string) => [200, text, { 'content-type': 'text/plain; charset=utf-8' }] as const;

async function load() {
  return loadRepoConfig(await h.probot.auth(1), FULL);
}

describe('loading .github/memory-transfer.yml', () => {
  it('uses the org defaults from the .github repository when the repository has no file', async () => {
    github()
      .get(`/repos/${OWNER}/${REPO}/contents/${CONFIG}`)
      .reply(404, { message: 'Not Found' })
      .get(`/repos/${OWNER}/.github/contents/${CONFIG}`)
      .reply(...yaml('review: comment\nfix_labels: [incident]\n'));
    const loaded = await load();
    expect(loaded.problems).toEqual([]);
    expect(loaded.config).toMatchObject({ review: 'comment', fix_labels: ['incident'], top_k: 3 });
  });

  it('follows _extends, deep-merging mappings and letting the extending file win; lists are replaced', async () => {
    github()
      .get(`/repos/${OWNER}/${REPO}/contents/${CONFIG}`)
      .reply(...yaml('_extends: .github\ntop_k: 2\ncomment:\n  failing_prs: false\nfix_labels: [regression]\n'))
      .get(`/repos/${OWNER}/.github/contents/${CONFIG}`)
      .reply(...yaml('top_k: 1\ncomment:\n  issues: false\nfix_labels: [incident, bug]\nreview: "off"\n'));
    const { config, problems } = await load();
    expect(problems).toEqual([]);
    expect(config).toMatchObject({
      top_k: 2,
      comment: { issues: false, failing_prs: false },
      fix_labels: ['regression'],
      review: 'off',
    });
  });

  it('reports an _extends loop as a problem and falls back', async () => {
    github()
      .get(`/repos/${OWNER}/${REPO}/contents/${CONFIG}`)
      .reply(...yaml('_extends: a\n'))
      .get(`/repos/${OWNER}/a/contents/${CONFIG}`)
      .reply(...yaml('_extends: b\n'))
      .get(`/repos/${OWNER}/b/contents/${CONFIG}`)
      .reply(...yaml('_extends: a\n'))
      .get(`/repos/${OWNER}/.github/contents/${CONFIG}`)
      .reply(404, { message: 'Not Found' });
    const loaded = await load();
    expect(loaded.rejected).toBe(true);
    expect(loaded.problems[0]).toMatch(/Recursion detected/);
    expect(loaded.config).toEqual(DEFAULT_REPO_CONFIG);
  });

  it('throws (so the job is retried) on a GitHub outage instead of using defaults', async () => {
    github().get(`/repos/${OWNER}/${REPO}/contents/${CONFIG}`).reply(502, { message: 'Bad Gateway' });
    await expect(load()).rejects.toMatchObject({ status: 502 });
  });

  it('never reads a config from outside GitHub: an _extends URL is read as a path on GitHub', async () => {
    github()
      .get(`/repos/${OWNER}/${REPO}/contents/${CONFIG}`)
      .reply(...yaml('_extends: "https://evil.example/config.yml"\ntop_k: 2\n'))
      // the only request it makes for that value goes to the GitHub API (and finds nothing)
      .get(`/repos/${OWNER}/https/contents/${encodeURIComponent('//evil.example/config.yml')}`)
      .reply(404, { message: 'Not Found' });
    const evil = nock('https://evil.example').get(/.*/).reply(200, 'top_k: 1\n');
    const loaded = await load();
    expect(loaded.config.top_k).toBe(2);
    expect(evil.isDone()).toBe(false);
    nock.cleanAll();
  });
});
