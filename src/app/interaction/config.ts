/**
 * Loads `.github/memory-transfer.yml` for a repository with Probot's semantics (the repository's
 * file, else the org's `.github` repository, then `_extends` chains, deep-merged), validates it
 * and falls back to the org defaults, then to the built-in defaults, when it is broken.
 */
import { createHash } from 'node:crypto';
import { describeError } from '../../core/errors.js';
import {
  CONFIG_FILE_NAME,
  DEFAULT_REPO_CONFIG,
  mergeConfigLayers,
  parseRepoConfig,
  type ParsedRepoConfig,
  type RepoConfig,
} from '../../core/repo-config.js';
import type { Visibility } from '../../core/types.js';
import { composeConfigGet } from '@probot/octokit-plugin-config';
import { httpStatus, type GitHubClient } from '../../github/client.js';
import type { InstallationOctokit, InteractionContext } from './context.js';
import { splitRepo } from './context.js';
import { reportConfigProblems } from './dashboard.js';
import { keys } from './state.js';
import type { ConfigCache } from './config-cache.js';

export const CONFIG_PATH = `.github/${CONFIG_FILE_NAME}`;

/** An HTTP failure retrying may fix (rate limits, 5xx): the job is retried instead of using defaults. */
function isTransient(error: unknown): boolean {
  const status = httpStatus(error);
  if (status === undefined) return false;
  if (status === 429 || status >= 500) return true;
  return status === 403 && /rate limit/i.test(describeError(error));
}

function describeConfigError(error: unknown): string {
  const message = describeError(error).replace(/^\[@probot\/octokit-plugin-config\]\s*/, '');
  const cause = error instanceof Error && error.cause ? `: ${describeError(error.cause)}` : '';
  return `${message}${cause}`.slice(0, 500);
}

/** Any Octokit: Probot's installation client, `probot.auth(id)`, or the learning side's GitHubClient. */
export type ConfigClient = Pick<GitHubClient, 'request'>;

async function readMerged(octokit: ConfigClient, owner: string, repo: string): Promise<unknown> {
  // what Probot's context.config('memory-transfer.yml') does (octokit.config.get), with lists
  // replaced instead of concatenated
  const { config } = await composeConfigGet(octokit as Parameters<typeof composeConfigGet>[0], {
    owner,
    repo,
    path: CONFIG_PATH,
    defaults: (configs) => mergeConfigLayers(configs),
  });
  return config;
}

async function tryParse(octokit: ConfigClient, owner: string, repo: string): Promise<ParsedRepoConfig> {
  try {
    return parseRepoConfig(await readMerged(octokit, owner, repo));
  } catch (error) {
    if (isTransient(error)) throw error;
    return { config: DEFAULT_REPO_CONFIG, problems: [describeConfigError(error)], rejected: true };
  }
}

/**
 * The repository's config. When it is broken, `problems` says why and `config` is the org
 * defaults (the `.github` repository's file) if those are valid, else the built-in defaults.
 * Throws only for errors worth a retry (rate limits, GitHub 5xx).
 */
export async function loadRepoConfig(octokit: ConfigClient, fullRepo: string): Promise<ParsedRepoConfig> {
  const { owner, repo } = splitRepo(fullRepo);
  const parsed = await tryParse(octokit, owner, repo);
  if (!parsed.rejected || repo === '.github') return parsed;
  const org = await tryParse(octokit, owner, '.github');
  return { config: org.rejected ? DEFAULT_REPO_CONFIG : org.config, problems: parsed.problems, rejected: true };
}

/**
 * The repository's config through the App's cache (one read per repository per short while, dropped
 * by a push that changes the file), or read now when the App has no cache.
 */
export function cachedRepoConfig(
  configs: ConfigCache | undefined,
  octokit: ConfigClient,
  installationId: number,
  fullRepo: string,
): Promise<ParsedRepoConfig> {
  const load = () => loadRepoConfig(octokit, fullRepo);
  return configs ? configs.get(installationId, fullRepo, load) : load();
}

/**
 * Loads the config and reports its problems once where maintainers see them (the review
 * dashboard, or a log line when there is none). The reported problems' hash is kept in the
 * store, so the same broken file is reported once, and reported again only after it changed.
 */
export async function configFor(
  ctx: InteractionContext,
  octokit: InstallationOctokit,
  target: { repo: string; installationId: number; visibility: Visibility },
): Promise<RepoConfig> {
  const loaded = await cachedRepoConfig(ctx.deps.configs, octokit, target.installationId, target.repo);
  const hash = loaded.problems.length
    ? createHash('sha256').update(loaded.problems.join('\n')).digest('hex').slice(0, 16)
    : '';
  const key = keys.configError(target.repo);
  const previous = (await ctx.deps.store.getState(key)) ?? '';
  if (hash !== previous) {
    // remember first: a failing report is never retried into a loop
    await ctx.deps.store.setState(key, hash);
    try {
      await reportConfigProblems(ctx, octokit, { ...target, config: loaded.config, problems: loaded.problems });
    } catch (error) {
      ctx.deps.logger.warn('could not report configuration problems', {
        repo: target.repo,
        problems: loaded.problems,
        error: describeError(error),
      });
    }
  }
  return loaded.config;
}
