/**
 * What every interaction job and webhook handler is given: the App's deps, a way to get an
 * installation's Octokit, and a few derived names.
 */
import type { ProbotOctokit } from 'probot';
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

/** Splits "owner/name". */
export function splitRepo(repo: string): { owner: string; repo: string } {
  const [owner = '', name = ''] = repo.split('/');
  return { owner, repo: name };
}
