import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/io.js';
import { backfillRepository, readBackfillCursor } from '../../src/github/backfill.js';
import { learnFix } from '../../src/services/learn.js';
import { createRulesAbstractor } from '../../src/abstraction/rules-abstractor.js';
import { createRedactor } from '../../src/security/redact.js';
import { silentLogger } from '../../src/ports/index.js';
import type { Store } from '../../src/store/store.js';
import { TestOctokit, tempPool } from '../app/app-harness.js';

const OWNER = 'acme';
const REPO = 'api';

/** 250 merged PRs, newest first: every 4th a bug fix, some bots, some docs-only, the rest features. */
function pullRequests(count = 250) {
  return Array.from({ length: count }, (_, i) => {
    const n = count - i;
    const kind = n % 4 === 0 ? 'fix' : n % 4 === 1 ? 'bot' : n % 4 === 2 ? 'docs' : 'feature';
    return {
      number: n,
      url: `https://github.com/${OWNER}/${REPO}/pull/${n}`,
      title:
        kind === 'fix'
          ? `Fix crash ${n} when the cache is empty`
          : kind === 'bot'
            ? `chore(deps): bump lib${n} from 1.0.0 to 1.0.1`
            : kind === 'docs'
              ? `Fix typo ${n} in docs`
              : `Add export format ${n}`,
      body: kind === 'fix' ? 'The cache lookup crashed on an empty map. Adds a regression test.' : '',
      mergedAt: '2025-06-01T00:00:00Z',
      changedFiles: kind === 'docs' ? 1 : 2,
      mergeCommit: { oid: `sha${n}` },
      author:
        kind === 'bot'
          ? { login: 'dependabot', __typename: 'Bot' }
          : { login: n % 3 === 0 ? 'alice' : 'bob', __typename: 'User' },
      mergedBy: { login: 'carol', __typename: 'User' },
      labels: { nodes: kind === 'fix' ? [{ name: 'bug' }] : [] },
      files: {
        nodes:
          kind === 'docs'
            ? [{ path: 'docs/guide.md' }]
            : [{ path: `src/cache${n}.ts` }, { path: `test/cache${n}.test.ts` }],
      },
      closingIssuesReferences: { nodes: [] },
    };
  });
}

function page(nodes: unknown[], index: number, pages: number, total: number) {
  return {
    data: {
      rateLimit: { remaining: 4900, resetAt: '2099-01-01T00:00:00Z', cost: 1 },
      repository: {
        databaseId: 42,
        nameWithOwner: `${OWNER}/${REPO}`,
        isPrivate: true,
        visibility: 'PRIVATE',
        primaryLanguage: { name: 'TypeScript' },
        pullRequests: {
          totalCount: total,
          pageInfo: { hasNextPage: index < pages - 1, endCursor: `cursor${index + 1}` },
          nodes,
        },
      },
    },
  };
}

/** Mocks the GraphQL pages from `from` on (the `after` cursor each one must carry is checked). */
function mockPages(
  scope: nock.Scope,
  prs: ReturnType<typeof pullRequests>,
  size: number,
  from = 0,
  to?: number,
): nock.Scope {
  const pages = Math.ceil(prs.length / size);
  for (let i = from; i < (to ?? pages); i += 1) {
    const after = i === 0 ? null : `cursor${i}`;
    scope = scope
      .post('/graphql', (body: { variables: { after: string | null } }) => body.variables.after === after)
      .reply(200, page(prs.slice(i * size, (i + 1) * size), i, pages, prs.length));
  }
  return scope;
}

function permissions(scope: nock.Scope): nock.Scope {
  for (const login of ['carol', 'alice', 'bob']) {
    scope = scope.get(`/repos/${OWNER}/${REPO}/collaborators/${login}/permission`).reply(200, { permission: 'write' });
  }
  return scope;
}

describe('backfill', () => {
  let store: Store;
  let path: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ store, path, cleanup } = await tempPool());
  });
  afterEach(async () => cleanup());

  const gh = () => new TestOctokit({ auth: { token: 'ghs_test' } });
  const learnDeps = () => ({
    store,
    abstractor: createRulesAbstractor(),
    redactor: createRedactor(),
    logger: silentLogger,
    clock: { now: () => new Date() },
  });

  it('scans 250 merged PRs for at most 0.1 GitHub requests per PR, and learns only the fixes', async () => {
    const prs = pullRequests();
    let requests = 0;
    const scope = permissions(mockPages(nock('https://api.github.com'), prs, 50));
    scope.on('request', () => (requests += 1));
    const learned: string[] = [];
    const progress: number[] = [];
    const result = await backfillRepository({ store, logger: silentLogger, clock: { now: () => new Date() } }, gh(), {
      owner: OWNER,
      repo: REPO,
      appSlug: 'memory-transfer',
      fixLabels: ['bug'],
      onFix: async (fix) => {
        learned.push(fix.ref);
        // learning itself is the engine's (tested there): a few here show the whole path
        if (learned.length <= 2) await learnFix(learnDeps(), fix);
      },
      onProgress: (p) => progress.push(p.scanned),
    });
    scope.done();
    expect(result.scanned).toBe(250);
    expect(requests).toBe(8);
    expect(requests / result.scanned).toBeLessThanOrEqual(0.1);
    expect(result.requests).toBe(requests);
    expect(learned).toHaveLength(62);
    expect(result.skipped).toEqual({ bot: 63, 'docs-only': 63, 'no-fix-signal': 62 });
    expect(progress).toEqual([50, 100, 150, 200, 250]);
    const memories = await store.listMemories('acme');
    expect(memories.length).toBeGreaterThan(0);
    expect(memories.every((m) => m.visibility === 'private')).toBe(true);
    expect((await readBackfillCursor(store, OWNER, REPO))?.done).toBe(true);
  });

  it('resumes from its saved cursor after an interruption, without scanning a page twice', async () => {
    const prs = pullRequests(200);
    // the third page fails (GitHub 502): the first two pages are kept
    let scope = permissions(mockPages(nock('https://api.github.com'), prs, 50, 0, 2));
    scope = scope.post('/graphql').reply(502, { message: 'Bad Gateway' });
    const learned: string[] = [];
    const options = {
      owner: OWNER,
      repo: REPO,
      appSlug: 'memory-transfer',
      fixLabels: ['bug'],
      onFix: async (fix: { ref: string }) => {
        learned.push(fix.ref);
      },
    };
    const deps = { store, logger: silentLogger, clock: { now: () => new Date() } };
    await expect(backfillRepository(deps, gh(), options)).rejects.toThrow();
    scope.done();
    expect(await readBackfillCursor(store, OWNER, REPO)).toMatchObject({
      cursor: 'cursor2',
      scanned: 100,
      done: false,
    });

    const resumed = mockPages(nock('https://api.github.com'), prs, 50, 2);
    const result = await backfillRepository(deps, gh(), options);
    resumed.done();
    expect(result).toMatchObject({ scanned: 200, done: true });
    expect(new Set(learned).size).toBe(learned.length);
    expect(learned).toHaveLength(50);
  });

  it('stops at --limit and waits when the GraphQL rate limit is nearly spent', async () => {
    const prs = pullRequests(100);
    const low = page(prs.slice(0, 30), 0, 4, 100);
    low.data.rateLimit = { remaining: 3, resetAt: new Date(Date.now() + 1000).toISOString(), cost: 1 };
    const scope = permissions(nock('https://api.github.com'))
      .post('/graphql', (body: { variables: { first: number } }) => body.variables.first === 30)
      .reply(200, low)
      .post(
        '/graphql',
        (body: { variables: { first: number; after: string } }) =>
          body.variables.first === 10 && body.variables.after === 'cursor1',
      )
      .reply(200, page(prs.slice(30, 40), 1, 4, 100));
    const waits: number[] = [];
    const result = await backfillRepository(
      { store, logger: silentLogger, clock: { now: () => new Date() }, sleep: async (ms) => void waits.push(ms) },
      gh(),
      {
        owner: OWNER,
        repo: REPO,
        appSlug: 'memory-transfer',
        fixLabels: ['bug'],
        limit: 40,
        pageSize: 30,
        onFix: async () => undefined,
        trustedBots: [],
      },
    );
    scope.done();
    expect(result.scanned).toBe(40);
    expect(waits).toHaveLength(1);
  });

  it('runs from the CLI: `memory-transfer backfill --org acme --repo api` with a token', async () => {
    const prs = pullRequests(12);
    let scope = nock('https://api.github.com')
      .get(`/repos/${OWNER}/${REPO}/contents/${encodeURIComponent('.github/memory-transfer.yml')}`)
      .reply(404, { message: 'Not Found' })
      .get(`/repos/${OWNER}/.github/contents/${encodeURIComponent('.github/memory-transfer.yml')}`)
      .reply(404, { message: 'Not Found' });
    scope = permissions(mockPages(scope, prs, 50));
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = {
      out: (t) => void out.push(t),
      err: (t) => void err.push(t),
      env: { GITHUB_TOKEN: 'ghs_test' },
      cwd: process.cwd(),
    };
    const code = await main(['--db', path, 'backfill', '--org', OWNER, '--repo', REPO], io);
    scope.done();
    expect(err.join('')).not.toMatch(/error/i);
    expect(code).toBe(0);
    expect(out.join('')).toMatch(/acme\/api: scanned 12 merged PRs, 3 fixes learned \(\d+ memories created/);
    expect((await store.listMemories('acme')).length).toBeGreaterThan(0);
  });

  it('names a bad flag', async () => {
    const err: string[] = [];
    const io: CliIo = {
      out: () => undefined,
      err: (t) => void err.push(t),
      env: { GITHUB_TOKEN: 'x' },
      cwd: process.cwd(),
    };
    expect(await main(['--db', path, 'backfill', '--org', 'acme', '--limit', 'zero'], io)).toBe(2);
    expect(err.join('')).toMatch(/--limit: /);
  });
});
