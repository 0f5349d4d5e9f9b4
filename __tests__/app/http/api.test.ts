import nock from 'nock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTaskReader } from '../../../src/abstraction/llm-task-reader.js';
import type { InstalledRepository } from '../../../src/app/http/oidc.js';
import { llmConfigFromEnv } from '../../../src/config/llm.js';
import { silentLogger } from '../../../src/ports/index.js';
import type { Memory } from '../../../src/core/types.js';
import { recordPullRequestOutcome, recordRunOutcome } from '../../../src/services/usage.js';
import { chatCompletion } from '../../helpers/openai-server.js';
import { sampleMemory } from '../../helpers/sample-memory.js';
import { startApi, type ApiHarness } from './api-harness.js';
import { ACME_WEB, fakeDirectory, makeIssuer, type TestIssuer } from './oidc-helpers.js';

const CANARY = 'CANARY-91be-from-a-private-repo';
const ACME_CORE: InstalledRepository = { ...ACME_WEB, repoId: 4343, fullName: 'acme/core', visibility: 'private' };
const OTHER_ORG: InstalledRepository = {
  installationId: 66,
  ownerId: 200,
  ownerLogin: 'globex',
  repoId: 5151,
  fullName: 'globex/app',
  visibility: 'private',
};

function insight(id: string, overrides: Partial<Memory>): Memory {
  const base = sampleMemory();
  return sampleMemory({
    id,
    title: 'Run migration tests against a fresh database',
    description: 'After changing a database migration, apply every migration to an empty database in a test.',
    content: 'Create a fresh database in the test run, apply all migrations, then run the schema tests.',
    tags: ['routine:migration'],
    provenance: [
      {
        ...base.provenance[0]!,
        repo: 'acme/api',
        visibility: 'public',
        sourceKind: 'pull_request',
        ref: '12',
        url: 'https://github.com/acme/api/pull/12',
      },
    ],
    visibility: 'public',
    ...overrides,
  });
}

const PUBLIC_ID = 'm0000000001';
const PRIVATE_ID = 'm0000000002';
const PROPOSED_ID = 'm0000000003';
const GLOBEX_ID = 'm0000000004';
const TASK = 'the database migration fails on a fresh install';

let issuer: TestIssuer;
let api: ApiHarness;
beforeAll(async () => {
  issuer = await makeIssuer();
  api = await startApi({
    directory: fakeDirectory([ACME_WEB, ACME_CORE, OTHER_ORG], { '4242#8': 4242, '4242#9': 31337 }),
    jwks: issuer.localJwks,
    rateLimitPerMinute: 1000,
  });
  await api.store.putMemory(insight(PUBLIC_ID, {}));
  await api.store.putMemory(
    insight(PRIVATE_ID, {
      title: `Migration routine ${CANARY}`,
      content: `Fresh database migration tests ${CANARY}`,
      provenance: [{ ...sampleMemory().provenance[0]!, repo: 'acme/secret', visibility: 'private' }],
      visibility: 'private',
    }),
  );
  await api.store.putMemory(insight(PROPOSED_ID, { status: 'proposed', title: 'Proposed database migration routine' }));
  await api.store.putMemory(
    insight('m0000000005', {
      tenant: 'globex',
      title: 'Lint after renames',
      description: 'Renamed exports break imports.',
      content: 'Run the linter.',
      tags: [],
    }),
  );
  await api.store.putMemory(
    insight(GLOBEX_ID, {
      tenant: 'globex',
      provenance: [{ ...sampleMemory().provenance[0]!, tenant: 'globex', repo: 'globex/lib', visibility: 'public' }],
    }),
  );
});
afterAll(async () => api.close());

const acmeWebToken = (claims: Record<string, unknown> = {}) => issuer.sign(claims);
const acmeCoreToken = (claims: Record<string, unknown> = {}) =>
  issuer.sign({ repository: 'acme/core', repository_id: '4343', repository_visibility: 'private', ...claims });

describe('POST /api/v1/recall', () => {
  it('answers the insights the run may see, with scores and the source link', async () => {
    const res = await api.post('/api/v1/recall', { task: TASK }, { token: await acmeWebToken() });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const ids = res.json.insights.map((i: { id: string }) => i.id);
    expect(ids).toContain(PUBLIC_ID);
    expect(res.json.insights[0]).toMatchObject({
      id: PUBLIC_ID,
      transferred: true,
      source: { repo: 'acme/api', url: 'https://github.com/acme/api/pull/12' },
    });
    expect(res.json.insights[0].score).toBeGreaterThan(0);
  });

  it("reports the kind of task it read: the rules', or the model's when one reads tasks", async () => {
    const task = 'Crash on an empty migration file';
    const byRules = await api.post('/api/v1/recall', { task }, { token: await acmeWebToken() });
    expect(byRules.json.task_kind).toBe('failure');
    nock('https://llm.test')
      .post('/v1/chat/completions')
      .reply(200, chatCompletion({ task_kind: 'question', routines: [] }));
    api.deps.taskReader = createTaskReader(
      llmConfigFromEnv({
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: 'https://llm.test/v1',
        MEMORY_TRANSFER_LLM_RETRIES: '0',
      }),
      silentLogger,
    );
    try {
      const byModel = await api.post('/api/v1/recall', { task: `${task}.` }, { token: await acmeWebToken() });
      expect(byModel.json).toEqual({ insights: [], task_kind: 'question' });
    } finally {
      delete api.deps.taskReader;
    }
  });

  it("visibility: a private repository's insight never reaches a public repository's run", async () => {
    const res = await api.post(
      '/api/v1/recall',
      { task: `${TASK} ${CANARY}`, top_k: 10, min_score: 0 },
      { token: await acmeWebToken() },
    );
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(CANARY);
    expect(res.text).not.toContain('acme/secret');
    expect(res.text).not.toContain(PRIVATE_ID);
  });

  it("says how many relevant insights a public run may not see, by count only (never a private insight's id)", async () => {
    const res = await api.post(
      '/api/v1/recall',
      { task: `${TASK} ${CANARY}`, top_k: 10, min_score: 0 },
      {
        token: await acmeWebToken(),
      },
    );
    expect(res.status).toBe(200);
    expect(res.json.withheld).toEqual({ count: expect.any(Number), ids: [], visibility: 'public' });
    expect(res.json.withheld.count).toBeGreaterThan(0);
    expect(res.text).not.toContain(PRIVATE_ID);
  });

  it('a private repository of the same org sees it; proposed memories and other orgs never show', async () => {
    const res = await api.post(
      '/api/v1/recall',
      { task: TASK, top_k: 10, min_score: 0 },
      { token: await acmeCoreToken() },
    );
    expect(res.status).toBe(200);
    const ids = res.json.insights.map((i: { id: string }) => i.id);
    expect(ids).toContain(PRIVATE_ID);
    expect(ids).not.toContain(PROPOSED_ID);
    expect(ids).not.toContain(GLOBEX_ID);
  });

  it('a public run that claims to be private is still treated as public (GitHub data wins when more public)', async () => {
    const res = await api.post(
      '/api/v1/recall',
      { task: TASK, top_k: 10, min_score: 0 },
      { token: await acmeWebToken({ repository_visibility: 'private' }) },
    );
    expect(res.text).not.toContain(CANARY);
  });

  it.each([
    [{ task: '' }, /^task: must not be empty/],
    [{ task: 'x', top_k: 50 }, /^top_k: /],
    [{ task: 'x', level: 'essay' }, /^level: /],
    [{ task: 'x', extra: 1 }, /^body: .*extra/],
    [{}, /^task: /],
  ])('400 naming the field for %j', async (body, message) => {
    const res = await api.post('/api/v1/recall', body, { token: await acmeWebToken() });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('bad-input');
    expect(res.json.error.message).toMatch(message);
  });

  it('400 for a body that is not JSON', async () => {
    const res = await api.post('/api/v1/recall', undefined, { token: await acmeWebToken(), raw: '{"task": ' });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toBe('body: not valid JSON');
  });

  it('401 without a token, with WWW-Authenticate', async () => {
    const res = await api.post('/api/v1/recall', { task: TASK });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(res.json.error.code).toBe('unauthenticated');
  });

  it('401 for a forged token, 401 for an expired one', async () => {
    const forger = await makeIssuer();
    expect((await api.post('/api/v1/recall', { task: TASK }, { token: await forger.sign() })).status).toBe(401);
    const expired = await issuer.sign({}, { expiresIn: Math.floor(Date.now() / 1000) - 300 });
    expect((await api.post('/api/v1/recall', { task: TASK }, { token: expired })).status).toBe(401);
  });

  it('403 for another org that has not installed the App, for pull_request_target, for a fork PR', async () => {
    const stranger = await issuer.sign({ repository_owner_id: '777', repository_id: '1' });
    expect((await api.post('/api/v1/recall', { task: TASK }, { token: stranger })).status).toBe(403);
    const target = await acmeWebToken({ event_name: 'pull_request_target' });
    expect((await api.post('/api/v1/recall', { task: TASK }, { token: target })).status).toBe(403);
    const fork = await acmeWebToken({ event_name: 'pull_request', ref: 'refs/pull/9/merge' });
    expect((await api.post('/api/v1/recall', { task: TASK }, { token: fork })).json.error.message).toMatch(/forks/);
  });

  it('another org sees only its own pool', async () => {
    const res = await api.post(
      '/api/v1/recall',
      { task: TASK, min_score: 0 },
      { token: await issuer.sign({ repository_owner_id: '200', repository_id: '5151' }) },
    );
    expect(res.status).toBe(200);
    const ids: string[] = res.json.insights.map((i: { id: string }) => i.id);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.every((id) => id === GLOBEX_ID || id === 'm0000000005')).toBe(true);
  });

  it('415 for a non-JSON content type, 413 for a large body, 405 for GET, 404 for an unknown endpoint', async () => {
    const token = await acmeWebToken();
    expect(
      (await api.post('/api/v1/recall', { task: TASK }, { token, headers: { 'content-type': 'text/plain' } })).status,
    ).toBe(415);
    const large = await api.post('/api/v1/recall', { task: 'x'.repeat(100_000) }, { token });
    expect(large.status).toBe(413);
    expect(large.json.error.code).toBe('too-large');
    const get = await fetch(`${api.url}/api/v1/recall`, { headers: { authorization: `Bearer ${token}` } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await api.post('/api/v1/nope', {}, { token })).status).toBe(404);
  });

  it('leaves other paths to the next handler', async () => {
    const res = await api.post('/api/github/webhooks', {});
    expect(res.status).toBe(404);
    expect(res.text).toBe('not mine');
  });
});

describe('rate limit', () => {
  it('429 with Retry-After once a repository exceeds its budget; other repositories are unaffected', async () => {
    const limited = await startApi({
      directory: fakeDirectory([ACME_WEB, ACME_CORE]),
      jwks: issuer.localJwks,
      rateLimitPerMinute: 2,
    });
    try {
      const token = await acmeWebToken();
      expect((await limited.post('/api/v1/recall', { task: TASK }, { token })).status).toBe(200);
      expect((await limited.post('/api/v1/recall', { task: TASK }, { token })).status).toBe(200);
      const third = await limited.post('/api/v1/recall', { task: TASK }, { token });
      expect(third.status).toBe(429);
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(third.json.error.code).toBe('rate-limited');
      expect((await limited.post('/api/v1/recall', { task: TASK }, { token: await acmeCoreToken() })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('budgets per token and per installation', () => {
  it('a token has its own budget; the installation has one across its repositories, whatever the tokens', async () => {
    const limited = await startApi({
      directory: fakeDirectory([ACME_WEB, ACME_CORE, OTHER_ORG]),
      jwks: issuer.localJwks,
      tokenRateLimitPerMinute: 1,
      installationRateLimitPerMinute: 3,
    });
    try {
      const once = await acmeWebToken({ jti: 'once' });
      expect((await limited.post('/api/v1/recall', { task: TASK }, { token: once })).status).toBe(200);
      const again = await limited.post('/api/v1/recall', { task: TASK }, { token: once });
      expect(again.status).toBe(429);
      expect(again.json.error.message).toMatch(/^too many requests for this token; retry in \d+ s$/);
      // new tokens, two repositories of one installation: its third request is its last
      expect(
        (await limited.post('/api/v1/recall', { task: TASK }, { token: await acmeCoreToken({ jti: 'c1' }) })).status,
      ).toBe(200);
      const spent = await limited.post('/api/v1/recall', { task: TASK }, { token: await acmeWebToken({ jti: 'w2' }) });
      expect(spent.status).toBe(429);
      expect(spent.json.error.message).toMatch(/^too many requests for the installation of acme; retry in \d+ s$/);
      expect(Number(spent.headers.get('retry-after'))).toBeGreaterThan(0);
      // another installation is unaffected
      expect(
        (
          await limited.post(
            '/api/v1/recall',
            { task: TASK },
            { token: await issuer.sign({ jti: 'g1', repository_owner_id: '200', repository_id: '5151' }) },
          )
        ).status,
      ).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('POST /api/v1/usage and outcomes', () => {
  it('records usage once per run, then the run conclusion becomes an outcome, once', async () => {
    const token = await acmeWebToken({ run_id: '9001' });
    const first = await api.post(
      '/api/v1/usage',
      { ids: [PUBLIC_ID, PRIVATE_ID, 'm9999999999'], run_id: '9001' },
      { token },
    );
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ recorded: 1 }); // the private one is not visible to acme/web; the unknown is ignored
    expect((await api.post('/api/v1/usage', { ids: [PUBLIC_ID], run_id: 9001 }, { token })).json).toEqual({
      recorded: 0,
    });
    expect((await api.store.getMemory('acme', PUBLIC_ID))?.uses).toBe(1);

    const deps = { store: api.store, clock: api.deps.clock, logger: api.deps.logger };
    expect(await recordRunOutcome(deps, { tenant: 'acme', repo: 'acme/web', runId: 9001, conclusion: 'success' })).toBe(
      1,
    );
    expect(await recordRunOutcome(deps, { tenant: 'acme', repo: 'acme/web', runId: 9001, conclusion: 'success' })).toBe(
      0,
    );
    expect(
      await recordRunOutcome(deps, {
        tenant: 'acme',
        repo: 'acme/web',
        runId: 9001,
        conclusion: 'cancelled',
        runAttempt: 2,
      }),
    ).toBe(0);
    expect((await api.store.getMemory('acme', PUBLIC_ID))?.outcomes).toEqual({ success: 1, failure: 0 });
    // another repository's run with the same id is a different run
    expect(
      await recordRunOutcome(deps, { tenant: 'acme', repo: 'acme/core', runId: 9001, conclusion: 'failure' }),
    ).toBe(0);
  });

  it("a pull request run's usage is linked to the PR: closed unmerged is a failure", async () => {
    const token = await acmeWebToken({ run_id: '9100', event_name: 'pull_request', ref: 'refs/pull/8/merge' });
    expect((await api.post('/api/v1/usage', { ids: [PUBLIC_ID], run_id: '9100' }, { token })).json).toEqual({
      recorded: 1,
    });
    const deps = { store: api.store, clock: api.deps.clock, logger: api.deps.logger };
    expect(await recordPullRequestOutcome(deps, { tenant: 'acme', repo: 'acme/web', number: 8, merged: false })).toBe(
      1,
    );
    expect((await api.store.getMemory('acme', PUBLIC_ID))?.outcomes.failure).toBe(1);
  });

  it("403 when a run reports another run's usage; 400 naming the field for bad ids", async () => {
    const token = await acmeWebToken({ run_id: '9200' });
    const other = await api.post('/api/v1/usage', { ids: [PUBLIC_ID], run_id: '1234' }, { token });
    expect(other.status).toBe(403);
    expect(other.json.error.message).toMatch(/^run_id: /);
    const bad = await api.post('/api/v1/usage', { ids: ['<script>'], run_id: '9200' }, { token });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/^ids\.0: must be a memory id/);
    const empty = await api.post('/api/v1/usage', { ids: [], run_id: '9200' }, { token });
    expect(empty.json.error.message).toMatch(/^ids: /);
  });
});

describe('outcomes feed back into recall', () => {
  it('an insight used by three failed runs (and no success) is archived and no longer recalled', async () => {
    const fresh = await startApi({ directory: fakeDirectory([ACME_WEB]), jwks: issuer.localJwks });
    try {
      await fresh.store.putMemory(insight(PUBLIC_ID, {}));
      await fresh.store.putMemory(
        insight('m0000000009', { title: 'Lint after renames', description: 'x', content: 'Run the linter.', tags: [] }),
      );
      const deps = { store: fresh.store, clock: fresh.deps.clock, logger: fresh.deps.logger };
      for (const runId of ['501', '502', '503']) {
        const token = await acmeWebToken({ run_id: runId });
        expect((await fresh.post('/api/v1/recall', { task: TASK }, { token })).json.insights[0].id).toBe(PUBLIC_ID);
        await fresh.post('/api/v1/usage', { ids: [PUBLIC_ID], run_id: runId }, { token });
        await recordRunOutcome(deps, { tenant: 'acme', repo: 'acme/web', runId, conclusion: 'failure' });
      }
      expect((await fresh.store.getMemory('acme', PUBLIC_ID))?.status).toBe('archived');
      const after = await fresh.post(
        '/api/v1/recall',
        { task: TASK },
        { token: await acmeWebToken({ run_id: '504' }) },
      );
      expect(after.json.insights.map((i: { id: string }) => i.id)).not.toContain(PUBLIC_ID);
    } finally {
      await fresh.close();
    }
  });
});

describe('recall results shared between identical requests', () => {
  it('the same request from a public and a private repository gets each its own answer', async () => {
    const body = { task: `${TASK} ${CANARY}`, top_k: 10, min_score: 0 };
    const [web, core] = await Promise.all([
      api.post('/api/v1/recall', body, { token: await acmeWebToken() }),
      api.post('/api/v1/recall', body, { token: await acmeCoreToken() }),
    ]);
    expect(core.json.insights.map((i: { id: string }) => i.id)).toContain(PRIVATE_ID);
    expect(web.text).not.toContain(CANARY);
    const webAgain = await api.post('/api/v1/recall', body, { token: await acmeWebToken() });
    expect(webAgain.text).not.toContain(CANARY);
    expect(webAgain.json).toEqual(web.json);
  });

  it('concurrent identical requests all get the answer, and a write is seen by the next request', async () => {
    const fresh = await startApi({ directory: fakeDirectory([ACME_WEB]), jwks: issuer.localJwks });
    try {
      await fresh.store.putMemory(insight(PUBLIC_ID, {}));
      const ask = async (runId: string) =>
        fresh.post('/api/v1/recall', { task: TASK }, { token: await acmeWebToken({ run_id: runId }) });
      const answers = await Promise.all(['601', '602', '603', '604', '605'].map(ask));
      for (const answer of answers) expect(answer.json.insights.map((i: { id: string }) => i.id)).toEqual([PUBLIC_ID]);

      await fresh.store.putMemory(
        insight('m0000000010', {
          title: 'Apply database migrations to a fresh install in a test',
          description:
            'A migration that fails on a fresh install is caught by applying all of them to an empty database.',
        }),
      );
      expect((await ask('606')).json.insights.map((i: { id: string }) => i.id)).toContain('m0000000010');

      await fresh.store.putMemory(insight(PUBLIC_ID, { status: 'rejected' }));
      expect((await ask('607')).json.insights.map((i: { id: string }) => i.id)).not.toContain(PUBLIC_ID);
    } finally {
      await fresh.close();
    }
  });
});

describe('GitHub Enterprise Server (GHE_HOST)', () => {
  it("accepts a token of the server's own issuer, its key set read from that server; refuses github.com's", async () => {
    const ghe = await makeIssuer('ghe-key');
    const server = await startApi(
      { directory: fakeDirectory([ACME_WEB]), rateLimitPerMinute: 1000 },
      undefined,
      'https://ghe.example.com',
    );
    try {
      await server.store.putMemory(insight(PUBLIC_ID, {}));
      // the key set is the server's, at its token service (no request reaches github.com)
      nock('https://ghe.example.com').get('/_services/token/.well-known/jwks').reply(200, ghe.jwks);
      const token = await ghe.sign({}, { issuer: 'https://ghe.example.com/_services/token' });
      const res = await server.post('/api/v1/recall', { task: TASK }, { token });
      expect(res.status).toBe(200);
      expect(res.json.insights.map((i: { id: string }) => i.id)).toEqual([PUBLIC_ID]);
      // a token of github.com's issuer, signed by the same key, is not one of this server's runs
      const foreign = await ghe.sign({}, { issuer: 'https://token.actions.githubusercontent.com' });
      const refused = await server.post('/api/v1/recall', { task: TASK }, { token: foreign });
      expect(refused.status).toBe(401);
      expect(JSON.stringify(refused.json)).toMatch(/\\"iss\\" claim/);
    } finally {
      await server.close();
    }
  });
});
