/**
 * What failed on a pull request's head commit, as task text for recall: each failing check's name
 * and its failure annotations, or the error lines of its job log (the same capped excerpt the
 * learn side reads). A PR's title says what it changes ("Add dark mode"); the red check says what
 * went wrong, and that is what an insight from another repository can help with.
 */
import { checkExcerpt, DEFAULT_GATHER_LIMITS, FAILED_CONCLUSIONS, type GatherLimits } from '../../github/gather-fix.js';
import type { InstallationOctokit } from './context.js';
import { splitRepo } from './context.js';

/**
 * The failing checks of a commit, each as "Failing check: <name>" and its excerpt, at most
 * `maxFailedChecks` of them; empty when none failed or they cannot be read (the comment then rests
 * on the PR's own text).
 */
export async function failingChecksText(
  octokit: InstallationOctokit,
  repo: string,
  headSha: string,
  limits: GatherLimits = DEFAULT_GATHER_LIMITS,
): Promise<string> {
  const ref = splitRepo(repo);
  let runs: { id: number; name: string; conclusion: string | null }[];
  try {
    const { data } = await octokit.request('GET /repos/{owner}/{repo}/commits/{ref}/check-runs', {
      ...ref,
      ref: headSha,
      filter: 'latest',
      per_page: 50,
    });
    runs = data.check_runs.map((run) => ({ id: Number(run.id), name: run.name, conclusion: run.conclusion }));
  } catch {
    // the checks are extra evidence: without them the PR's own text is read
    return '';
  }
  const failed = runs.filter((run) => run.conclusion !== null && FAILED_CONCLUSIONS.has(run.conclusion));
  const parts: string[] = [];
  for (const run of failed.slice(0, limits.maxFailedChecks)) {
    const excerpt = await checkExcerpt(octokit, ref, { name: run.name, checkRunId: run.id }, limits);
    parts.push(
      `Failing check: ${run.name}${run.conclusion === 'timed_out' ? ' (timed out)' : ''}${excerpt ? `\n${excerpt}` : ''}`,
    );
  }
  return parts.join('\n\n');
}
