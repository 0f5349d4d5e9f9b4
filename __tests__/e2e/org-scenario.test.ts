/**
 * End to end, the way a product owner tells it: one organization (acme) with two private
 * repositories (api, web) and one public (site), over the REAL HTTP server (`startServer` on port
 * 0), signed webhooks, a real temp SQLite pool, no LLM key (the rule-based abstractor). GitHub
 * (api.github.com) and GitHub's OIDC key set are nock'd; every mock must be used.
 *
 * The steps share one server and one pool and run in order: each `it` is one step of the story.
 * `E2E_LOGS=1 npx vitest run __tests__/e2e` prints the server's log (every GitHub call it made).
 */
import { Writable } from 'node:stream';
import nock from 'nock';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/app/server.js';
import { readServeConfig } from '../../src/app/settings.js';
import { GITHUB_OIDC_ISSUER } from '../../src/app/http/oidc.js';
import { COMMENT_HEADING } from '../../src/core/rendering/comment-render.js';
import type { InjectedInsight } from '../../src/core/rendering/render-injection.js';
import { runRef } from '../../src/services/usage.js';
import type { Store } from '../../src/store/store.js';
import { harness as actionHarness, examplePayload } from '../action/harness.js';
import { TestOctokit, WEBHOOK_SECRET, sign, tempPool, testPrivateKey } from '../app/app-harness.js';
import { makeIssuer, type TestIssuer } from '../app/http/oidc-helpers.js';
import { example } from '../app/interaction/helpers.js';

// ---- the organization -------------------------------------------------------------------------
const ORG = { login: 'acme', id: 100 };
const INSTALLATION = 55;
const API = { id: 2001, name: 'api', visibility: 'private' as const };
const WEB = { id: 2002, name: 'web', visibility: 'private' as const };
const SITE = { id: 2003, name: 'site', visibility: 'public' as const };
type Repo = typeof API | typeof WEB | typeof SITE;
const OTHER_ORG = { login: 'globex', id: 900 };

const WRITER = 'ada';
/** planted in the private fix: must never reach site (public) nor another org */
const CANARY = 'CANARY-e2e-5d1f-acme-api-private';
interface FixSpec {
  number: number;
  title: string;
  body: string;
  mergeSha: string;
  files: { filename: string; status: string; patch: string }[];
}

/** The fix the story is about: crash on an empty request body, with a regression test. */
const FIX: FixSpec = {
  number: 41,
  title: 'Fix crash on empty request body',
  body: `The handler crashed on an empty request body; it now answers 400. Adds a regression test. ${CANARY}`,
  mergeSha: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
  files: [
    {
      filename: 'src/http/parse-body.ts',
      status: 'modified',
      patch:
        '@@ -3,3 +3,4 @@\n export function parseBody(raw: string) {\n+  if (raw.trim() === "") throw new BadRequest("empty body");\n   return JSON.parse(raw);',
    },
    {
      filename: 'test/http/parse-body.test.ts',
      status: 'added',
      patch:
        "@@ -0,0 +1,3 @@\n+it('answers 400 for an empty request body', () => {\n+  expect(() => parseBody('')).toThrow(BadRequest);\n+});",
    },
  ],
};

/** A later fix in acme/api: whitespace-only message payloads crashed the consumer. */
const SECOND_FIX: FixSpec = {
  number: 42,
  title: 'Fix consumer crash on a whitespace-only message payload',
  body: 'A message whose payload is only whitespace crashed the consumer; it is now rejected. Adds a test.',
  mergeSha: 'b2c3d4e5f60718293a4b5c6d7e8f901234567890',
  files: [
    {
      filename: 'src/queue/consume.ts',
      status: 'modified',
      patch:
        '@@ -8,3 +8,4 @@\n export function decode(message: Message) {\n+  if (!message.payload.trim()) return reject(message, "blank payload");\n   return JSON.parse(message.payload);',
    },
    {
      filename: 'test/queue/consume.test.ts',
      status: 'modified',
      patch:
        "@@ -20,0 +21,3 @@\n+it('rejects a whitespace-only payload', () => {\n+  expect(decode({ payload: '  ' })).toEqual(rejected);\n+});",
    },
  ],
};
const FIX_PR = FIX.number;
const TASK = 'worker crashes when the message payload is empty';
const CONFIG = encodeURIComponent('.github/memory-transfer.yml');
const ISSUE = 17;
const COMMENT_ID = 9001;

const GH = 'https://api.github.com';

function repository(repo: Repo, owner = ORG) {
  return {
    id: repo.id,
    name: repo.name,
    full_name: `${owner.login}/${repo.name}`,
    private: repo.visibility !== 'public',
    visibility: repo.visibility,
    owner: { login: owner.login, id: owner.id, type: 'Organization' },
  };
}

// ---- the merged fix in acme/api -----------------------------------------------------------------
/** A real `pull_request.closed` example moved to acme/api and merged by a writer. */
function mergedFixPayload(fix: FixSpec = FIX) {
  const payload = example('pull_request', 'closed');
  payload.installation = { id: INSTALLATION };
  payload.repository = { ...payload.repository, ...repository(API) };
  payload.organization = { login: ORG.login, id: ORG.id };
  payload.sender = { ...payload.sender, login: WRITER, type: 'User' };
  payload.number = fix.number;
  Object.assign(payload.pull_request, {
    number: fix.number,
    title: fix.title,
    body: fix.body,
    merged: true,
    merged_at: '2026-11-30T10:00:00Z',
    merge_commit_sha: fix.mergeSha,
    user: { ...payload.pull_request.user, login: WRITER, type: 'User' },
    merged_by: { ...payload.pull_request.user, login: WRITER, type: 'User' },
  });
  return payload;
}

/** GitHub's GraphQL answer for the pull request (src/github/queries.ts PULL_REQUEST_QUERY). */
function fixGraph(fix: FixSpec = FIX) {
  const url = `https://github.com/acme/api/pull/${fix.number}`;
  return {
    data: {
      repository: {
        databaseId: API.id,
        nameWithOwner: 'acme/api',
        isPrivate: true,
        visibility: 'PRIVATE',
        primaryLanguage: { name: 'TypeScript' },
        pullRequest: {
          number: fix.number,
          url,
          title: fix.title,
          body: fix.body,
          merged: true,
          mergedAt: '2026-11-30T10:00:00Z',
          changedFiles: 2,
          mergeCommit: { oid: fix.mergeSha },
          author: { login: WRITER, __typename: 'User' },
          mergedBy: { login: WRITER, __typename: 'User' },
          labels: { nodes: [{ name: 'bug' }] },
          commits: {
            nodes: [
              {
                commit: {
                  oid: fix.mergeSha,
                  message: `fix: ${fix.title}`,
                  checkSuites: { nodes: [{ checkRuns: { nodes: [] } }] },
                },
              },
            ],
          },
          closingIssuesReferences: { nodes: [] },
        },
      },
    },
  };
}

/** A real `issues.opened` example: grace reports the empty-payload crash in acme/<repo>. */
function issueOpenedIn(repo: Repo) {
  const payload = examplePayload('issues', 'opened');
  Object.assign(payload, {
    installation: { id: INSTALLATION },
    repository: { ...(payload.repository as object), ...repository(repo) },
    sender: { login: 'grace', id: 7, type: 'User' },
  });
  Object.assign(payload.issue as object, {
    number: ISSUE,
    title: 'Worker crashes when the message payload is empty',
    body: 'Sending a message with an empty payload crashes the worker instead of rejecting it.',
    state: 'open',
    user: { login: 'grace', id: 7, type: 'User' },
  });
  return payload;
}

// ---- helpers over the real server ---------------------------------------------------------------
let server: RunningServer;
let store: Store;
let cleanup: () => Promise<void>;
let issuer: TestIssuer;
const logLines: string[] = [];
let deliveries = 0;

async function deliver(event: string, payload: unknown): Promise<Response> {
  deliveries += 1;
  const body = JSON.stringify(payload);
  return fetch(`${server.url}/api/github/webhooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': event,
      'x-github-delivery': `e2e-delivery-${deliveries}`,
      'x-hub-signature-256': sign(body),
    },
    body,
  });
}

/** Runs the durable queue until it is empty (the worker is not started: no timers, no races). */
async function drain(): Promise<number> {
  return (await server.worker?.drain()) ?? 0;
}

async function deadJobs(): Promise<number> {
  return store.countJobs('dead');
}

function runToken(repo: Repo, claims: Record<string, unknown> = {}): Promise<string> {
  return issuer.sign({
    repository: `acme/${repo.name}`,
    repository_id: String(repo.id),
    repository_owner: ORG.login,
    repository_owner_id: String(ORG.id),
    repository_visibility: repo.visibility,
    sub: `repo:acme/${repo.name}:ref:refs/heads/main`,
    event_name: 'workflow_dispatch',
    ...claims,
  });
}

async function recallOverHttp(token: string, body: Record<string, unknown>) {
  const response = await fetch(`${server.url}/api/v1/recall`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

/** The installation lookups the recall API makes for a run's repository, by id. */
function installedRepoLookups(scope: nock.Scope, repo: Repo): nock.Scope {
  return scope
    .get(`/repositories/${repo.id}`)
    .reply(200, repository(repo))
    .get(`/repos/acme/${repo.name}/installation`)
    .reply(200, { id: INSTALLATION, account: { login: ORG.login, id: ORG.id } });
}

function noConfigFor(scope: nock.Scope, repo: string): nock.Scope {
  return scope
    .get(`/repos/acme/${repo}/contents/${CONFIG}`)
    .reply(404, { message: 'Not Found' })
    .get(`/repos/acme/.github/contents/${CONFIG}`)
    .reply(404, { message: 'Not Found' });
}

const idsIn = (body: string) => [...body.matchAll(/`(m[0-9a-f]{10})`/g)].map((m) => m[1] ?? '');

// ---- the story ----------------------------------------------------------------------------------
describe('acme: a fix learned in a private repository helps another private repository, never the public one', () => {
  let learnedId = '';

  beforeAll(async () => {
    issuer = await makeIssuer('acme-e2e-key');
    ({ store, cleanup } = await tempPool());
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    server = await startServer({
      config: readServeConfig({
        APP_ID: '1',
        PRIVATE_KEY: testPrivateKey(),
        WEBHOOK_SECRET,
        PORT: '0',
        HOST: '127.0.0.1',
      }),
      store,
      log: pino({ level: 'debug' }, sink),
      Octokit: TestOctokit,
      worker: false,
      // no OPENAI_API_KEY: the rule-based abstractor, lexical recall
      env: {},
    });
  });

  afterAll(async () => {
    if (process.env.E2E_LOGS) console.log(logLines.join(''));
    await server?.stop();
    await cleanup?.();
  });

  it('1. a merged fix in acme/api by a writer arrives as a signed webhook and the worker learns it', async () => {
    const github = nock(GH)
      .post(`/app/installations/${INSTALLATION}/access_tokens`)
      .reply(201, { token: 'ghs_e2e', expires_at: '2099-01-01T00:00:00Z', permissions: {} });
    noConfigFor(github, 'api')
      .post('/graphql', (body: { query: string }) => body.query.includes('pullRequest(number'))
      .reply(200, fixGraph())
      .get(`/repos/acme/api/pulls/${FIX_PR}/files`)
      .query({ per_page: 100, page: 1 })
      .reply(200, FIX.files)
      .get(`/repos/acme/api/collaborators/${WRITER}/permission`)
      .reply(200, { permission: 'write', role_name: 'write', user: { login: WRITER } });

    const response = await deliver('pull_request', mergedFixPayload());
    expect(response.status).toBe(200);
    // acknowledged as soon as the delivery is recorded: nothing is learned yet
    expect(await store.listMemories('acme')).toEqual([]);
    await drain();

    github.done();
    expect(await deadJobs()).toBe(0);
    expect(await store.isFixLearned('acme', 'acme/api', String(FIX_PR))).toBe(true);
    const insights = (await store.listMemories('acme')).filter((m) => m.level === 'insight');
    expect(insights.length).toBeGreaterThan(0);
    const insight = insights[0]!;
    expect(insight.status).toBe('active');
    expect(insight.visibility).toBe('private');
    expect(insight.provenance[0]).toMatchObject({
      repo: 'acme/api',
      ref: String(FIX_PR),
      url: `https://github.com/acme/api/pull/${FIX_PR}`,
      visibility: 'private',
    });
    learnedId = insight.id;
  });

  it('2. the Action in server mode, in a run of acme/web, recalls the insight from acme/api and reports usage', async () => {
    nock(GITHUB_OIDC_ISSUER).get('/.well-known/jwks').reply(200, issuer.jwks);
    installedRepoLookups(
      nock(GH)
        .get('/app/installations')
        .query({ per_page: 100, page: 1 })
        .reply(200, [{ id: INSTALLATION, account: { login: ORG.login, id: ORG.id } }]),
      WEB,
    );
    const token = await runToken(WEB);
    const action = await actionHarness({
      inputs: { 'server-url': server.url, task: TASK, target: 'agents-md' },
      event: 'workflow_dispatch',
      payload: {},
      repository: 'acme/web',
      getIdToken: async (audience) => {
        expect(audience).toBe('memory-transfer');
        return token;
      },
    });
    const result = await action.run();

    expect(action.failures).toEqual([]);
    expect(action.warnings).toEqual([]);
    expect(result?.recallError).toBeUndefined();
    const insights = JSON.parse(action.outputs['insights-json'] ?? '[]') as InjectedInsight[];
    const learned = insights.find((i) => i.id === learnedId);
    expect(learned, `the insight learned in acme/api among ${action.outputs.ids}`).toBeDefined();
    expect(learned).toMatchObject({
      transferred: true,
      source: { repo: 'acme/api', url: `https://github.com/acme/api/pull/${FIX_PR}` },
    });
    expect(await action.read('AGENTS.md')).toContain(`https://github.com/acme/api/pull/${FIX_PR}`);
    expect(result?.usageReported).toBe(insights.length);
    const usage = await store.listUsage('acme', runRef('acme/web', '777'));
    expect(usage.map((u) => u.memoryId)).toContain(learnedId);
  });

  it('3. the same request from a run of acme/site (public) gets nothing from the private repository', async () => {
    installedRepoLookups(nock(GH), SITE);
    const token = await runToken(SITE);
    const action = await actionHarness({
      inputs: { 'server-url': server.url, task: TASK, target: 'agents-md' },
      event: 'workflow_dispatch',
      payload: {},
      repository: 'acme/site',
      getIdToken: async () => token,
    });
    await action.run();
    expect(action.failures).toEqual([]);
    expect(action.outputs.count).toBe('0');
    for (const output of Object.values(action.outputs)) {
      expect(output).not.toContain(learnedId);
      expect(output).not.toContain('acme/api');
    }

    // the canary is really in the pool: the private fix's trajectory (its PR text) holds it, and a
    // run of acme/api itself may read it, so its absence below means something; concrete levels
    // never leave their repository, not even for another private repository of the org
    const wide = { task: `${TASK} ${CANARY}`, top_k: 10, min_score: 0 };
    installedRepoLookups(nock(GH), API);
    const fromApi = await recallOverHttp(await runToken(API), { ...wide, level: 'trajectory' });
    expect(fromApi.status).toBe(200);
    expect(fromApi.text).toContain(CANARY);
    const fromWeb = await recallOverHttp(await runToken(WEB), { ...wide, level: 'trajectory' });
    expect(fromWeb.status).toBe(200);
    expect(fromWeb.text).not.toContain(CANARY);

    // asked directly from acme/site, as widely as the API allows, at every level
    for (const level of ['insight', 'summary', 'workflow', 'trajectory']) {
      const direct = await recallOverHttp(token, { ...wide, level });
      expect(direct.status).toBe(200);
      // nothing of it, but how many relevant insights were withheld (a count, never an id)
      const body = JSON.parse(direct.text) as { insights: unknown[]; withheld?: { ids: string[] } };
      expect(body.insights).toEqual([]);
      expect(body.withheld?.ids ?? []).toEqual([]);
      expect(direct.text).not.toContain(CANARY);
      expect(direct.text).not.toContain('acme/api');
      expect(direct.text).not.toContain(learnedId);
    }

    // a new issue in acme/site about the same crash: no comment at all (nothing it may see clears the bar)
    const silent = noConfigFor(nock(GH), 'site')
      .get(`/repos/acme/site/issues/${ISSUE}/comments`)
      .query(true)
      .reply(200, []);
    expect((await deliver('issues', issueOpenedIn(SITE))).status).toBe(200);
    await drain();
    silent.done();
    expect(await deadJobs()).toBe(0);
    expect(await store.countJobs('pending')).toBe(0);
  });

  it('4. a token from another org that has not installed the App is refused and learns nothing', async () => {
    // the list of installations read in step 2 is fresh: an unknown owner costs no GitHub call
    const token = await issuer.sign({
      repository: 'globex/app',
      repository_id: '31337',
      repository_owner: OTHER_ORG.login,
      repository_owner_id: String(OTHER_ORG.id),
      repository_visibility: 'private',
      event_name: 'workflow_dispatch',
    });
    const response = await recallOverHttp(token, {
      task: `${TASK} ${CANARY}`,
      top_k: 10,
      min_score: 0,
      level: 'trajectory',
    });
    expect([401, 403]).toContain(response.status);
    expect(response.text).not.toContain(CANARY);
    expect(response.text).not.toContain('acme/api');
    expect(response.text).not.toContain(learnedId);
    expect(response.text).not.toContain('insights');

    // a token naming acme/web but carrying the other org's owner id is refused too (ids, not names)
    const spoof = await issuer.sign({
      repository: 'acme/web',
      repository_id: String(WEB.id),
      repository_owner: 'acme',
      repository_owner_id: String(OTHER_ORG.id),
      event_name: 'workflow_dispatch',
    });
    const spoofed = await recallOverHttp(spoof, { task: TASK });
    expect([401, 403]).toContain(spoofed.status);
    expect(spoofed.text).not.toContain(learnedId);
  });

  it('5. a new issue in acme/web about an empty payload gets one comment listing the insight, edited in place later', async () => {
    const posted: string[] = [];
    const edited: string[] = [];
    const opened = issueOpenedIn(WEB);
    const first = noConfigFor(nock(GH), 'web')
      .get(`/repos/acme/web/issues/${ISSUE}/comments`)
      .query(true)
      .reply(200, [])
      .post(`/repos/acme/web/issues/${ISSUE}/comments`)
      .reply(201, (_uri, body: any) => {
        posted.push(body.body);
        return { id: COMMENT_ID, body: body.body, user: { login: 'memory-transfer[bot]', type: 'Bot' } };
      });
    expect((await deliver('issues', opened)).status).toBe(200);
    await drain();
    first.done();
    expect(await deadJobs()).toBe(0);

    expect(posted).toHaveLength(1);
    const comment = posted[0] ?? '';
    expect(comment.startsWith(COMMENT_HEADING)).toBe(true);
    expect(idsIn(comment)).toContain(learnedId);
    expect(comment).toContain(`https://github.com/acme/api/pull/${FIX_PR}`);
    expect(comment).toMatch(/React 👍 or 👎/);

    // the reporter edits the issue; nothing new clears the bar: same comment, unchanged, no second comment
    const editedIssue = (body: string, from: string) => {
      const payload = example('issues', 'edited');
      return Object.assign(payload, {
        installation: { id: INSTALLATION },
        repository: { ...payload.repository, ...repository(WEB) },
        sender: { login: 'grace', id: 7, type: 'User' },
        issue: { ...(opened.issue as object), body },
        changes: { body: { from } },
      });
    };
    const firstBody = (opened.issue as { body: string }).body;
    const secondBody = `${firstBody} It also crashes when the payload is only whitespace.`;
    // the configuration was read for the first job: kept for a short while, not read again
    const unchanged = nock(GH);
    expect((await deliver('issues', editedIssue(secondBody, firstBody))).status).toBe(200);
    await drain();
    unchanged.done();
    expect(posted).toHaveLength(1);
    expect(await store.countJobs('pending')).toBe(0);
    expect(await deadJobs()).toBe(0);

    // meanwhile acme/api merges a second fix (whitespace-only payloads), learned like the first
    const secondFix = nock(GH)
      .post('/graphql', (body: { query: string }) => body.query.includes('pullRequest(number'))
      .reply(200, fixGraph(SECOND_FIX))
      .get(`/repos/acme/api/pulls/${SECOND_FIX.number}/files`)
      .query({ per_page: 100, page: 1 })
      .reply(200, SECOND_FIX.files);
    expect((await deliver('pull_request', mergedFixPayload(SECOND_FIX))).status).toBe(200);
    await drain();
    secondFix.done();
    expect(await store.isFixLearned('acme', 'acme/api', String(SECOND_FIX.number))).toBe(true);

    // the issue is edited again: the same comment is edited in place, never a second one
    const edit = nock(GH)
      .get(`/repos/acme/web/issues/comments/${COMMENT_ID}/reactions`)
      .query(true)
      .reply(200, [])
      .patch(`/repos/acme/web/issues/comments/${COMMENT_ID}`)
      .reply(200, (_uri, body: any) => {
        edited.push(body.body);
        return { id: COMMENT_ID, body: body.body };
      });
    expect((await deliver('issues', editedIssue(`${secondBody} Seen again today.`, secondBody))).status).toBe(200);
    await drain();
    edit.done();
    expect(await deadJobs()).toBe(0);
    expect(posted).toHaveLength(1);
    expect(edited).toHaveLength(1);
    expect(edited[0]?.startsWith(COMMENT_HEADING)).toBe(true);
    expect(idsIn(edited[0] ?? '')).toContain(learnedId);
    expect(edited[0]).not.toBe(comment);
    expect(edited[0]).toMatch(/React 👍 or 👎/);
  });

  it('6. the server logged no error during the whole story', () => {
    const errors = logLines.filter((line) => /"level":(50|60)/.test(line));
    expect(errors).toEqual([]);
  });
});
