/**
 * What every interaction job and webhook handler is given: the App's deps, a way to get an
 * installation's Octokit, and a few derived names.
 */
import type { ProbotOctokit } from 'probot';
import { describeError } from '../../core/errors.js';
import { httpStatus } from '../../github/client.js';
import type { AppDeps } from '../deps.js';

export type InstallationOctokit = InstanceType<typeof ProbotOctokit>;

export interface InteractionContext {
  deps: AppDeps;
  /** an Octokit authenticated as the installation (Probot's `app.auth(id)`) */
  auth(installationId: number): Promise<InstallationOctokit>;
}

/** The App's bot login, e.g. "memory-transfer[bot]". */
export function botLogin(ctx: InteractionContext): string {
  return `${ctx.deps.settings.appSlug}[bot]`;
}

/**
 * GitHub refused a write for good: a locked or archived thread (403 that is not a rate limit),
 * a deleted one (410), or a body it will not take (422). Retrying cannot help.
 */
export function isRefusedForGood(error: unknown): boolean {
  const status = httpStatus(error);
  if (status === 410 || status === 422) return true;
  return status === 403 && !/rate limit/i.test(describeError(error));
}

/** Splits "owner/name". */
export function splitRepo(repo: string): { owner: string; repo: string } {
  const [owner = '', name = ''] = repo.split('/');
  return { owner, repo: name };
}
