/**
 * Staleness (issue 5 §5): a periodic `staleness-sweep` job per tenant archives the active
 * insights unused for the org's `staleness_days` (default 90) and never up-voted
 * (src/services/governance.ts `archiveStale`, which writes the audit entries). The days come
 * from the org defaults: `.github/memory-transfer.yml` in the org's `.github` repository.
 */
import type { Probot } from 'probot';
import { z } from 'zod';
import { describeError } from '../../core/errors.js';
import { DEFAULT_REPO_CONFIG } from '../../core/repo-config.js';
import { isNotFound, type GitHubClient } from '../../github/client.js';
import { archiveStale } from '../../services/governance.js';
import type { AppDeps } from '../deps.js';
import { loadRepoConfig } from '../interaction/config.js';
import { PermanentJobError } from '../worker.js';

export const STALENESS_JOB = 'staleness-sweep';
/** The sweep runs once a day by default. */
export const STALENESS_INTERVAL_MS = 24 * 3600_000;

export const stalenessJob = z.object({ tenant: z.string().min(1) });

/** The App-level client (no installation id) and installation clients: Probot's `app.auth`. */
export type AppAuth = (installationId?: number) => Promise<GitHubClient>;

/** The org's `staleness_days` (its `.github` repository's config), or the default when the App cannot read it. */
export async function stalenessDaysOf(deps: AppDeps, auth: AppAuth, tenant: string): Promise<number> {
  let installationId: number;
  try {
    const app = await auth();
    const { data } = await app.request('GET /users/{username}/installation', { username: tenant });
    installationId = Number((data as { id: unknown }).id);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    deps.logger.info('staleness: the App is not installed for this org; default days used', { tenant });
    return DEFAULT_REPO_CONFIG.staleness_days;
  }
  const gh = await auth(installationId);
  const loaded = await loadRepoConfig(gh, `${tenant}/.github`);
  if (loaded.problems.length > 0)
    deps.logger.warn('staleness: the org config has problems', { tenant, problems: loaded.problems });
  return loaded.config.staleness_days;
}

/** Archives the tenant's stale insights; returns their ids. */
export async function runStalenessSweep(deps: AppDeps, auth: AppAuth, tenant: string): Promise<string[]> {
  const days = await stalenessDaysOf(deps, auth, tenant);
  const archived = await archiveStale(deps.store, tenant, { days, now: deps.clock.now() });
  if (archived.length > 0) deps.logger.info('stale insights archived', { tenant, days, archived: archived.length });
  return archived;
}

/** The job key of one tenant's sweep in the time slot `now` falls in: one sweep per tenant and slot. */
export function stalenessKey(tenant: string, now: Date, intervalMs: number): string {
  return `${STALENESS_JOB}:${tenant}:${Math.floor(now.getTime() / intervalMs)}`;
}

/** Enqueues one sweep per tenant with data for the current slot; returns how many were new. */
export async function enqueueStalenessSweeps(deps: AppDeps, intervalMs = STALENESS_INTERVAL_MS): Promise<number> {
  let added = 0;
  const now = deps.clock.now();
  for (const tenant of await deps.store.listTenants()) {
    if (await deps.queue.enqueue(stalenessKey(tenant, now, intervalMs), STALENESS_JOB, { tenant })) added += 1;
  }
  return added;
}

export interface StalenessOptions {
  /** enqueue the sweeps this often (default daily; 0 turns the timer off) */
  intervalMs?: number;
}

export function registerStalenessHandlers(app: Probot, deps: AppDeps, options: StalenessOptions = {}): void {
  const auth: AppAuth = (installationId) => app.auth(installationId) as Promise<GitHubClient>;
  deps.queue.register(STALENESS_JOB, async (raw) => {
    const parsed = stalenessJob.safeParse(raw);
    if (!parsed.success) throw new PermanentJobError(`${STALENESS_JOB}: the payload has no tenant`);
    await runStalenessSweep(deps, auth, parsed.data.tenant);
  });
  const intervalMs = options.intervalMs ?? STALENESS_INTERVAL_MS;
  if (intervalMs <= 0 || deps.settings.sweeps === false) return;
  const timer = setInterval(() => {
    enqueueStalenessSweeps(deps, intervalMs).catch((error: unknown) =>
      deps.logger.warn('could not enqueue the staleness sweeps', { error: describeError(error) }),
    );
  }, intervalMs);
  // the timer never keeps the process alive
  timer.unref();
}
