/**
 * Which commits are fixes: message cues (fix/bug/regression/crash/error…, conventional `fix:`,
 * "fixes #12"), minus merges, reverts, docs-only and dependency-bump commits. Pure functions.
 */
import { detectFix, type FixSkipReason } from '../../core/retrieval/fix-detection.js';
import { TRAILER } from '../../core/text.js';

export interface ChangedFile {
  /** git's status letter: A, M, D, T… */
  status: string;
  path: string;
}

export interface CommitFacts {
  /** the author's name (bots such as dependabot[bot] are skipped) */
  author: string;
  subject: string;
  body: string;
  parents: number;
  files: ChangedFile[];
}

export type Verdict = { fix: true } | { fix: false; reason: SkipReason };
export type SkipReason = 'merge' | 'no-changes' | 'typo' | 'no-fix-cue' | Exclude<FixSkipReason, 'no-fix-signal'>;

const TYPO = /\b(typos?|spelling|misspell(ed|ing)?)\b/i;

const LOCKFILES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  'bun.lock',
  'Cargo.lock',
  'go.sum',
  'poetry.lock',
  'Pipfile.lock',
  'uv.lock',
  'Gemfile.lock',
  'composer.lock',
  'mix.lock',
  'flake.lock',
]);
const MANIFESTS = new Set([
  'package.json',
  'Cargo.toml',
  'go.mod',
  'pyproject.toml',
  'requirements.txt',
  'Pipfile',
  'Gemfile',
  'composer.json',
]);

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function isLockfile(path: string): boolean {
  return LOCKFILES.has(baseName(path));
}

/**
 * The App's fix rule (core/retrieval/fix-detection: cues, bots, reverts, docs-only, dependency bumps) plus
 * what only a raw history has: merges, empty commits, lockfile-only changes, typo fixes.
 */
export function classifyCommit(commit: CommitFacts): Verdict {
  if (commit.parents > 1) return { fix: false, reason: 'merge' };
  if (commit.files.length === 0) return { fix: false, reason: 'no-changes' };
  const paths = commit.files.map((file) => file.path);
  if (paths.some(isLockfile) && paths.every((path) => isLockfile(path) || MANIFESTS.has(baseName(path)))) {
    return { fix: false, reason: 'dependency-bump' };
  }
  const verdict = detectFix(
    { title: commit.subject, body: commit.body, labels: [], files: paths, author: { login: commit.author } },
    { fixLabels: [], appSlug: 'memory-transfer' },
  );
  // a typo fix in code is a typo fix, though its subject reads as docs
  if ((verdict.fix || verdict.reason === 'docs') && TYPO.test(commit.subject)) return { fix: false, reason: 'typo' };
  if (!verdict.fix) return { fix: false, reason: verdict.reason === 'no-fix-signal' ? 'no-fix-cue' : verdict.reason };
  return { fix: true };
}

/** Issues the message refers to: "#12", "acme/api#3", and GitHub issue/PR URLs, in order, once each. */
export function referencedIssues(message: string): string[] {
  const found = new Set<string>();
  const pattern =
    /(?:https?:\/\/github\.com\/([\w.-]+\/[\w.-]+)\/(?:issues|pull)\/(\d+))|(?:(?<![\w/#&])([\w.-]+\/[\w.-]+)?#(\d+)\b)/g;
  for (const match of message.matchAll(pattern)) {
    if (match[2]) found.add(`${match[1]}#${match[2]}`);
    else if (match[4]) found.add(match[3] ? `${match[3]}#${match[4]}` : `#${match[4]}`);
  }
  return [...found];
}

/** The body without git trailers (Signed-off-by, Co-authored-by…), trimmed. */
export function stripTrailers(body: string): string {
  return body
    .split('\n')
    .filter((line) => !TRAILER.test(line))
    .join('\n')
    .trim();
}

/** Names from Co-authored-by trailers. */
export function coAuthors(body: string): string[] {
  const names: string[] = [];
  for (const match of body.matchAll(/^\s*co-authored-by:\s*([^<\n]+?)\s*(?:<[^>\n]*>)?\s*$/gim)) {
    if (match[1]) names.push(match[1]);
  }
  return names;
}
