/**
 * The one suggestion comment per issue or PR: recall insights learned in other repositories for
 * the thread's text, and post them (or edit our earlier comment in place). Silence when nothing
 * clears the relevance bar; an earlier comment is then edited to say so.
 */
import { z } from 'zod';
import {
  COMMENT_HEADING,
  COMMENT_MARKER,
  renderNoLongerRelevant,
  renderSuggestionComment,
  type ShownHit,
} from '../../core/rendering/comment-render.js';
import { tenantOf } from '../../core/ids.js';
import { TASK_KINDS } from '../../core/retrieval/task-kind.js';
import { MAX_TOP_K } from '../../core/repo-config.js';
import { VISIBILITIES, type RecallHit, type Requester } from '../../core/types.js';
import { maySee } from '../../core/visibility.js';
import { isNotFound } from '../../github/client.js';
import { withheldInsights } from '../../services/withheld.js';
import { recall, withCompleteProvenance } from '../../services/recall.js';
import { recordCommentUsage } from '../../services/usage.js';
import { LeaseLostError } from '../worker.js';
import { configFor } from './config.js';
import { failingChecksText } from './failing-checks.js';
import { botLogin, isRefusedForGood, splitRepo, type InstallationOctokit, type InteractionContext } from './context.js';
import { harvestReactions, SWEEP_DAYS } from './reactions.js';
import { renderContext } from './render.js';
import { bodyHash, commentState, keys, readState, sweepIndex, writeState, type CommentState } from './state.js';

export const SUGGEST_JOB = 'interaction-suggest';

export const suggestJob = z.object({
  installationId: z.number().int(),
  repo: z.string(),
  repoId: z.number().int().optional(),
  visibility: z.enum(VISIBILITIES),
  number: z.number().int(),
  kind: z.enum(['issue', 'pull_request']),
  /** the issue's text from the webhook (a PR's text is fetched when the job runs) */
  title: z.string().optional(),
  body: z.string().optional(),
  /** a PR's head commit whose CI failed: its failing checks are read with the PR's text */
  headSha: z.string().optional(),
});
export type SuggestJob = z.infer<typeof suggestJob>;

/** The task text recall sees: capped, so a huge issue body costs no more than a normal one. */
const MAX_TASK_CHARS = 8_000;
const MAX_SWEEP_ENTRIES = 2_000;

export async function readCommentState(
  ctx: InteractionContext,
  repo: string,
  number: number,
): Promise<CommentState | undefined> {
  return readState(ctx.deps.store, keys.comment(repo, number), commentState);
}

/**
 * A job whose lease was lost (another worker claimed it while this one waited on GitHub) writes
 * nothing: the other run owns the thread's one comment.
 */
async function mustHoldLease(lease: (() => Promise<boolean>) | undefined, job: SuggestJob): Promise<void> {
  if (lease && !(await lease())) throw new LeaseLostError(`${SUGGEST_JOB} ${job.repo}#${job.number}`);
}

/**
 * Our earlier suggestion comment on the thread when the store does not know it (forgotten, or
 * written by another run meanwhile): the bot's comment carrying our hidden marker (or, written by
 * an earlier version, starting with our heading).
 */
async function findOurComment(
  ctx: InteractionContext,
  octokit: InstallationOctokit,
  repo: string,
  number: number,
): Promise<number | undefined> {
  const login = botLogin(ctx).toLowerCase();
  const comments = await octokit.paginate('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', {
    ...splitRepo(repo),
    issue_number: number,
    per_page: 100,
  });
  const ours = comments.find(
    (c) =>
      c.user?.login.toLowerCase() === login &&
      ((c.body ?? '').includes(COMMENT_MARKER) || (c.body ?? '').startsWith(COMMENT_HEADING)),
  );
  return ours?.id;
}

async function threadText(
  octokit: InstallationOctokit,
  job: SuggestJob,
): Promise<{ text: string; open: boolean; failing?: boolean } | undefined> {
  if (job.kind === 'issue') return { text: `${job.title ?? ''}\n\n${job.body ?? ''}`, open: true };
  try {
    const { data } = await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', {
      ...splitRepo(job.repo),
      pull_number: job.number,
    });
    const failing = job.headSha ? await failingChecksText(octokit, job.repo, job.headSha) : '';
    return {
      text: `${data.title}\n\n${data.body ?? ''}${failing ? `\n\n${failing}` : ''}`,
      open: data.state === 'open',
      failing: failing !== '',
    };
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

async function rememberForSweep(ctx: InteractionContext, job: SuggestJob, at: string): Promise<void> {
  const { store } = ctx.deps;
  const index = (await readState(store, keys.sweepIndex(), sweepIndex)) ?? [];
  const cutoff = new Date(ctx.deps.clock.now().getTime() - SWEEP_DAYS * 86_400_000).toISOString();
  const kept = index.filter(
    (e) => e.at >= cutoff && !(e.repo.toLowerCase() === job.repo.toLowerCase() && e.number === job.number),
  );
  kept.push({ repo: job.repo, number: job.number, installationId: job.installationId, at });
  await writeState(store, keys.sweepIndex(), kept.slice(-MAX_SWEEP_ENTRIES));
}

function toShown(hit: RecallHit): ShownHit {
  return { id: hit.memory.id, score: hit.score, parts: hit.parts };
}

/** What happened, for logs and tests. */
export type SuggestOutcome =
  'disabled' | 'silent' | 'posted' | 'edited' | 'unchanged' | 'gone' | 'refused' | 'deleted-by-person';

/** The suggest job: recall for the thread and write (or edit) the one comment. */
export async function runSuggest(
  ctx: InteractionContext,
  job: SuggestJob,
  lease?: () => Promise<boolean>,
): Promise<SuggestOutcome> {
  const { deps } = ctx;
  const { store, logger, clock } = deps;
  const octokit = await ctx.auth(job.installationId);
  const config = await configFor(ctx, octokit, job);
  if (!config.enabled) return 'disabled';
  if (job.kind === 'issue' ? !config.comment.issues : !config.comment.failing_prs) return 'disabled';

  const thread = await threadText(octokit, job);
  if (!thread) return 'gone';
  if (!thread.open) return 'disabled';

  const requester: Requester = {
    tenant: tenantOf(job.repo),
    repo: job.repo,
    ...(job.repoId !== undefined ? { repoId: job.repoId } : {}),
    visibility: job.visibility,
  };
  const k = Math.min(config.top_k, MAX_TOP_K);
  const task = thread.text.slice(0, MAX_TASK_CHARS);
  const recallOptions = {
    k,
    excludeRepo: job.repo,
    // a PR whose CI is red reports a failure whatever its title asks for ("Add dark mode")
    ...(thread.failing ? { taskKinds: TASK_KINDS } : {}),
    ...(config.min_score !== null ? { minScore: config.min_score } : {}),
  };
  const recalled = (await recall(deps, requester, task, recallOptions))
    // the policy once more at the last step before writing: nothing the reader may not see
    .filter((hit) => hit.memory.level === 'insight' && maySee(hit.memory, requester))
    .slice(0, k);
  // relevant insights too private for this repository: a count in the comment, never which
  const withheld = await withheldInsights(requester, recalled, {
    k,
    nameIds: false,
    recallAsPrivate: (wider) => recall(deps, wider, task, recallOptions),
  });
  // the source links name every source the reader may open: complete provenance for the few shown
  const hits = await withCompleteProvenance(deps.store, requester.tenant, recalled);

  const key = keys.comment(job.repo, job.number);
  let state = await readCommentState(ctx, job.repo, job.number);
  if (state?.deleted) return 'deleted-by-person';
  const commentId = state?.commentId ?? (await findOurComment(ctx, octokit, job.repo, job.number));
  if (hits.length === 0 && commentId === undefined) return 'silent';

  const body =
    hits.length > 0
      ? renderSuggestionComment(hits, renderContext(ctx, requester), k, withheld)
      : renderNoLongerRelevant(withheld);
  const now = clock.now().toISOString();
  const { owner, repo } = splitRepo(job.repo);
  let outcome: SuggestOutcome;
  let id: number;
  if (commentId !== undefined) {
    state ??= {
      installationId: job.installationId,
      commentId,
      shown: [],
      countedReactions: [],
      votedReactions: [],
      deleted: false,
      updatedAt: now,
    };
    if (state.bodyHash === bodyHash(body)) return 'unchanged';
    // votes go to the insights people reacted to: count reactions before the comment changes
    state = await harvestReactions(ctx, octokit, job.repo, job.number, state);
    await mustHoldLease(lease, job);
    try {
      await octokit.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', {
        owner,
        repo,
        comment_id: commentId,
        body,
      });
    } catch (error) {
      if (isRefusedForGood(error)) {
        logger.info('suggestion comment could not be edited (locked or archived)', {
          repo: job.repo,
          number: job.number,
        });
        return 'refused';
      }
      if (!isNotFound(error)) throw error;
      // a person deleted our comment: respect it, never post again on this thread
      await writeState(store, key, { ...state, deleted: true, updatedAt: now });
      logger.info('suggestion comment was deleted; not posting again', { repo: job.repo, number: job.number });
      return 'deleted-by-person';
    }
    id = commentId;
    outcome = 'edited';
  } else {
    let data: { id: number | bigint };
    await mustHoldLease(lease, job);
    try {
      ({ data } = await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        owner,
        repo,
        issue_number: job.number,
        body,
      }));
    } catch (error) {
      if (!isRefusedForGood(error) && !isNotFound(error)) throw error;
      logger.info('suggestion comment refused (locked, archived or gone)', { repo: job.repo, number: job.number });
      return 'refused';
    }
    id = Number(data.id);
    outcome = 'posted';
  }
  await writeState(store, key, {
    installationId: job.installationId,
    commentId: id,
    shown: hits.map(toShown),
    countedReactions: state?.countedReactions ?? [],
    votedReactions: state?.votedReactions ?? [],
    deleted: false,
    bodyHash: bodyHash(body),
    updatedAt: now,
  } satisfies CommentState);
  // each insight the comment shows is used once by this comment (not again on an edit)
  await recordCommentUsage(deps, {
    requester: { ...requester, repo: job.repo },
    commentId: id,
    ids: hits.map((h) => h.memory.id),
  });
  await rememberForSweep(ctx, job, now);
  logger.info(`suggestion comment ${outcome}`, {
    repo: job.repo,
    number: job.number,
    ids: hits.map((h) => h.memory.id),
  });
  return outcome;
}
