/**
 * InstallationDirectory over the GitHub API, resolving everything by id: the installation on the
 * account with this id, the repository with this id (its current name and visibility), and a
 * check that this installation really covers it. Results are cached (5 min, misses 30 s); the list
 * of installations is refreshed at most once per 30 s, so unknown owners cost no GitHub calls.
 */
import { z } from 'zod';
import { UpstreamError } from '../../core/errors.js';
import type { Visibility } from '../../core/types.js';
import { systemClock, type Clock } from '../../ports/index.js';
import type { InstallationDirectory, InstalledRepository } from './oidc.js';

/** The part of an Octokit this needs (Probot: `(id) => app.auth(id)`; no id = the App's JWT). */
export interface GitHubRequester {
  request(route: string, params?: Record<string, unknown>): Promise<{ data: unknown }>;
}
export type GitHubAuth = (installationId?: number) => Promise<GitHubRequester>;

const installationsSchema = z.array(
  z.looseObject({ id: z.number(), account: z.looseObject({ id: z.number(), login: z.string() }).nullable() }),
);
const repositorySchema = z.looseObject({
  id: z.number(),
  full_name: z.string(),
  private: z.boolean(),
  visibility: z.enum(['public', 'private', 'internal']).optional(),
  owner: z.looseObject({ id: z.number(), login: z.string() }),
});
const installationSchema = z.looseObject({ id: z.number() });
const pullSchema = z.looseObject({ head: z.looseObject({ repo: z.looseObject({ id: z.number() }).nullable() }) });

const HIT_TTL = 5 * 60_000;
const MISS_TTL = 30_000;

function status(error: unknown): number | undefined {
  const value = (error as { status?: unknown } | null)?.status;
  return typeof value === 'number' ? value : undefined;
}

async function orNotFound<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    const code = status(error);
    if (code === 404 || code === 403) return undefined;
    throw new UpstreamError(`GitHub API error while checking the run's repository (${code ?? 'network'})`, true);
  }
}

export function createGitHubInstallationDirectory(auth: GitHubAuth, clock: Clock = systemClock): InstallationDirectory {
  const cache = new Map<string, { value: unknown; until: number }>();
  async function cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    const now = clock.now().getTime();
    const hit = cache.get(key);
    if (hit && hit.until > now) return hit.value as T;
    const value = await load();
    cache.set(key, { value, until: now + (value === undefined ? MISS_TTL : HIT_TTL) });
    return value;
  }

  // Every installation of the App, by account id: read as one list and refreshed at most once per
  // MISS_TTL whatever the callers ask, so tokens from owners that never installed the App (any
  // workflow run anywhere can mint one) cost no GitHub calls and no cache entries.
  let installations: { byOwner: Map<number, number>; loadedAt: number } | undefined;
  let loading: Promise<Map<number, number>> | undefined;

  async function loadInstallations(): Promise<Map<number, number>> {
    const app = await auth();
    const byOwner = new Map<number, number>();
    for (let page = 1; page <= 20; page += 1) {
      const { data } = await app.request('GET /app/installations', { per_page: 100, page });
      const list = installationsSchema.parse(data);
      for (const installation of list) if (installation.account) byOwner.set(installation.account.id, installation.id);
      if (list.length < 100) break;
    }
    return byOwner;
  }

  async function installationOf(ownerId: number): Promise<number | undefined> {
    const now = clock.now().getTime();
    const age = installations ? now - installations.loadedAt : Infinity;
    const known = installations?.byOwner.get(ownerId);
    if (known !== undefined && age < HIT_TTL) return known;
    if (age < MISS_TTL) return known;
    loading ??= loadInstallations().finally(() => (loading = undefined));
    const byOwner = await loading;
    installations = { byOwner, loadedAt: clock.now().getTime() };
    return byOwner.get(ownerId);
  }

  return {
    async findRepository(ownerId, repoId) {
      const installationId = await installationOf(ownerId);
      if (installationId === undefined) return undefined;
      return cached(
        `repo:${installationId}:${ownerId}:${repoId}`,
        async (): Promise<InstalledRepository | undefined> => {
          const octokit = await auth(installationId);
          const found = await orNotFound(() =>
            octokit.request('GET /repositories/{repository_id}', { repository_id: repoId }),
          );
          if (!found) return undefined;
          const repo = repositorySchema.parse(found.data);
          if (repo.id !== repoId || repo.owner.id !== ownerId) return undefined;
          // a public repository is readable by any token: confirm this installation covers it
          const [owner, name] = repo.full_name.split('/');
          const app = await auth();
          const installation = await orNotFound(() =>
            app.request('GET /repos/{owner}/{repo}/installation', { owner, repo: name }),
          );
          if (!installation || installationSchema.parse(installation.data).id !== installationId) return undefined;
          const visibility: Visibility = repo.visibility ?? (repo.private ? 'private' : 'public');
          return {
            installationId,
            ownerId,
            ownerLogin: repo.owner.login,
            repoId,
            fullName: repo.full_name,
            visibility,
          };
        },
      );
    },
    async pullRequestHeadRepoId(repo, pullNumber) {
      return cached(`pull:${repo.repoId}:${pullNumber}`, async () => {
        const octokit = await auth(repo.installationId);
        const [owner, name] = repo.fullName.split('/');
        const found = await orNotFound(() =>
          octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', {
            owner,
            repo: name,
            pull_number: pullNumber,
          }),
        );
        return found ? (pullSchema.parse(found.data).head.repo?.id ?? undefined) : undefined;
      });
    },
  };
}
