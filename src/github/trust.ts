/**
 * Who may teach the pool: people with write access to the repository (admin, maintain, write),
 * asked from GitHub's collaborator permission API, not `author_association` (private org members
 * show as CONTRIBUTOR). Answers are cached in the store's state with a TTL.
 */
import { z } from 'zod';
import type { Store } from '../store/store.js';
import type { Clock, Logger } from '../ports/index.js';
import { describeError } from '../core/errors.js';
import { httpStatus, type GitHubClient } from './client.js';

export interface TrustDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  /** how long an answer is cached (default 1 hour) */
  ttlMs?: number;
}

const Cached = z.object({ write: z.boolean(), at: z.string() });

const WRITE = new Set(['admin', 'maintain', 'write']);

/** A GitHub user login (bots' `name[bot]` logins never have write access through this API). */
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;

function cacheKey(owner: string, repo: string, login: string): string {
  return `trust:${owner.toLowerCase()}/${repo.toLowerCase()}:${login.toLowerCase()}`;
}

/**
 * True when `login` has write access (admin, maintain, write) to owner/repo. Not a collaborator
 * (404), not a user login, a bot or "ghost" → false. Other errors propagate (the job is retried),
 * never a guess. The one place this question is asked: learning (trust) and interaction
 * (commands, dashboard ticks) both call it.
 */
export async function hasWriteAccess(
  deps: TrustDeps,
  gh: GitHubClient,
  ref: { owner: string; repo: string },
  login: string,
): Promise<boolean> {
  if (!LOGIN.test(login) || login === 'ghost') return false;
  const key = cacheKey(ref.owner, ref.repo, login);
  const ttl = deps.ttlMs ?? 60 * 60_000;
  const raw = await deps.store.getState(key);
  if (raw) {
    const parsed = Cached.safeParse(safeJson(raw));
    if (parsed.success && deps.clock.now().getTime() - Date.parse(parsed.data.at) < ttl) return parsed.data.write;
  }
  let write: boolean;
  try {
    const response = await gh.request('GET /repos/{owner}/{repo}/collaborators/{username}/permission', {
      owner: ref.owner,
      repo: ref.repo,
      username: login,
    });
    const data = (response.data ?? {}) as { permission?: unknown; role_name?: unknown };
    write =
      (typeof data.role_name === 'string' && WRITE.has(data.role_name)) ||
      (typeof data.permission === 'string' && WRITE.has(data.permission));
  } catch (error) {
    if (httpStatus(error) !== 404) throw error;
    deps.logger.debug('not a collaborator', { repo: `${ref.owner}/${ref.repo}`, login, error: describeError(error) });
    write = false;
  }
  await deps.store.setState(key, JSON.stringify({ write, at: deps.clock.now().toISOString() }));
  return write;
}

export interface TrustVerdict {
  trusted: boolean;
  /** who lacks write access, for the log */
  untrusted: string[];
}

/** A fix is trusted when its merger and every author of its text have write access. */
export async function judgeTrust(
  deps: TrustDeps,
  gh: GitHubClient,
  ref: { owner: string; repo: string },
  people: { mergedBy?: string; textAuthors: string[] },
): Promise<TrustVerdict> {
  const logins = [...new Set([...(people.mergedBy ? [people.mergedBy] : []), ...people.textAuthors])];
  const untrusted: string[] = [];
  if (!people.mergedBy) untrusted.push('(no merger)');
  for (const login of logins) {
    if (!(await hasWriteAccess(deps, gh, ref, login))) untrusted.push(login);
  }
  return { trusted: untrusted.length === 0, untrusted };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
