/** A local RSA key pair standing in for GitHub's OIDC issuer: sign run tokens, serve the key set. */
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWK, type JWTVerifyGetKey } from 'jose';
import {
  GITHUB_OIDC_ISSUER,
  type InstallationDirectory,
  type InstalledRepository,
} from '../../../src/app/http/oidc.js';

export interface TestIssuer {
  jwks: { keys: JWK[] };
  /** a key-set getter with no network */
  localJwks: JWTVerifyGetKey;
  sign(
    claims?: Record<string, unknown>,
    options?: { expiresIn?: string | number; issuer?: string; kid?: string },
  ): Promise<string>;
}

export const RUN_CLAIMS = {
  aud: 'memory-transfer',
  sub: 'repo:acme/web:ref:refs/heads/main',
  repository: 'acme/web',
  repository_id: '4242',
  repository_owner: 'acme',
  repository_owner_id: '100',
  repository_visibility: 'public',
  event_name: 'issues',
  run_id: '777',
  run_attempt: '1',
  ref: 'refs/heads/main',
  actor: 'ada',
  jti: 'token-1',
};

export async function makeIssuer(kid = 'test-key'): Promise<TestIssuer> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const jwks = { keys: [jwk] };
  return {
    jwks,
    localJwks: createLocalJWKSet(jwks),
    async sign(claims = {}, options = {}) {
      const jwt = new SignJWT({ ...RUN_CLAIMS, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? kid })
        .setIssuer(options.issuer ?? GITHUB_OIDC_ISSUER)
        .setIssuedAt();
      if (options.expiresIn !== undefined) {
        if (typeof options.expiresIn === 'number') jwt.setExpirationTime(options.expiresIn);
        else jwt.setExpirationTime(options.expiresIn);
      } else jwt.setExpirationTime('5m');
      return jwt.sign(privateKey);
    },
  };
}

export const ACME_WEB: InstalledRepository = {
  installationId: 55,
  ownerId: 100,
  ownerLogin: 'acme',
  repoId: 4242,
  fullName: 'acme/web',
  visibility: 'public',
};

/** An in-memory directory: these repositories are installed; pull requests map to head repo ids. */
export function fakeDirectory(
  repos: InstalledRepository[],
  pulls: Record<string, number | undefined> = {},
): InstallationDirectory {
  return {
    async findRepository(ownerId, repoId) {
      return repos.find((r) => r.ownerId === ownerId && r.repoId === repoId);
    },
    async pullRequestHeadRepoId(repo, number) {
      return pulls[`${repo.repoId}#${number}`];
    },
  };
}
