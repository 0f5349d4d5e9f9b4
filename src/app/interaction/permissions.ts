/**
 * Who may change the pool from a comment or the dashboard: people with write access to the
 * repository, asked through src/github/trust.ts (the same answer, and the same cache, as the
 * learning side). Interaction decisions use a shorter cache so a revoked permission stops working
 * within minutes.
 */
import { hasWriteAccess as askWriteAccess } from '../../github/trust.js';
import type { InstallationOctokit, InteractionContext } from './context.js';

/** How long an interaction's permission answer is cached. */
export const INTERACTION_TRUST_TTL_MS = 5 * 60_000;

/** True when `login` has write access (or more) to owner/repo; false for anyone else, bots and unknown users. */
export function hasWriteAccess(
  ctx: InteractionContext,
  octokit: InstallationOctokit,
  owner: string,
  repo: string,
  login: string,
): Promise<boolean> {
  return askWriteAccess({ ...ctx.deps, ttlMs: INTERACTION_TRUST_TTL_MS }, octokit, { owner, repo }, login);
}
