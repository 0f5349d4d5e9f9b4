import { createRemoteJWKSet } from 'jose';
import nock from 'nock';
import { Octokit } from 'octokit';
import { beforeAll, describe, expect, it } from 'vitest';
import { createGitHubInstallationDirectory } from '../../../src/app/http/installation-directory.js';
import { createOidcVerifier, GITHUB_OIDC_JWKS_URL, type InstallationDirectory } from '../../../src/app/http/oidc.js';
import { AuthError } from '../../../src/core/errors.js';
import { ACME_WEB, fakeDirectory, makeIssuer, type TestIssuer } from './oidc-helpers.js';

let issuer: TestIssuer;
beforeAll(async () => {
  issuer = await makeIssuer();
});

/** A verifier whose key set is GitHub's URL, answered by nock (fetched once per verifier). */
function verifier(directory: InstallationDirectory = fakeDirectory([ACME_WEB])) {
  nock('https://token.actions.githubusercontent.com').get('/.well-known/jwks').reply(200, issuer.jwks);
  return createOidcVerifier({
    audience: 'memory-transfer',
    directory,
    jwks: createRemoteJWKSet(new URL(GITHUB_OIDC_JWKS_URL)),
  });
}

async function refusal(promise: Promise<unknown>): Promise<AuthError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthError);
  return error as AuthError;
}

describe('OIDC verification', () => {
  it('accepts a valid run token and resolves the repository by id', async () => {
    const run = await verifier()(await issuer.sign());
    expect(run).toMatchObject({
      tenant: 'acme',
      repo: ACME_WEB,
      visibility: 'public',
      runId: '777',
      runAttempt: 1,
      eventName: 'issues',
    });
  });

  it("by default fetches GitHub's key set from its well-known URL, once", async () => {
    nock('https://token.actions.githubusercontent.com').get('/.well-known/jwks').once().reply(200, issuer.jwks);
    const verify = createOidcVerifier({ audience: 'memory-transfer', directory: fakeDirectory([ACME_WEB]) });
    await expect(verify(await issuer.sign())).resolves.toMatchObject({ tenant: 'acme' });
    await expect(verify(await issuer.sign({ run_id: '778' }))).resolves.toMatchObject({ runId: '778' });
  });

  it('refuses an expired token (401)', async () => {
    const token = await issuer.sign({}, { expiresIn: Math.floor(Date.now() / 1000) - 120 });
    const error = await refusal(verifier()(token));
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/expired/);
  });

  it('refuses a wrong issuer (401)', async () => {
    const error = await refusal(verifier()(await issuer.sign({}, { issuer: 'https://token.evil.example' })));
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/"iss"/);
  });

  it('refuses a wrong audience (401)', async () => {
    const error = await refusal(verifier()(await issuer.sign({ aud: 'sts.amazonaws.com' })));
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/"aud"/);
  });

  it('refuses several audiences even when one of them is ours (401)', async () => {
    const error = await refusal(verifier()(await issuer.sign({ aud: ['memory-transfer', 'https://other.example'] })));
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/exactly one audience/);
  });

  it('refuses a bad signature (401)', async () => {
    const other = await makeIssuer('test-key');
    const error = await refusal(verifier()(await other.sign()));
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/could not be verified/);
  });

  it('refuses a token that is not a JWT (401)', async () => {
    const error = await refusal(
      createOidcVerifier({ audience: 'memory-transfer', directory: fakeDirectory([]), jwks: issuer.localJwks })(
        'not.a.jwt',
      ),
    );
    expect(error.status).toBe(401);
  });

  it('refuses an unknown owner id (403)', async () => {
    const error = await refusal(verifier()(await issuer.sign({ repository_owner_id: '999' })));
    expect(error.status).toBe(403);
    expect(error.message).toMatch(/not installed/);
  });

  it('refuses the right names with the wrong ids (403): names are never trusted', async () => {
    const error = await refusal(
      verifier()(await issuer.sign({ repository: 'acme/web', repository_owner: 'acme', repository_id: '5555' })),
    );
    expect(error.status).toBe(403);
  });

  it('takes the names from the installation, not from the token', async () => {
    const run = await verifier()(await issuer.sign({ repository: 'evil/web', repository_owner: 'evil' }));
    expect(run.tenant).toBe('acme');
    expect(run.repo.fullName).toBe('acme/web');
  });

  it('refuses pull_request_target (403)', async () => {
    const error = await refusal(verifier()(await issuer.sign({ event_name: 'pull_request_target' })));
    expect(error.status).toBe(403);
    expect(error.message).toMatch(/pull_request_target/);
  });

  it('refuses a pull_request run from a fork (403) and accepts one from the repository itself', async () => {
    const directory = fakeDirectory([ACME_WEB], { '4242#5': 9999, '4242#6': 4242 });
    const fork = await refusal(
      verifier(directory)(await issuer.sign({ event_name: 'pull_request', ref: 'refs/pull/5/merge' })),
    );
    expect(fork.status).toBe(403);
    expect(fork.message).toMatch(/forks/);
    const own = createOidcVerifier({ audience: 'memory-transfer', directory, jwks: issuer.localJwks });
    await expect(
      own(await issuer.sign({ event_name: 'pull_request', ref: 'refs/pull/6/merge' })),
    ).resolves.toMatchObject({ runId: '777' });
  });

  it("a reader is as public as the more public of GitHub's data and the signed claim", async () => {
    const directory = fakeDirectory([{ ...ACME_WEB, visibility: 'private' }]);
    const local = createOidcVerifier({ audience: 'memory-transfer', directory, jwks: issuer.localJwks });
    expect((await local(await issuer.sign({ repository_visibility: 'public' }))).visibility).toBe('public');
    expect((await local(await issuer.sign({ repository_visibility: 'private' }))).visibility).toBe('private');
  });
});

describe('the GitHub installation directory', () => {
  const api = () => nock('https://api.github.com');
  const octokit = () =>
    new Octokit({
      auth: 'test',
      request: { fetch: globalThis.fetch, retries: 0 },
      retry: { enabled: false },
      throttle: { enabled: false },
    });

  it('resolves owner and repository by id, checks the installation covers it, and caches', async () => {
    api()
      .get('/app/installations')
      .query({ per_page: '100', page: '1' })
      .reply(200, [{ id: 55, account: { id: 100, login: 'acme' } }])
      .get('/repositories/4242')
      .reply(200, {
        id: 4242,
        full_name: 'acme/web',
        private: false,
        visibility: 'public',
        owner: { id: 100, login: 'acme' },
      })
      .get('/repos/acme/web/installation')
      .reply(200, { id: 55 });
    const directory = createGitHubInstallationDirectory(async () => octokit());
    expect(await directory.findRepository(100, 4242)).toEqual(ACME_WEB);
    expect(await directory.findRepository(100, 4242)).toEqual(ACME_WEB); // cached: no second call
  });

  it('an owner id with no installation is unknown', async () => {
    api()
      .get('/app/installations')
      .query(true)
      .reply(200, [{ id: 55, account: { id: 100, login: 'acme' } }]);
    const directory = createGitHubInstallationDirectory(async () => octokit());
    expect(await directory.findRepository(999, 4242)).toBeUndefined();
  });

  it('a public repository of the org that the installation does not cover is unknown', async () => {
    api()
      .get('/app/installations')
      .query(true)
      .reply(200, [{ id: 55, account: { id: 100, login: 'acme' } }])
      .get('/repositories/77')
      .reply(200, { id: 77, full_name: 'acme/site', private: false, owner: { id: 100, login: 'acme' } })
      .get('/repos/acme/site/installation')
      .reply(404, { message: 'Not Found' });
    const directory = createGitHubInstallationDirectory(async () => octokit());
    expect(await directory.findRepository(100, 77)).toBeUndefined();
  });

  it('a repository id that belongs to another owner is unknown', async () => {
    api()
      .get('/app/installations')
      .query(true)
      .reply(200, [{ id: 55, account: { id: 100, login: 'acme' } }])
      .get('/repositories/31337')
      .reply(200, { id: 31337, full_name: 'evil/web', private: false, owner: { id: 666, login: 'evil' } });
    const directory = createGitHubInstallationDirectory(async () => octokit());
    expect(await directory.findRepository(100, 31337)).toBeUndefined();
  });

  it("reads a pull request's head repository id", async () => {
    api()
      .get('/repos/acme/web/pulls/5')
      .reply(200, { head: { repo: { id: 9999 } } });
    const directory = createGitHubInstallationDirectory(async () => octokit());
    expect(await directory.pullRequestHeadRepoId(ACME_WEB, 5)).toBe(9999);
  });
});
