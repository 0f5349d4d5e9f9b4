/**
 * The slice of Octokit the GitHub adapters use: `request` and `graphql`. Probot's
 * `context.octokit`, `probot.auth(id)` and a `ProbotOctokit` made from a token all fit.
 */
import type { ProbotOctokit } from 'probot';
import { RequestError } from 'octokit';

type Octokit = InstanceType<typeof ProbotOctokit>;

export interface GitHubClient {
  request: Octokit['request'];
  graphql: Octokit['graphql'];
}

/** The HTTP status of an Octokit error (also of GraphQL errors carrying one), or undefined. */
export function httpStatus(error: unknown): number | undefined {
  if (error instanceof RequestError) return error.status;
  if (typeof error === 'object' && error !== null && 'status' in error) {
    const status = (error as { status: unknown }).status;
    if (typeof status === 'number') return status;
  }
  return undefined;
}

/** A GitHub "not found" (the repository, PR or issue is gone, or the App lost access). */
export function isNotFound(error: unknown): boolean {
  if (httpStatus(error) === 404) return true;
  // GraphQL answers 200 with errors of type NOT_FOUND
  if (typeof error === 'object' && error !== null && 'errors' in error) {
    const errors = (error as { errors: unknown }).errors;
    return Array.isArray(errors) && errors.some((e: { type?: unknown }) => e?.type === 'NOT_FOUND');
  }
  return false;
}
