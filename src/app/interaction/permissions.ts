/**
 * Who may change the pool: people with write access to the repository (admin, maintain, write),
 * asked of GitHub's collaborator permission API. `author_association` is not enough: private
 * org members show as CONTRIBUTOR.
 */
import { z } from 'zod';
import { httpStatus } from '../../github/client.js';
import type { InstallationOctokit } from './context.js';

const permissionResponse = z.object({
  permission: z.string(),
  role_name: z.string().optional(),
});

const WRITE_ROLES = new Set(['admin', 'maintain', 'write']);

const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;

/** True when `login` has write access (or more) to owner/repo; false for anyone else, bots and unknown users. */
export async function hasWriteAccess(
  octokit: InstallationOctokit,
  owner: string,
  repo: string,
  login: string,
): Promise<boolean> {
  if (!LOGIN.test(login)) return false;
  try {
    const { data } = await octokit.request('GET /repos/{owner}/{repo}/collaborators/{username}/permission', {
      owner,
      repo,
      username: login,
    });
    const parsed = permissionResponse.safeParse(data);
    if (!parsed.success) return false;
    return WRITE_ROLES.has(parsed.data.permission) || WRITE_ROLES.has(parsed.data.role_name ?? '');
  } catch (error) {
    // 404: not a collaborator (or not a user); anything else is worth a retry
    if (httpStatus(error) === 404) return false;
    throw error;
  }
}
