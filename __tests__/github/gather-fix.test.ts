import { Readable } from 'node:stream';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import {
  checkKindOf,
  gatherPullRequest,
  logExcerpt,
  readLogTail,
  redGreenChecks,
  toFix,
  visibilityOf,
} from '../../src/github/gather-fix.js';
import { TestOctokit } from '../app/app-harness.js';

const gh = () => new TestOctokit({ auth: { token: 'ghs_test' } });

function graph(changedFiles: number) {
  return {
    data: {
      repository: {
        databaseId: 7,
        nameWithOwner: 'acme/big',
        isPrivate: true,
        visibility: 'INTERNAL',
        primaryLanguage: null,
        pullRequest: {
          number: 1,
          url: 'https://github.com/acme/big/pull/1',
          title: 'Fix the generator',
          body: null,
          merged: true,
          mergedAt: '2026-01-01T00:00:00Z',
          changedFiles,
          mergeCommit: { oid: 'abc' },
          author: { login: 'alice', __typename: 'User' },
          mergedBy: { login: 'bob', __typename: 'User' },
          labels: { nodes: [] },
          commits: { nodes: [{ commit: { oid: 'a', message: 'fix', checkSuites: null } }] },
          closingIssuesReferences: { nodes: [] },
        },
      },
    },
  };
}

describe('gatherPullRequest', () => {
  it('reads at most 300 paths of a 5,000-file PR and caps the patches', async () => {
    const bigPatch = `@@ -1 +1 @@\n${'+x'.repeat(5_000)}`;
    let scope = nock('https://api.github.com').post('/graphql').reply(200, graph(5_000));
    for (let page = 1; page <= 3; page += 1) {
      const files = Array.from({ length: 100 }, (_, i) => ({ filename: `gen/file${page}-${i}.ts`, patch: bigPatch }));
      scope = scope.get('/repos/acme/big/pulls/1/files').query({ per_page: 100, page }).reply(200, files);
    }
    const context = await gatherPullRequest(gh(), { owner: 'acme', repo: 'big', number: 1 });
    scope.done();
    expect(context.files).toHaveLength(300);
    expect(context.changedFiles).toBe(5_000);
    expect(context.change.length).toBeLessThanOrEqual(12_000);
    expect(context.visibility).toBe('internal');
    const fix = toFix(context, { trusted: true, appSlug: 'memory-transfer' });
    expect(fix).toMatchObject({
      tenant: 'acme',
      repo: 'acme/big',
      ref: '1',
      visibility: 'internal',
      sourceKind: 'pull_request',
    });
  });
});

describe('job logs', () => {
  it('keeps only the tail of a 50 MB log when the server ignores the byte range', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'a\n');
    const total = 50 * 1024 * 1024;
    let sent = 0;
    const body = new Readable({
      read() {
        if (sent >= total) {
          this.push(Buffer.from('\n2026-01-01T00:00:00.0000000Z ##[error]Expected 2 but got 3 in parser.test.ts\n'));
          this.push(null);
          return;
        }
        sent += chunk.length;
        this.push(chunk);
      },
    });
    const scope = nock('https://api.github.com')
      .get('/repos/acme/api/actions/jobs/9/logs')
      .reply(200, () => body);
    const tail = await readLogTail(gh(), { owner: 'acme', repo: 'api' }, 9, 256 * 1024);
    scope.done();
    expect(tail).toBeDefined();
    expect(Buffer.byteLength(tail ?? '')).toBeLessThanOrEqual(256 * 1024);
    expect(tail).toContain('Expected 2 but got 3');
    const excerpt = logExcerpt(tail ?? '', 2_000);
    expect(excerpt).toMatch(/^a\n\n##\[error\]Expected 2 but got 3 in parser\.test\.ts$/);
  });

  it('asks for the end of the log with a byte range, following the redirect to the log store', async () => {
    const api = nock('https://api.github.com')
      .get('/repos/acme/api/actions/jobs/9/logs')
      .reply(302, '', { location: 'https://logs.example.test/job9.txt' });
    const blob = nock('https://logs.example.test', { reqheaders: { range: 'bytes=-1024' } })
      .get('/job9.txt')
      .reply(206, 'FAIL test/cache.test.ts > returns defaults\nAssertionError: expected undefined to equal {}\n');
    const tail = await readLogTail(gh(), { owner: 'acme', repo: 'api' }, 9, 1024);
    api.done();
    blob.done();
    expect(tail).toContain('AssertionError');
  });

  it('cuts an excerpt around the error lines, without timestamps', () => {
    const log = [
      '2026-01-01T00:00:00.1Z setup',
      'ok 1',
      'ok 2',
      'Error: boom',
      'at x',
      'done',
      'Process completed with exit code 1.',
    ].join('\n');
    expect(logExcerpt(log, 2_000)).toBe('ok 1\nok 2\nError: boom\nat x\ndone');
    expect(logExcerpt('x'.repeat(5_000), 100)).toHaveLength(100);
  });
});

describe('helpers', () => {
  it('finds checks red on an earlier commit and green on the last', () => {
    const suite = (runs: [string, string, number][]) => ({
      checkSuites: {
        nodes: [
          { checkRuns: { nodes: runs.map(([name, conclusion, databaseId]) => ({ name, conclusion, databaseId })) } },
        ],
      },
    });
    const commits = [
      suite([
        ['lint', 'FAILURE', 1],
        ['unit', 'SUCCESS', 2],
      ]),
      suite([['unit', 'FAILURE', 3]]),
      suite([
        ['lint', 'SUCCESS', 4],
        ['unit', 'SUCCESS', 5],
      ]),
    ];
    expect(redGreenChecks(commits)).toEqual([
      { name: 'lint', checkRunId: 1 },
      { name: 'unit', checkRunId: 3 },
    ]);
    expect(redGreenChecks([suite([['unit', 'FAILURE', 1]])])).toEqual([]);
  });

  it('names check kinds and visibilities', () => {
    expect(checkKindOf('ESLint')).toBe('lint');
    expect(checkKindOf('typecheck (tsc)')).toBe('types');
    expect(checkKindOf('e2e / playwright')).toBe('e2e');
    expect(checkKindOf('test (20.x)')).toBe('unit');
    expect(visibilityOf({ visibility: 'public', private: true })).toBe('private');
    expect(visibilityOf({ visibility: 'internal', private: true })).toBe('internal');
    expect(visibilityOf({ private: false })).toBe('public');
  });
});
