/**
 * A commit that made a failing check on the default branch pass, with no pull request behind it:
 * its message, files and capped patch, and the failing check's annotations or log excerpt.
 */
import { detectFix, type FixSkipReason } from '../core/retrieval/fix-detection.js';
import { tenantOf } from '../core/ids.js';
import { isTestPath } from '../core/test-paths.js';
import type { Fix } from '../core/types.js';
import type { GitHubClient } from './client.js';
import {
  checkExcerpt,
  checkKindOf,
  currentName,
  DEFAULT_GATHER_LIMITS,
  visibilityOf,
  type GatherLimits,
} from './gather-fix.js';

export type CommitFixResult =
  { fix: true; value: Fix; pusher?: string; authors: string[] } | { fix: false; reason: FixSkipReason };

export async function gatherCommitFix(
  gh: GitHubClient,
  ref: { owner: string; repo: string; sha: string; failedCheck?: { name: string; checkRunId?: number } },
  options: { appSlug: string; fixLabels: string[]; trustedBots?: string[] },
  limits: GatherLimits = DEFAULT_GATHER_LIMITS,
): Promise<CommitFixResult> {
  const [{ data: repository }, { data: commit }] = [
    await gh.request('GET /repos/{owner}/{repo}', { owner: ref.owner, repo: ref.repo }),
    await gh.request('GET /repos/{owner}/{repo}/commits/{ref}', { owner: ref.owner, repo: ref.repo, ref: ref.sha }),
  ];
  const message = commit.commit.message;
  const [subject = '', ...rest] = message.split('\n');
  const body = rest.join('\n').trim();
  const author = commit.author?.login ?? commit.committer?.login ?? 'ghost';
  const entries = (commit.files ?? []).slice(0, limits.maxFiles);
  const files = entries.map((f) => f.filename);
  const verdict = detectFix(
    {
      title: subject,
      body,
      labels: [],
      files,
      changedFiles: commit.files?.length ?? files.length,
      author: { login: author, type: commit.author?.type ?? 'User' },
      checksRedGreen: ref.failedCheck !== undefined,
    },
    options,
  );
  if (!verdict.fix) return verdict;
  let change = '';
  for (const entry of [...entries].sort((a, b) => Number(isTestPath(b.filename)) - Number(isTestPath(a.filename)))) {
    if (!entry.patch) continue;
    const block = `--- ${entry.filename}\n${entry.patch.slice(0, limits.maxPatchChars)}\n`;
    if (change.length + block.length > limits.maxChangeChars) break;
    change += block;
  }
  const excerpt = ref.failedCheck ? await checkExcerpt(gh, ref, ref.failedCheck, limits) : undefined;
  // learned under the repository's current name (as for pull requests): an event from before a
  // rename dedupes with the record the rename moved
  const name = currentName(repository.full_name, ref);
  const fix: Fix = {
    tenant: tenantOf(name),
    repo: name,
    repoId: Number(repository.id),
    visibility: visibilityOf(repository),
    sourceKind: 'commit',
    ref: ref.sha,
    url: commit.html_url,
    title: subject,
    problem: body,
    change: change.trimEnd() || subject,
    files,
    testsChanged: files.some(isTestPath),
    signals: ref.failedCheck
      ? [
          {
            kind: 'check-red-green',
            check: checkKindOf(ref.failedCheck.name),
            name: ref.failedCheck.name,
            ...(excerpt ? { excerpt } : {}),
          },
        ]
      : [],
    authors: [author],
    trusted: false,
    ...(repository.language ? { language: repository.language } : {}),
    date: commit.commit.committer?.date ?? commit.commit.author?.date ?? new Date(0).toISOString(),
  };
  return { fix: true, value: fix, pusher: author, authors: [author] };
}
