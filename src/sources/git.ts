/**
 * The local git source: mines fix commits from a repository on disk (bare or working copy) with
 * the `git` binary, never through a shell and never one process per commit:
 *   1. one `git log --name-status` pass over the history decides which commits are fixes;
 *   2. one `git log --no-walk --stdin -p` pass streams the fixes' patches, kept as capped excerpts.
 * With a commits file, exactly the listed commits are taken as fixes (no detection).
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { InputError } from '../core/errors.js';
import { tenantOf } from '../core/ids.js';
import { isTestPath } from '../core/test-paths.js';
import { VISIBILITIES } from '../core/types.js';
import type { Fix, ValidationSignal, Visibility } from '../core/types.js';
import { classifyCommit, coAuthors, referencedIssues, stripTrailers } from './git/detect.js';
import type { ChangedFile, SkipReason } from './git/detect.js';
import { DEFAULT_EXCERPT_LIMITS, ExcerptBuilder } from './git/diff-excerpt.js';
import type { Excerpt, ExcerptLimits } from './git/diff-excerpt.js';
import { LanguageTally, inspectRepository } from './git/repo-info.js';
import type { RepoInfo } from './git/repo-info.js';
import { gitLines, gitOutput, gitRecords } from './git/run-git.js';

const REPO = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

export const gitSourceOptionsSchema = z.object({
  /** the repository folder (working copy or bare) */
  dir: z.string().min(1, 'the repository folder is required'),
  /** owner/name recorded as provenance (default: from the origin remote, else <tenant>/<folder name>; required without either) */
  repo: z.string().regex(REPO, 'repo must look like owner/name').optional(),
  /** the pool (org); default: the owner of repo */
  tenant: z
    .string()
    .min(1)
    .transform((tenant) => tenant.toLowerCase())
    .optional(),
  visibility: z.enum(VISIBILITIES).default('private'),
  /** a file of commit SHAs, one per line: exactly these are taken as fixes */
  commitsFile: z.string().min(1).optional(),
  /** only commits after this date (ISO 8601 or anything Date.parse reads) */
  since: z
    .string()
    .refine((value) => !Number.isNaN(Date.parse(value)), 'since must be a date such as 2024-01-31')
    .optional(),
  /** at most this many fixes (the newest) */
  max: z.number().int('max must be a whole number').positive('max must be at least 1').optional(),
});

export type GitSourceOptions = z.input<typeof gitSourceOptionsSchema> & { excerpt?: ExcerptLimits };

export interface GitFixes extends AsyncIterable<Fix> {
  repo: string;
  tenant: string;
  /** how many fixes the iteration yields (for progress) */
  count: number;
  /** commits looked at by the detection (0 with a commits file) */
  scanned: number;
  /** commits passed over, by reason */
  skipped: Partial<Record<SkipReason, number>>;
}

interface FixCommit {
  sha: string;
  parents: number;
  author: string;
  date: string;
  subject: string;
  body: string;
  files: ChangedFile[];
}

const RS = '\x1e';
const US = '\x1f';
const GS = '\x1d';
const LOG_FORMAT = `--format=${RS}%H${US}%P${US}%aN${US}%cI${US}%B${GS}`;
const LOG_FLAGS = ['--no-renames', '--encoding=UTF-8', '--no-color', '--no-ext-diff', '--no-textconv'];
const MAX_FILES = 500;
const MAX_TITLE = 300;
const MAX_PROBLEM = 4000;

/**
 * Mines the fixes of a local repository. Throws InputError for a folder that is not a git
 * repository, a repository with no commits, or a commits file naming an unknown commit.
 * Iterating yields the fixes oldest first.
 */
export async function mineGitFixes(options: GitSourceOptions): Promise<GitFixes> {
  const parsed = gitSourceOptionsSchema.safeParse(options);
  if (!parsed.success) throw new InputError(firstIssue(parsed.error));
  const opts = parsed.data;
  if (opts.commitsFile && opts.since)
    throw new InputError('since does not apply with a commits file (it lists exactly the commits to learn)');
  const info = await inspectRepository(opts.dir);
  const repo = opts.repo ?? info.remoteRepo ?? (opts.tenant && `${opts.tenant}/${info.folderName}`);
  if (!repo) {
    throw new InputError(
      `${opts.dir}: ${info.remote ? `its origin remote (${info.remote}) is not on a host, so it names no owner` : 'the repository has no origin remote to take its owner/name from'}: pass --repo owner/name (e.g. --repo acme/${info.folderName})`,
    );
  }
  const tenant = opts.tenant ?? tenantOf(repo);

  const languages = new LanguageTally();
  const skipped: Partial<Record<SkipReason, number>> = {};
  let scanned = 0;
  let commits: FixCommit[];
  if (opts.commitsFile) {
    const shas = await resolveCommits(info.dir, opts.commitsFile);
    commits = await readCommits(
      info.dir,
      ['--no-walk=unsorted', '--stdin', '--diff-merges=first-parent'],
      shas.join('\n'),
    );
    if (opts.max !== undefined) commits = commits.slice(0, opts.max);
    for (const commit of commits) for (const file of commit.files) languages.add(file.path);
  } else {
    commits = [];
    const args = ['HEAD', '--no-merges', ...(opts.since ? [`--since=${new Date(opts.since).toISOString()}`] : [])];
    for await (const commit of streamCommits(info.dir, args)) {
      scanned++;
      for (const file of commit.files) languages.add(file.path);
      const verdict = classifyCommit(commit);
      if (!verdict.fix) {
        skipped[verdict.reason] = (skipped[verdict.reason] ?? 0) + 1;
        continue;
      }
      commits.push(commit);
      if (opts.max !== undefined && commits.length >= opts.max) break;
    }
    commits.reverse();
  }

  const context: FixContext = {
    repo,
    tenant,
    visibility: opts.visibility,
    info,
    language: languages.mainLanguage(),
  };
  const limits = options.excerpt ?? DEFAULT_EXCERPT_LIMITS;
  return {
    repo,
    tenant,
    count: commits.length,
    scanned,
    skipped,
    [Symbol.asyncIterator]: () => fixesWithExcerpts(context, commits, limits),
  };
}

/** Reads the commits file and resolves every SHA; an unknown or ambiguous one is an InputError naming it. */
async function resolveCommits(dir: string, file: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new InputError(`${file}: cannot read the commits file`);
  }
  const wanted: { line: number; sha: string }[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const sha = raw.replace(/#.*/, '').trim();
    if (!sha) return;
    if (!/^[0-9a-f]{4,64}$/i.test(sha))
      throw new InputError(`${file}:${index + 1}: not a commit SHA: ${sha.slice(0, 80)}`);
    wanted.push({ line: index + 1, sha });
  });
  if (wanted.length === 0) throw new InputError(`${file}: the commits file lists no commits`);
  const answers = (
    await gitOutput(dir, ['cat-file', '--batch-check'], wanted.map((w) => `${w.sha}^{commit}\n`).join(''))
  )
    .trim()
    .split('\n');
  const seen = new Set<string>();
  const resolved: string[] = [];
  wanted.forEach((entry, index) => {
    const answer = answers[index] ?? '';
    const match = /^([0-9a-f]{40,64}) commit /.exec(answer);
    if (!match?.[1]) {
      const why = answer.endsWith('ambiguous') ? 'ambiguous commit SHA' : 'unknown commit';
      throw new InputError(`${file}:${entry.line}: ${why} ${entry.sha} in this repository`);
    }
    if (!seen.has(match[1])) resolved.push(match[1]);
    seen.add(match[1]);
  });
  return resolved;
}

async function readCommits(dir: string, args: string[], input?: string): Promise<FixCommit[]> {
  const commits: FixCommit[] = [];
  for await (const commit of streamCommits(dir, args, input)) commits.push(commit);
  return commits;
}

/** One `git log --name-status` pass: each commit with its message and changed files. */
async function* streamCommits(dir: string, args: string[], input?: string): AsyncGenerator<FixCommit> {
  const gitArgs = ['log', ...args, ...LOG_FLAGS, '--name-status', LOG_FORMAT];
  for await (const record of gitRecords(dir, gitArgs, RS, input)) {
    const end = record.indexOf(GS);
    const fields = record.slice(0, end === -1 ? record.length : end).split(US);
    const [sha = '', parents = '', author = '', date = '', ...messageParts] = fields;
    const { subject, body } = subjectAndBody(messageParts.join(US));
    const files: ChangedFile[] = [];
    for (const line of record.slice(end + 1).split('\n')) {
      const match = /^([A-Z])\d*\t(.+)$/.exec(line);
      if (match?.[1] && match[2]) files.push({ status: match[1], path: match[2] });
    }
    yield {
      sha,
      parents: parents.split(' ').filter(Boolean).length,
      author,
      date,
      subject,
      body,
      files,
    };
  }
}

/**
 * A commit's subject as git reads it (`%s`): its first paragraph, wrapped lines joined ("Fixed
 * precision problem on conversion of decimal seconds to / microseconds, as reported …"), up to a
 * blank line or a list that starts under it; the body is the rest.
 */
function subjectAndBody(message: string): { subject: string; body: string } {
  const lines = message.trim().split('\n');
  let end = 1;
  while (end < lines.length && lines[end]!.trim() !== '' && !/^\s*([-*•]|\d+[.)])\s/.test(lines[end]!)) end += 1;
  return {
    subject: lines
      .slice(0, end)
      .map((line) => line.trim())
      .join(' '),
    body: lines.slice(end).join('\n').trim(),
  };
}

interface FixContext {
  repo: string;
  tenant: string;
  visibility: Visibility;
  info: RepoInfo;
  language: string | undefined;
}

/** The second pass: streams the patches of the fix commits and yields each fix as its patch ends. */
async function* fixesWithExcerpts(
  context: FixContext,
  commits: FixCommit[],
  limits: ExcerptLimits,
): AsyncGenerator<Fix> {
  if (commits.length === 0) return;
  const bySha = new Map(commits.map((commit) => [commit.sha, commit]));
  const args = [
    'log',
    '--no-walk=unsorted',
    '--stdin',
    '-p',
    '--diff-merges=first-parent',
    ...LOG_FLAGS,
    `--format=${RS}%H`,
  ];
  let current: FixCommit | undefined;
  let builder = new ExcerptBuilder(limits);
  const done = new Set<string>();
  for await (const line of gitLines(context.info.dir, args, commits.map((c) => c.sha).join('\n') + '\n')) {
    if (line.startsWith(RS)) {
      if (current) {
        done.add(current.sha);
        yield toFix(context, current, builder.finish());
      }
      current = bySha.get(line.slice(1).trim());
      builder = new ExcerptBuilder(limits);
    } else if (current) {
      builder.line(line);
    }
  }
  if (current) {
    done.add(current.sha);
    yield toFix(context, current, builder.finish());
  }
  for (const commit of commits) if (!done.has(commit.sha)) yield toFix(context, commit, { text: '' });
}

function toFix(context: FixContext, commit: FixCommit, excerpt: Excerpt): Fix {
  const paths = commit.files.map((file) => file.path);
  const tests = commit.files.filter((file) => isTestPath(file.path));
  const signals: ValidationSignal[] = [];
  const added = tests.find((file) => file.status === 'A');
  const changed = tests.find((file) => file.status !== 'A');
  if (added || excerpt.rustTests === 'added') {
    signals.push({ kind: 'tests-added', ...(added && { name: added.path }) });
  }
  if (changed || (excerpt.rustTests && !added && excerpt.rustTests !== 'added')) {
    signals.push({ kind: 'tests-changed', ...(changed && { name: changed.path }) });
  }
  const authors = [...new Set([commit.author, ...coAuthors(commit.body)].filter(Boolean))];
  const issues = referencedIssues(`${commit.subject}\n${commit.body}`);
  const fix: Fix = {
    tenant: context.tenant,
    repo: context.repo,
    visibility: context.visibility,
    sourceKind: 'commit',
    ref: commit.sha,
    title: commit.subject.slice(0, MAX_TITLE),
    problem: stripTrailers(commit.body).slice(0, MAX_PROBLEM),
    change: excerpt.text,
    files: paths.slice(0, MAX_FILES),
    testsChanged: tests.length > 0 || excerpt.rustTests !== undefined,
    signals,
    authors,
    trusted: true,
    date: commit.date,
  };
  if (context.info.githubUrl) fix.url = `${context.info.githubUrl}/commit/${commit.sha}`;
  if (context.language) fix.language = context.language;
  if (issues.length > 0) fix.issues = issues;
  return fix;
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid git source options';
  const field = issue.path.join('.');
  return field ? `${field}: ${issue.message}` : issue.message;
}
