/**
 * `push`: a push to a repository's default branch that adds, changes or removes
 * `.github/memory-transfer.yml` drops that repository's cached configuration; in the owner's
 * `.github` repository, every repository of the owner (they fall back to it or extend it). Nothing
 * else is done with pushes: the handler is thin and enqueues nothing.
 */
import type { Probot } from 'probot';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { CONFIG_PATH } from '../interaction/config.js';

const PushEvent = z.looseObject({
  ref: z.string(),
  installation: z.looseObject({ id: z.number().int() }),
  repository: z.looseObject({
    name: z.string(),
    full_name: z.string(),
    owner: z.looseObject({ login: z.string().optional(), name: z.string().optional() }),
    default_branch: z.string().optional(),
  }),
  commits: z
    .array(
      z.looseObject({
        added: z.array(z.string()).optional(),
        modified: z.array(z.string()).optional(),
        removed: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  head_commit: z
    .looseObject({
      added: z.array(z.string()).optional(),
      modified: z.array(z.string()).optional(),
      removed: z.array(z.string()).optional(),
    })
    .nullable()
    .optional(),
});

type Commit = { added?: string[]; modified?: string[]; removed?: string[] };

function touchesConfig(commits: Commit[]): boolean {
  return commits.some((c) => [...(c.added ?? []), ...(c.modified ?? []), ...(c.removed ?? [])].includes(CONFIG_PATH));
}

export function registerConfigChangeHandlers(app: Probot, deps: AppDeps): void {
  app.on('push', async (context) => {
    const configs = deps.configs;
    if (!configs) return;
    const parsed = PushEvent.safeParse(context.payload);
    if (!parsed.success) {
      deps.logger.warn('push ignored: the payload lacks a field', { delivery: context.id });
      return;
    }
    const event = parsed.data;
    const branch = event.repository.default_branch;
    if (branch !== undefined && event.ref !== `refs/heads/${branch}`) return;
    const commits = [...(event.commits ?? []), ...(event.head_commit ? [event.head_commit] : [])];
    if (!touchesConfig(commits)) return;
    const installationId = event.installation.id;
    if (event.repository.name.toLowerCase() === '.github') {
      const owner = event.repository.owner.login ?? event.repository.full_name.split('/')[0] ?? '';
      configs.dropOwner(installationId, owner);
      deps.logger.info('organization configuration changed: cached configurations dropped', { owner });
    } else {
      configs.dropRepo(installationId, event.repository.full_name);
      deps.logger.info('repository configuration changed: cached configuration dropped', {
        repo: event.repository.full_name,
      });
    }
  });
}
