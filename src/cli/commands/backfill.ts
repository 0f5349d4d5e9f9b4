/**
 * backfill: learn from the merged pull requests of an organization's repositories that existed
 * before the App, with a progress bar; resumable (the cursor is kept in the pool).
 * Auth: GITHUB_TOKEN (or GH_TOKEN), else the App's APP_ID + PRIVATE_KEY (its org installation).
 */
import type { Command } from 'commander';
import { Probot, ProbotOctokit } from 'probot';
import { z } from 'zod';
import { AuthError, InputError, UpstreamError } from '../../core/errors.js';
import { DEFAULT_REPO_CONFIG } from '../../core/repo-config.js';
import { normalizePrivateKey } from '../../app/settings.js';
import { loadRepoConfig } from '../../app/interaction/config.js';
import { backfillRepository, type BackfillResult } from '../../github/backfill.js';
import { httpStatus } from '../../github/client.js';
import { learnFix } from '../../services/learn.js';
import type { CliContext } from '../context.js';
import { engineDeps } from '../engine.js';
import { flag, parseFlags } from '../flags.js';
import { startProgress } from '../progress.js';
import type { CliCommand } from './command.js';

type Octokit = InstanceType<typeof ProbotOctokit>;

const shape = {
  org: z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/, 'must be an organization login like acme'),
  repo: z
    .string()
    .regex(/^(?:[A-Za-z0-9-]+\/)?[A-Za-z0-9_.-]+$/, 'must be a repository name like api (or acme/api)')
    .optional(),
  limit: flag.wholeNumber(1, undefined, 500).optional(),
  restart: z.boolean().optional(),
  json: z.boolean().optional(),
};

function baseUrlOf(env: Record<string, string | undefined>): string | undefined {
  return env.GHE_HOST ? `${env.GHE_PROTOCOL ?? 'https'}://${env.GHE_HOST}/api/v3` : undefined;
}

/** An Octokit for the org: a token, or the App's installation on the org. */
export async function githubForOrg(
  env: Record<string, string | undefined>,
  org: string,
): Promise<{ octokit: Octokit; how: string }> {
  const baseUrl = baseUrlOf(env);
  const token = env.GITHUB_TOKEN?.trim() || env.GH_TOKEN?.trim();
  if (token)
    return { octokit: new ProbotOctokit({ auth: { token }, ...(baseUrl ? { baseUrl } : {}) }), how: 'GITHUB_TOKEN' };
  if (!env.APP_ID || !(env.PRIVATE_KEY || env.PRIVATE_KEY_PATH)) {
    throw new InputError(
      'backfill needs GitHub access: set GITHUB_TOKEN, or the App credentials APP_ID and PRIVATE_KEY (docs/app-setup.md)',
    );
  }
  const privateKey = env.PRIVATE_KEY
    ? normalizePrivateKey(env.PRIVATE_KEY)
    : normalizePrivateKey((await import('node:fs')).readFileSync(env.PRIVATE_KEY_PATH ?? '', 'utf8'));
  const probot = new Probot({ appId: env.APP_ID, privateKey, ...(baseUrl ? { baseUrl } : {}), logLevel: 'warn' });
  const appOctokit = await probot.auth();
  let installationId: number;
  try {
    installationId = (await appOctokit.request('GET /orgs/{org}/installation', { org })).data.id;
  } catch (error) {
    if (httpStatus(error) === 404)
      throw new InputError(`the App is not installed on ${org}: install it first (docs/app-setup.md)`);
    throw error;
  }
  return { octokit: await probot.auth(installationId), how: `the App installation ${installationId}` };
}

async function reposOf(octokit: Octokit, org: string, how: string): Promise<string[]> {
  const names: string[] = [];
  if (how.startsWith('the App')) {
    const repos = await octokit.paginate('GET /installation/repositories', { per_page: 100 });
    for (const repo of repos)
      if (!repo.archived && repo.owner.login.toLowerCase() === org.toLowerCase()) names.push(repo.name);
  } else {
    const repos = await octokit.paginate('GET /orgs/{org}/repos', { org, type: 'all', per_page: 100 });
    for (const repo of repos) if (!repo.archived && !repo.fork) names.push(repo.name);
  }
  return names.sort();
}

async function backfill(ctx: CliContext, raw: Record<string, unknown>): Promise<void> {
  const opts = parseFlags(shape, raw);
  const org = opts.org;
  const repoFlag = opts.repo?.includes('/') ? opts.repo : opts.repo && `${org}/${opts.repo}`;
  if (repoFlag && repoFlag.split('/')[0]?.toLowerCase() !== org.toLowerCase()) {
    throw new InputError(`--repo: ${repoFlag} is not in the organization ${org}`);
  }
  let github: { octokit: Octokit; how: string };
  try {
    github = await githubForOrg(ctx.io.env, org);
  } catch (error) {
    const status = httpStatus(error);
    if (status === 401)
      throw new AuthError('GitHub refused the credentials (401): check GITHUB_TOKEN or APP_ID/PRIVATE_KEY', 401);
    throw error;
  }
  const repos = repoFlag ? [repoFlag.split('/')[1] ?? ''] : await reposOf(github.octokit, org, github.how);
  if (repos.length === 0) throw new InputError(`no repositories to backfill in ${org} with ${github.how}`);
  const results: (BackfillResult & { created: number; merged: number })[] = [];
  await ctx.withStore(async (store) => {
    const deps = await engineDeps(ctx, store);
    for (const repo of repos) {
      const progress = startProgress(ctx.io, `backfill ${org}/${repo}`, opts.limit, opts.json);
      let created = 0;
      let merged = 0;
      try {
        const config = await loadRepoConfig(github.octokit, `${org}/${repo}`)
          .then((loaded) => loaded.config)
          .catch(() => DEFAULT_REPO_CONFIG);
        if (!config.enabled) continue;
        const result = await backfillRepository(deps, github.octokit, {
          owner: org,
          repo,
          ...(opts.limit ? { limit: opts.limit } : {}),
          ...(opts.restart ? { restart: true } : {}),
          appSlug: ctx.io.env.APP_SLUG ?? 'memory-transfer',
          fixLabels: config.fix_labels,
          trustedBots: config.trusted_bots,
          onFix: async (fix) => {
            const learned = await learnFix(deps, fix, {});
            created += learned.created.length;
            merged += learned.merged.length;
          },
          onProgress: (p) => progress.update(p.scanned, p.total),
        });
        results.push({ ...result, created, merged });
      } catch (error) {
        const status = httpStatus(error);
        if (status === 404) {
          ctx.logger.warn(`${org}/${repo} not found or not accessible; skipped`);
          continue;
        }
        if (status !== undefined && (status === 403 || status === 429 || status >= 500)) {
          throw new UpstreamError(
            `GitHub answered ${status} for ${org}/${repo}: run the same command again to resume`,
            true,
          );
        }
        throw error;
      } finally {
        progress.stop();
      }
    }
  });
  if (opts.json) {
    ctx.json({ org, repos: results });
    return;
  }
  for (const r of results) {
    ctx.print(
      `${r.repo}: scanned ${r.scanned} merged PRs, ${r.fixes} fixes learned (${r.created} memories created, ${r.merged} insights strengthened)` +
        `${r.done ? '' : ' — more to scan: run again to resume'} [${r.requests} GitHub requests]`,
    );
  }
}

export const backfillCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('backfill')
      .requiredOption('--org <org>', 'the organization')
      .option('--repo <name>', 'only this repository (name or org/name)')
      .option('--limit <n>', 'at most this many merged PRs per repository in this pass (newest first)')
      .option('--restart', 'start again from the newest PR instead of resuming')
      .option('--json', 'print the summary as JSON')
      .action((options: Record<string, unknown>) => backfill(ctx, options));
  },
};
