/**
 * 👍/👎 on our suggestion comment become votes on the insights it shows. GitHub sends no webhook
 * for reactions, so they are read back when the issue or PR closes and by a periodic sweep.
 * Each reaction is counted once: the ids of counted reactions are kept with the comment's state,
 * and a removed 👍/👎 takes its votes back.
 */
import { z } from 'zod';
import { describeError } from '../../core/errors.js';
import { tenantOf } from '../../core/ids.js';
import { isNotFound } from '../../github/client.js';
import type { Clock } from '../../ports/index.js';
import type { JobQueue } from '../deps.js';
import { splitRepo, type InstallationOctokit, type InteractionContext } from './context.js';
import { vote, withdrawVote } from '../../services/governance.js';
import { commentState, keys, readState, sweepIndex, writeState, type CommentState } from './state.js';

export const REACTIONS_JOB = 'interaction-reactions';
/** The sweep visits comments written or edited this recently; older ones are final. */
export const SWEEP_DAYS = 30;
export const SWEEP_JOB = 'reactions-sweep';

export const reactionsJob = z.object({
  installationId: z.number().int(),
  repo: z.string(),
  number: z.number().int(),
  /** the thread closed: harvest one last time and stop sweeping it */
  final: z.boolean().default(false),
});
export type ReactionsJob = z.infer<typeof reactionsJob>;

const reaction = z.object({
  id: z.number().int(),
  content: z.string(),
  user: z.object({ login: z.string(), type: z.string().optional() }).nullable(),
});

/**
 * Reads the reactions on our comment and turns every 👍/👎 not counted before into a vote on each
 * insight the comment shows; a 👍/👎 that voted before and is gone now (the person removed it)
 * takes its votes back from the insights it voted on. Returns (and stores) the updated state.
 */
export async function harvestReactions(
  ctx: InteractionContext,
  octokit: InstallationOctokit,
  repo: string,
  number: number,
  state: CommentState,
): Promise<CommentState> {
  if (state.deleted || (state.shown.length === 0 && state.votedReactions.length === 0)) return state;
  let raw: unknown[];
  try {
    raw = await octokit.paginate('GET /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', {
      ...splitRepo(repo),
      comment_id: state.commentId,
      per_page: 100,
    });
  } catch (error) {
    if (isNotFound(error)) return state;
    throw error;
  }
  const { store, clock, logger } = ctx.deps;
  const tenant = tenantOf(repo);
  // the thread a vote comes from: a person's vote stays while a reaction of theirs in any thread backs it
  const source = `${repo.toLowerCase()}#${number}`;
  /** a person's vote on one insight; false when it is gone (a forgotten insight has nothing left to vote on) */
  const castVote = async (id: string, direction: 'up' | 'down', login: string): Promise<boolean> => {
    if (!(await store.getMemory(tenant, id))) return false;
    await vote(store, tenant, id, direction, { actor: login, now: clock.now() }, source);
    return true;
  };
  const reactions = raw.flatMap((item) => {
    const parsed = reaction.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
  // every id GitHub listed, even of an item we could not read: only a reaction truly gone withdraws
  const present = new Set(raw.map((item) => (item as { id?: unknown } | null)?.id));
  const counted = new Set(state.countedReactions);
  const voted = state.votedReactions.filter((r) => present.has(r.id));
  let withdrawn = 0;
  const changedMinds = new Set<string>();
  for (const gone of state.votedReactions.filter((r) => !present.has(r.id))) {
    counted.delete(gone.id);
    changedMinds.add(gone.login);
    for (const id of gone.memories) {
      await withdrawVote(store, tenant, id, gone.direction, { actor: gone.login, now: clock.now() }, source);
      withdrawn += 1;
    }
  }
  // a person who reacted both ways and removed one: the reaction left counts again
  for (const kept of voted.filter((r) => changedMinds.has(r.login))) {
    for (const id of kept.memories) await castVote(id, kept.direction, kept.login);
  }
  let votes = 0;
  for (const { id, content, user } of reactions) {
    if (counted.has(id) || (content !== '+1' && content !== '-1')) continue;
    counted.add(id);
    if (!user || user.type === 'Bot' || user.login.endsWith('[bot]')) continue;
    const direction = content === '+1' ? 'up' : 'down';
    const memories: string[] = [];
    for (const shown of state.shown) {
      if (!(await castVote(shown.id, direction, user.login))) continue;
      memories.push(shown.id);
      votes += 1;
    }
    voted.push({ id, login: user.login, direction, memories });
  }
  const next = { ...state, countedReactions: [...counted], votedReactions: voted };
  if (votes > 0 || withdrawn > 0 || next.countedReactions.length !== state.countedReactions.length) {
    await writeState(store, keys.comment(repo, number), next);
  }
  if (votes > 0) logger.info('reactions counted as votes', { repo, number, votes });
  if (withdrawn > 0) logger.info('removed reactions took their votes back', { repo, number, votes: withdrawn });
  return next;
}

/** Harvests one thread's comment; on `final` (the thread closed) it leaves the sweep. */
export async function runReactions(ctx: InteractionContext, job: ReactionsJob): Promise<void> {
  const { store } = ctx.deps;
  const state = await readState(store, keys.comment(job.repo, job.number), commentState);
  if (state) {
    const octokit = await ctx.auth(job.installationId);
    await harvestReactions(ctx, octokit, job.repo, job.number, state);
  }
  if (job.final) {
    const index = (await readState(store, keys.sweepIndex(), sweepIndex)) ?? [];
    const kept = index.filter((e) => !(e.repo.toLowerCase() === job.repo.toLowerCase() && e.number === job.number));
    if (kept.length !== index.length) await writeState(store, keys.sweepIndex(), kept);
  }
}

/** The periodic sweep: harvests every recent suggestion comment; one failing thread does not stop the rest. */
export async function runSweep(ctx: InteractionContext): Promise<{ visited: number; failed: number }> {
  const { store, logger } = ctx.deps;
  const all = (await readState(store, keys.sweepIndex(), sweepIndex)) ?? [];
  const cutoff = new Date(ctx.deps.clock.now().getTime() - SWEEP_DAYS * 86_400_000).toISOString();
  const index = all.filter((entry) => entry.at >= cutoff);
  if (index.length !== all.length) await writeState(store, keys.sweepIndex(), index);
  let visited = 0;
  let failed = 0;
  for (const entry of index) {
    try {
      await runReactions(ctx, { ...entry, final: false });
      visited += 1;
    } catch (error) {
      failed += 1;
      logger.warn('reaction sweep failed for a thread', {
        repo: entry.repo,
        number: entry.number,
        error: describeError(error),
      });
    }
  }
  return { visited, failed };
}

/** The sweep job's key for the time slot `now` falls in: one sweep per slot, however often it is asked for. */
export function sweepKey(now: Date, intervalMs: number): string {
  return `${SWEEP_JOB}:${Math.floor(now.getTime() / intervalMs)}`;
}

export const SWEEP_INTERVAL_MS = 60 * 60_000;

/** Enqueues a sweep every interval; returns a function that stops the timer. The timer never keeps the process alive. */
export function scheduleReactionSweeps(
  queue: JobQueue,
  clock: Clock,
  onError: (error: unknown) => void,
  intervalMs = SWEEP_INTERVAL_MS,
): () => void {
  const timer = setInterval(() => {
    queue.enqueue(sweepKey(clock.now(), intervalMs), SWEEP_JOB, {}).catch(onError);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
