/**
 * The interaction's small persistent state, kept in the store's key-value table and parsed with
 * zod on the way back in (a corrupt or outdated entry reads as missing, never as a crash).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { VISIBILITIES } from '../../core/types.js';
import type { Store } from '../../store/store.js';

const shownHit = z.object({
  id: z.string(),
  score: z.number(),
  parts: z.object({
    lexical: z.number(),
    vector: z.number(),
    routine: z.number(),
    prior: z.number(),
    fused: z.number(),
  }),
});

/** Our one suggestion comment on an issue or PR. */
export const commentState = z.object({
  installationId: z.number().int(),
  commentId: z.number().int(),
  /** the insights the comment shows now, with their scores (for `/memory why`) */
  shown: z.array(shownHit).default([]),
  /** reaction ids already turned into votes (so a sweep twice counts once) */
  countedReactions: z.array(z.number().int()).default([]),
  /** the 👍/👎 that voted, and on which insights: a reaction removed later takes its votes back */
  votedReactions: z
    .array(
      z.object({
        id: z.number().int(),
        login: z.string(),
        direction: z.enum(['up', 'down']),
        memories: z.array(z.string()),
      }),
    )
    .default([]),
  /** a person deleted the comment: never post it again on this thread */
  deleted: z.boolean().default(false),
  /** hash of the body last written, to skip writes that change nothing */
  bodyHash: z.string().optional(),
  updatedAt: z.string(),
});
export type CommentState = z.infer<typeof commentState>;

/** The comments the periodic reaction sweep visits. */
export const sweepIndex = z.array(
  z.object({ repo: z.string(), number: z.number().int(), installationId: z.number().int(), at: z.string() }),
);
export type SweepIndex = z.infer<typeof sweepIndex>;

/** The review dashboard of one repository. */
export const dashboardState = z.object({
  /** the dashboard issue's number, once created */
  number: z.number().int().optional(),
  installationId: z.number().int().optional(),
  /** a person closed the dashboard: it is never reopened or recreated */
  closedByPerson: z.boolean().default(false),
  /** memory ids proposed to this dashboard (listed while they are still proposed) */
  items: z.array(z.string()).default([]),
  /** configuration problems to show, by repository (with its visibility: shown only to readers who may see it) */
  configProblems: z
    .record(z.string(), z.object({ visibility: z.enum(VISIBILITIES), problems: z.array(z.string()) }))
    .default({}),
  /** hash of the body last written, to skip writes that change nothing */
  lastBodyHash: z.string().optional(),
});
export type DashboardState = z.infer<typeof dashboardState>;

/** Our review comment on a source PR (review: comment). */
export const reviewCommentState = z.object({
  commentId: z.number().int(),
  items: z.array(z.string()).default([]),
  bodyHash: z.string().optional(),
});
export type ReviewCommentState = z.infer<typeof reviewCommentState>;

export const keys = {
  comment: (repo: string, number: number) => `interaction:comment:${repo.toLowerCase()}#${number}`,
  sweepIndex: () => 'interaction:sweep-index',
  dashboard: (repo: string) => `interaction:dashboard:${repo.toLowerCase()}`,
  configError: (repo: string) => `interaction:config-error:${repo.toLowerCase()}`,
  reviewComment: (repo: string, number: number) => `interaction:review-comment:${repo.toLowerCase()}#${number}`,
};

export async function readState<T>(store: Store, key: string, schema: z.ZodType<T>): Promise<T | undefined> {
  const raw = await store.getState(key);
  if (raw === undefined || raw === '') return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export async function writeState<T>(store: Store, key: string, value: T): Promise<void> {
  await store.setState(key, JSON.stringify(value));
}

/** A short hash of a rendered body (to skip writes that would change nothing). */
export function bodyHash(body: string): string {
  return createHash('sha256').update(body).digest('hex').slice(0, 16);
}
