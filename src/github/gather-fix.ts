/**
 * Gathers what a merged pull request tells about a fix: its text and the issues it closed, the
 * changed files and capped patches, and the checks that failed then passed with their
 * annotations or a capped log excerpt. Everything is capped: a 5,000-file PR reads at most
 * `maxFiles` paths, a 50 MB log is never held whole.
 */
import { detectFix, touchesTests, type FixCandidate, type FixVerdict } from '../core/retrieval/fix-detection.js';
import type { CheckKind, Fix, ValidationSignal, Visibility } from '../core/types.js';
import { tenantOf } from '../core/ids.js';
import { isTestPath } from '../core/test-paths.js';
import { isBot, type Actor } from '../core/retrieval/fix-detection.js';
import type { GitHubClient } from './client.js';
import { PULL_REQUEST_QUERY, type PullRequestQuery, type GraphActor, type GraphIssue } from './queries.js';

export interface GatherLimits {
  /** changed paths read (default 300) */
  maxFiles: number;
  /** characters of one file's patch (default 1,500) */
  maxPatchChars: number;
  /** characters of all patches together (default 12,000) */
  maxChangeChars: number;
  /** failed checks whose annotations or logs are read (default 3) */
  maxFailedChecks: number;
  /** characters of one check's excerpt (default 2,000) */
  maxExcerptChars: number;
  /** bytes of a job log read at most (default 256 KiB, from its end) */
  maxLogBytes: number;
}

export const DEFAULT_GATHER_LIMITS: GatherLimits = {
  maxFiles: 300,
  maxPatchChars: 1_500,
  maxChangeChars: 12_000,
  maxFailedChecks: 3,
  maxExcerptChars: 2_000,
  maxLogBytes: 256 * 1024,
};

export interface TextAuthor {
  login: string;
  /** what they wrote: the PR body, an issue */
  what: string;
}

/** The conclusions of a check run, a check suite or a workflow run that failed. */
export const FAILED_CONCLUSIONS: ReadonlySet<string> = new Set(['failure', 'timed_out']);

export interface FailedCheck {
  name: string;
  checkRunId?: number;
  excerpt?: string;
}

export interface PullRequestContext {
  owner: string;
  repo: string;
  repoId?: number;
  visibility: Visibility;
  language?: string;
  number: number;
  url: string;
  title: string;
  body: string;
  labels: string[];
  merged: boolean;
  mergedAt?: string;
  mergeSha?: string;
  author: Actor;
  mergedBy?: Actor;
  commitMessages: string[];
  closedIssues: { number: number; url: string; title: string; body: string; labels: string[]; author?: Actor }[];
  files: string[];
  changedFiles: number;
  change: string;
  failedChecks: FailedCheck[];
}

/** A GraphQL author as fix detection sees it (a Bot or a user). */
export function actor(node: GraphActor | null | undefined): Actor | undefined {
  if (!node) return undefined;
  return { login: node.login, type: node.__typename === 'Bot' ? 'Bot' : 'User' };
}

/** What the GraphQL queries of a single PR and of a page of merged PRs both return about a PR. */
interface GraphPullRequest {
  number: number;
  url: string;
  title: string;
  body?: string | null;
  labels: { nodes: { name: string }[] };
  mergedAt?: string | null;
  mergeCommit?: { oid: string } | null;
  author?: GraphActor | null;
  mergedBy?: GraphActor | null;
  closingIssuesReferences: { nodes: GraphIssue[] };
}

/** The part of a PR's context both queries give: where it lives, its text, who wrote and merged it, what it closes. */
export function pullRequestBasics(
  ref: { owner: string; repo: string },
  repository: Parameters<typeof visibilityOf>[0] & {
    databaseId?: number | null;
    primaryLanguage?: { name: string } | null;
  },
  pr: GraphPullRequest,
): Omit<PullRequestContext, 'merged' | 'commitMessages' | 'files' | 'changedFiles' | 'change' | 'failedChecks'> {
  return {
    owner: ref.owner,
    repo: ref.repo,
    repoId: repository.databaseId ?? undefined,
    visibility: visibilityOf(repository),
    language: repository.primaryLanguage?.name ?? undefined,
    number: pr.number,
    url: pr.url,
    title: pr.title,
    body: pr.body ?? '',
    labels: pr.labels.nodes.map((l) => l.name),
    mergedAt: pr.mergedAt ?? undefined,
    mergeSha: pr.mergeCommit?.oid ?? undefined,
    author: actor(pr.author) ?? { login: 'ghost' },
    mergedBy: actor(pr.mergedBy),
    closedIssues: closedIssuesOf(pr),
  };
}

/** The issues a PR closes, from its GraphQL closing references. */
export function closedIssuesOf(pr: { closingIssuesReferences: { nodes: GraphIssue[] } }) {
  return pr.closingIssuesReferences.nodes.map((issue) => ({
    number: issue.number,
    url: issue.url,
    title: issue.title,
    body: issue.body ?? '',
    labels: issue.labels.nodes.map((l) => l.name),
    author: actor(issue.author),
  }));
}

export function visibilityOf(repository: {
  visibility?: string | null;
  isPrivate?: boolean;
  private?: boolean;
}): Visibility {
  const flagged: Visibility = repository.isPrivate || repository.private ? 'private' : 'public';
  const v = repository.visibility?.toLowerCase();
  // a private flag wins over a stale "public" (old payloads carry both)
  if (v === 'internal' || v === 'private') return v;
  return v === 'public' ? (flagged === 'private' ? 'private' : 'public') : flagged;
}

/** One GraphQL query for the PR, its commits and checks, its closing issues; REST pages for files. */
export async function gatherPullRequest(
  gh: GitHubClient,
  ref: { owner: string; repo: string; number: number },
  limits: GatherLimits = DEFAULT_GATHER_LIMITS,
): Promise<PullRequestContext> {
  const data = await gh.graphql<PullRequestQuery>(PULL_REQUEST_QUERY, {
    owner: ref.owner,
    name: ref.repo,
    number: ref.number,
  });
  const repository = data.repository;
  const pr = repository?.pullRequest;
  if (!repository || !pr) {
    throw Object.assign(new Error(`${ref.owner}/${ref.repo}#${ref.number} not found`), { status: 404 });
  }
  // GitHub answers under the repository's current name: an event from before a rename (or a
  // transfer) is learned under the name the pool now uses, so it dedupes with the new events
  const [owner = ref.owner, name = ref.repo] = currentName(repository.nameWithOwner, ref).split('/');
  ref = { ...ref, owner, repo: name };
  const { files, changedFiles, change } = await gatherFiles(gh, ref, pr.changedFiles, limits);
  const failed = redGreenChecks(pr.commits.nodes.map((n) => n.commit));
  const failedChecks: FailedCheck[] = [];
  for (const check of failed.slice(0, limits.maxFailedChecks)) {
    failedChecks.push({ ...check, excerpt: await checkExcerpt(gh, ref, check, limits) });
  }
  for (const check of failed.slice(limits.maxFailedChecks)) failedChecks.push(check);
  return {
    ...pullRequestBasics(ref, repository, pr),
    merged: pr.merged,
    commitMessages: pr.commits.nodes.map((n) => n.commit.message),
    files,
    changedFiles,
    change,
    failedChecks,
  };
}

/** owner/name as GitHub now spells it (`nameWithOwner`, `full_name`); the name asked for when GitHub did not say. */
export function currentName(nameWithOwner: string | undefined, fallback: { owner: string; repo: string }): string {
  const [owner, repo, extra] = (nameWithOwner ?? '').split('/');
  return owner && repo && extra === undefined ? `${owner}/${repo}` : `${fallback.owner}/${fallback.repo}`;
}

/** Pages of 100 files until maxFiles; patches capped per file and in total, tests first. */
async function gatherFiles(
  gh: GitHubClient,
  ref: { owner: string; repo: string; number: number },
  changedFiles: number,
  limits: GatherLimits,
): Promise<{ files: string[]; changedFiles: number; change: string }> {
  const pages = Math.min(Math.ceil(Math.min(changedFiles, limits.maxFiles) / 100), Math.ceil(limits.maxFiles / 100));
  const entries: { filename: string; patch?: string }[] = [];
  for (let page = 1; page <= Math.max(1, pages); page += 1) {
    const response = await gh.request('GET /repos/{owner}/{repo}/pulls/{pull_number}/files', {
      owner: ref.owner,
      repo: ref.repo,
      pull_number: ref.number,
      per_page: 100,
      page,
    });
    entries.push(...response.data.map((f) => ({ filename: f.filename, patch: f.patch })));
    if (response.data.length < 100) break;
  }
  const files = entries.slice(0, limits.maxFiles).map((e) => e.filename);
  const ordered = [...entries.slice(0, limits.maxFiles)].sort(
    (a, b) => Number(isTestPath(b.filename)) - Number(isTestPath(a.filename)),
  );
  let change = '';
  for (const entry of ordered) {
    if (!entry.patch) continue;
    const patch =
      entry.patch.length > limits.maxPatchChars
        ? `${entry.patch.slice(0, limits.maxPatchChars)}\n… (patch cut)`
        : entry.patch;
    const block = `--- ${entry.filename}\n${patch}\n`;
    if (change.length + block.length > limits.maxChangeChars) break;
    change += block;
  }
  return { files, changedFiles: Math.max(changedFiles, files.length), change: change.trimEnd() };
}

interface CommitChecks {
  oid?: string;
  checkSuites?: {
    nodes: { checkRuns: { nodes: { name: string; conclusion: string | null; databaseId: number | null }[] } }[];
  } | null;
}

/**
 * Checks that concluded FAILURE (or TIMED_OUT) on an earlier commit of the PR and SUCCESS on its
 * last commit: the red → green signal. The newest failing run of each is kept.
 */
export function redGreenChecks(commits: CommitChecks[]): FailedCheck[] {
  const last = commits[commits.length - 1];
  if (!last) return [];
  const green = new Set<string>();
  for (const suite of last.checkSuites?.nodes ?? []) {
    for (const run of suite.checkRuns.nodes) if (run.conclusion === 'SUCCESS') green.add(run.name);
  }
  const failed = new Map<string, FailedCheck>();
  for (const commit of commits.slice(0, -1)) {
    for (const suite of commit.checkSuites?.nodes ?? []) {
      for (const run of suite.checkRuns.nodes) {
        if ((run.conclusion === 'FAILURE' || run.conclusion === 'TIMED_OUT') && green.has(run.name)) {
          failed.set(run.name, { name: run.name, checkRunId: run.databaseId ?? undefined });
        }
      }
    }
  }
  return [...failed.values()];
}

/** Annotations of a failed check run, or the end of its job log; undefined when neither is readable. */
export async function checkExcerpt(
  gh: GitHubClient,
  ref: { owner: string; repo: string },
  check: FailedCheck,
  limits: GatherLimits,
): Promise<string | undefined> {
  if (check.checkRunId === undefined) return undefined;
  try {
    const annotations = await gh.request('GET /repos/{owner}/{repo}/check-runs/{check_run_id}/annotations', {
      owner: ref.owner,
      repo: ref.repo,
      check_run_id: check.checkRunId,
      per_page: 20,
    });
    const failures = annotations.data.filter(
      (a) => a.annotation_level === 'failure' || a.annotation_level === 'warning',
    );
    const text = failures.map((a) => `${a.title ? `${a.title}: ` : ''}${a.message ?? ''}`.trim()).join('\n');
    if (text.trim() && !/Process completed with exit code/i.test(text.split('\n')[0] ?? '')) {
      return text.slice(0, limits.maxExcerptChars);
    }
  } catch {
    // annotations are optional evidence
  }
  try {
    const tail = await readLogTail(gh, ref, check.checkRunId, limits.maxLogBytes);
    return tail === undefined ? undefined : logExcerpt(tail, limits.maxExcerptChars);
  } catch {
    return undefined;
  }
}

/**
 * The last `maxBytes` of a GitHub Actions job log (check run ids are job ids): asks for a byte
 * range and, if the server ignores it, streams the log keeping only a rolling tail.
 */
export async function readLogTail(
  gh: GitHubClient,
  ref: { owner: string; repo: string },
  jobId: number,
  maxBytes: number,
): Promise<string | undefined> {
  const response = await gh.request('GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs', {
    owner: ref.owner,
    repo: ref.repo,
    job_id: jobId,
    headers: { range: `bytes=-${maxBytes}` },
    request: { parseSuccessResponseBody: false },
  });
  const body = response.data as unknown;
  if (typeof body === 'string') return body.slice(-maxBytes);
  if (!body || typeof (body as ReadableStream<Uint8Array>).getReader !== 'function') return undefined;
  const reader = (body as ReadableStream<Uint8Array>).getReader();
  let chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    while (size - (chunks[0]?.byteLength ?? 0) >= maxBytes && chunks.length > 1) {
      size -= chunks[0]?.byteLength ?? 0;
      chunks = chunks.slice(1);
    }
  }
  const buffer = Buffer.concat(chunks);
  return buffer.subarray(Math.max(0, buffer.byteLength - maxBytes)).toString('utf8');
}

const ERROR_LINE = /(##\[error\]|\berror\b|\bfail(ed|ure)?\b|✗|✕|×|AssertionError|Traceback|panicked|FAILED)/i;

/** The lines around the errors of a log's tail, timestamps removed, capped. */
export function logExcerpt(log: string, maxChars: number): string {
  const lines = log.split(/\r?\n/).map((line) => line.replace(/^\d{4}-\d\d-\d\dT[\d:.]+Z\s?/, ''));
  const keep = new Set<number>();
  lines.forEach((line, i) => {
    if (ERROR_LINE.test(line) && !/Process completed with exit code/i.test(line)) {
      for (let j = Math.max(0, i - 2); j <= Math.min(lines.length - 1, i + 2); j += 1) keep.add(j);
    }
  });
  const picked = keep.size > 0 ? [...keep].sort((a, b) => a - b).map((i) => lines[i] ?? '') : lines.slice(-20);
  const text = picked.join('\n').trim();
  return text.length > maxChars ? text.slice(text.length - maxChars) : text;
}

/** What the App decides from: the candidate for fix detection. */
export function fixCandidateOf(context: PullRequestContext): FixCandidate {
  return {
    title: context.title,
    body: context.body,
    labels: context.labels,
    commitMessages: context.commitMessages,
    files: context.files,
    changedFiles: context.changedFiles,
    author: context.author,
    closedIssues: context.closedIssues,
    checksRedGreen: context.failedChecks.length > 0,
  };
}

export function decideFix(
  context: PullRequestContext,
  options: { fixLabels: string[]; appSlug: string; trustedBots?: string[] },
): FixVerdict {
  return detectFix(fixCandidateOf(context), options);
}

/**
 * Everyone whose text goes into the fix: the PR author, and the authors of the closed issues
 * that are not bots (a bot's text is never learned from, so it is left out altogether).
 */
export function textAuthors(context: PullRequestContext, appSlug: string): TextAuthor[] {
  const authors: TextAuthor[] = [{ login: context.author.login, what: `pull request #${context.number}` }];
  for (const issue of learnableIssues(context, appSlug)) {
    if (issue.author) authors.push({ login: issue.author.login, what: `issue #${issue.number}` });
  }
  return authors;
}

function learnableIssues(context: PullRequestContext, appSlug: string): PullRequestContext['closedIssues'] {
  return context.closedIssues.filter((issue) => !issue.author || !isBot(issue.author, appSlug));
}

/** The core Fix of a merged PR. `trusted` comes from the trust check (merger and text authors). */
export function toFix(context: PullRequestContext, options: { trusted: boolean; appSlug: string }): Fix {
  const issues = learnableIssues(context, options.appSlug);
  const firstIssue = issues[0];
  const problem = [
    ...issues.map((issue) => `${issue.title}\n\n${issue.body}`.trim()),
    context.body.trim() ? `Pull request: ${context.body.trim()}` : '',
  ]
    .filter(Boolean)
    .join('\n\n---\n\n');
  const signals: ValidationSignal[] = [];
  const testFiles = context.files.filter(isTestPath);
  if (testFiles.length > 0) signals.push({ kind: 'tests-changed', name: testFiles[0] });
  for (const check of context.failedChecks) {
    signals.push({
      kind: 'check-red-green',
      check: checkKindOf(check.name),
      name: check.name,
      ...(check.excerpt ? { excerpt: check.excerpt } : {}),
    });
  }
  const authors = [...new Set([context.author.login, ...issues.flatMap((i) => (i.author ? [i.author.login] : []))])];
  return {
    tenant: tenantOf(`${context.owner}/${context.repo}`),
    repo: `${context.owner}/${context.repo}`,
    ...(context.repoId !== undefined ? { repoId: context.repoId } : {}),
    visibility: context.visibility,
    sourceKind: 'pull_request',
    ref: String(context.number),
    url: context.url,
    title: firstIssue ? firstIssue.title : context.title,
    problem,
    change: context.change || `Pull request: ${context.title}`,
    files: context.files,
    testsChanged: touchesTests(context.files),
    signals,
    authors,
    trusted: options.trusted,
    ...(context.language ? { language: context.language } : {}),
    date: context.mergedAt ?? new Date(0).toISOString(),
    labels: [...new Set([...context.labels, ...issues.flatMap((i) => i.labels)])],
    issues: issues.map((i) => `#${i.number}`),
  };
}

/** lint / types / unit / e2e / build / other, from a check's name. */
export function checkKindOf(name: string): CheckKind {
  const n = name.toLowerCase();
  if (/lint|eslint|prettier|format|style|clippy|ruff|flake8/.test(n)) return 'lint';
  if (/type|tsc|mypy|pyright/.test(n)) return 'types';
  if (/e2e|end-to-end|integration|playwright|cypress|selenium/.test(n)) return 'e2e';
  if (/build|compile|bundle|package/.test(n)) return 'build';
  if (/test|spec|unit|jest|vitest|pytest|mocha|check/.test(n)) return 'unit';
  return 'other';
}
