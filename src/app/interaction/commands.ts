/**
 * `/memory …` commands in issue and PR comments (docs/commands.md). approve, reject and forget
 * need write access to the repository (GitHub's collaborator permission API); anyone else gets a
 * polite refusal and nothing changes. Every comment with commands gets one reply.
 */
import { z } from 'zod';
import { parseCommands, WRITE_COMMANDS, type MemoryCommand } from '../../core/commands.js';
import { HELP_TEXT, renderReply, renderSearch, renderWhy } from '../../core/rendering/comment-render.js';
import { tenantOf } from '../../core/ids.js';
import { MEMORY_STATUSES, VISIBILITIES, type Memory, type Requester } from '../../core/types.js';
import { maySee } from '../../core/visibility.js';
import { recall } from '../../services/recall.js';
import { isNotFound } from '../../github/client.js';
import { isRefusedForGood, splitRepo, type InstallationOctokit, type InteractionContext } from './context.js';
import { readDashboard, refreshDashboard } from './dashboard.js';
import { readCommentState } from './comment.js';
import { hasWriteAccess } from './permissions.js';
import { approve, forget, reject } from '../../services/governance.js';
import { renderContext } from './render.js';

export const COMMAND_JOB = 'interaction-command';

export const commandJob = z.object({
  installationId: z.number().int(),
  repo: z.string(),
  repoId: z.number().int().optional(),
  visibility: z.enum(VISIBILITIES),
  number: z.number().int(),
  commentId: z.number().int(),
  author: z.string(),
  body: z.string(),
});
export type CommandJob = z.infer<typeof commandJob>;

const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;

function mention(login: string): string {
  return LOGIN.test(login) ? `@${login}` : 'Sorry';
}

/** Runs the comment's commands and posts one reply. Returns the reply (undefined when there were no commands). */
export async function runCommands(ctx: InteractionContext, job: CommandJob): Promise<string | undefined> {
  const commands = parseCommands(job.body);
  if (commands.length === 0) return undefined;
  const { deps } = ctx;
  const octokit = await ctx.auth(job.installationId);
  const { owner, repo } = splitRepo(job.repo);
  const tenant = tenantOf(job.repo);
  const requester: Requester = {
    tenant,
    repo: job.repo,
    ...(job.repoId !== undefined ? { repoId: job.repoId } : {}),
    visibility: job.visibility,
  };
  const rctx = renderContext(ctx, requester);
  const needsWrite = commands.some((c) => WRITE_COMMANDS.has(c.name as never));
  const writer = needsWrite ? await hasWriteAccess(ctx, octokit, owner, repo, job.author) : false;
  const by = () => ({ actor: job.author, detail: `/memory in ${job.repo}#${job.number}`, now: deps.clock.now() });

  /** The memory a write command names, if this repository may see it (whatever its status). */
  async function target(id: string): Promise<Memory | undefined> {
    const memory = await deps.store.getMemory(tenant, id);
    if (!memory || !maySee(memory, { ...requester, statuses: [...MEMORY_STATUSES] })) return undefined;
    return memory;
  }

  async function run(command: MemoryCommand): Promise<string> {
    switch (command.name) {
      case 'approve':
      case 'reject':
      case 'forget': {
        if (!writer) {
          return `${mention(job.author)}, only people with write access to this repository can approve, reject or forget insights, so \`/memory ${command.name} ${command.id}\` changed nothing. Thank you for the feedback all the same: a 👍 or 👎 on the suggestion comment counts as a vote.`;
        }
        const memory = await target(command.id);
        if (!memory)
          return `\`${command.id}\`: no insight with this id is visible from this repository. Nothing changed.`;
        const title = rctx.escape(memory.title.replace(/\s+/g, ' ').slice(0, 200));
        if (command.name === 'approve') {
          if (memory.status === 'active') return `\`${memory.id}\` **${title}** is already active.`;
          await approve(deps.store, tenant, memory.id, by());
          changed.push(memory.id);
          return `Approved \`${memory.id}\` **${title}**: comments and agents may use it now.`;
        }
        if (command.name === 'reject') {
          if (memory.status === 'rejected') return `\`${memory.id}\` **${title}** is already rejected.`;
          await reject(deps.store, tenant, memory.id, by());
          changed.push(memory.id);
          return `Rejected \`${memory.id}\` **${title}**: it will not be shown or injected again.`;
        }
        await forget(deps.store, tenant, memory.id, by());
        changed.push(memory.id);
        return `Forgot \`${memory.id}\` **${title}**: it is deleted from the pool.`;
      }
      case 'search': {
        const hits = await recall(deps, requester, command.text, { k: 3 });
        return renderSearch(command.text, hits, rctx);
      }
      case 'why': {
        const state = await readCommentState(ctx, job.repo, job.number);
        const shown = state?.shown ?? [];
        const memories = await deps.store.getMemories(
          tenant,
          shown.map((s) => s.id),
        );
        return renderWhy(
          shown,
          memories.filter((m) => maySee(m, { ...requester, statuses: [...MEMORY_STATUSES] })),
          rctx,
        );
      }
      case 'help':
        return HELP_TEXT;
      case 'invalid':
        return `That command was not understood (${command.reason}). \`/memory help\` lists the commands.`;
    }
  }

  const sections: string[] = [];
  /** ids whose status changed: a dashboard listing them is refreshed */
  const changed: string[] = [];
  let refused = false;
  for (const command of commands) {
    const section = await run(command);
    // one refusal is enough, however many write commands the comment holds
    if (WRITE_COMMANDS.has(command.name as never) && !writer) {
      if (refused) continue;
      refused = true;
    }
    sections.push(section);
  }
  if (changed.length > 0) await refreshListingDashboard(ctx, octokit, job, changed);
  const reply = renderReply(sections);
  try {
    await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      owner,
      repo,
      issue_number: job.number,
      body: reply,
    });
  } catch (error) {
    if (!isRefusedForGood(error) && !isNotFound(error)) throw error;
    deps.logger.info('command reply refused (locked, archived or gone)', { repo: job.repo, number: job.number });
  }
  deps.logger.info('memory commands answered', {
    repo: job.repo,
    number: job.number,
    commands: commands.map((c) => c.name),
    writer,
  });
  return reply;
}

/** The dashboard of this repository, when it lists an insight a command just decided, is brought up to date. */
async function refreshListingDashboard(
  ctx: InteractionContext,
  octokit: InstallationOctokit,
  job: CommandJob,
  changed: string[],
): Promise<void> {
  const state = await readDashboard(ctx, job.repo);
  if (state.number === undefined || state.closedByPerson || !changed.some((id) => state.items.includes(id))) return;
  await refreshDashboard(ctx, octokit, job.repo, state, {
    installationId: job.installationId,
    visibility: job.visibility,
    create: false,
  });
}
