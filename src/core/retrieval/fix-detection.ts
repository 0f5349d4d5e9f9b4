/**
 * Is this change a fix worth learning from? Pure rules over what GitHub tells us about a pull
 * request (or a commit made green by CI): labels (configurable), title/commit cues, a closed bug
 * issue, failed checks made green. Bots (this App included), reverts, docs-only and dependency
 * bumps are skipped whatever they say; a repair of the docs, and a closing reference in a change
 * that adds, documents or tidies, make no fix by their words alone.
 */
import { readTaskKind } from './task-kind.js';
import { isTestPath } from '../test-paths.js';

export interface FixCandidate {
  title: string;
  body: string;
  labels: string[];
  /** commit messages of the change (subjects and bodies), when known */
  commitMessages?: string[];
  /** changed paths; empty when unknown */
  files: string[];
  /** the total number of changed files (may exceed files.length when the list was capped) */
  changedFiles?: number;
  author: Actor;
  /** issues this change closed */
  closedIssues?: { title: string; labels: string[]; author?: Actor }[];
  /** a check failed on this branch and passes with this change */
  checksRedGreen?: boolean;
}

export interface Actor {
  login: string;
  /** GitHub's account type: "User", "Bot", "Organization" */
  type?: string;
}

export interface FixDetectionOptions {
  /** labels that mark a fix (repo config `fix_labels`) */
  fixLabels: string[];
  /** this App's slug: its bot account `${slug}[bot]` is never learned from */
  appSlug: string;
  /** bot logins whose changes may be learned (repo config `trusted_bots`) */
  trustedBots?: string[];
}

export type FixSkipReason = 'bot' | 'revert' | 'docs-only' | 'docs' | 'dependency-bump' | 'no-fix-signal';

export type FixVerdict = { fix: true; because: FixSignal[] } | { fix: false; reason: FixSkipReason };

export type FixSignal =
  'label' | 'title-cue' | 'commit-cue' | 'closed-bug-issue' | 'closed-issue-cue' | 'checks-red-green';

export const DEFAULT_FIX_LABELS = ['bug', 'fix', 'regression'];

/** Well-known bots that are not written `*[bot]` in every payload. */
const KNOWN_BOTS = new Set([
  'dependabot',
  'dependabot-preview',
  'renovate',
  'renovate-bot',
  'github-actions',
  'snyk-bot',
  'greenkeeper',
]);

const FIX_WORDS =
  /\b(fix(e[sd]|ing)?|bug(s|fix)?|hotfix|regressions?|crash(e[sd]|ing)?|errors?|broken|incorrect(ly)?|wrong(ly)?|leak(s|ing)?|deadlock|race condition|fail(s|ed|ing|ure)?)\b/i;
const CONVENTIONAL_FIX = /^(fix|bugfix|hotfix)(\([^)]*\))?!?:/i;
/** GitHub's closing keywords, and the issue they close ("#12", "acme/api#12"). */
const CLOSES = String.raw`(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?)`;
const ISSUE = String.raw`(?:[\w.-]+\/[\w.-]+)?#\d+`;
const CLOSING_REF = new RegExp(String.raw`\b${CLOSES}\s*:?\s+${ISSUE}`, 'i');
/** A subject that opens with the issues it closes ("Fix #357: …", "Fixes #292, fix #205: …"). */
const CLOSING_PREFIX = new RegExp(String.raw`^\s*(?:${CLOSES}\s+${ISSUE}[\s,;&]*(?:and\s+)?)+[:\-–—]?\s*`, 'i');
const NON_FIX_TYPE = /^(docs?|style|chore|ci)(\([^)]*\))?!?:/i;
/** Conventional types of a change that is no repair unless its words say so ("feat: …", "perf: …"). */
const CHANGE_TYPE = /^(feat|feature|perf|pref|refactor|tests?|build|bench)(\([^)]*\))?!?:/i;
/** A title that names something wrong even when it asks for a change ("Add a missing await", "Add null check"). */
const NAMES_DEFECT = /\b(missing|null|nil|undefined|empty|invalid|hang\w*|overflow|race|edge cases?)\b/i;
const REVERT_TITLE = /^revert\b/i;
const REVERT_BODY = /^This reverts commit [0-9a-f]{7,40}/im;
const DEPENDENCY_TITLE = [
  /^(chore|build|fix|deps)\((deps|deps-dev|dependencies)\)!?:/i,
  /\bbump(s|ed)?\s+\S+\s+from\s+\S+\s+to\s+\S+/i,
  /^(update|upgrade|pin)\s+(dependency|dependencies|module|deps)\b/i,
];
const BUG_LABEL = /^(bug|type:\s*bug|kind\/bug|defect|regression)$/i;

const DOC_NAME = /\.(md|mdx|markdown|rst|adoc|asciidoc|txt)$/i;
const DOC_FILE = /^(LICEN[CS]E|COPYING|AUTHORS|CONTRIBUTORS|CHANGELOG|CHANGES|HISTORY|NOTICE|README|CODEOWNERS)$/i;
const DOC_DIRS = new Set(['docs', 'doc', 'documentation', 'website']);

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Documentation, licence and changelog files (never a code change). */
export function isDocPath(path: string): boolean {
  const name = baseName(path);
  if (DOC_NAME.test(name) || DOC_FILE.test(name)) return true;
  if (path.startsWith('.github/ISSUE_TEMPLATE/') || path === '.github/PULL_REQUEST_TEMPLATE.md') return true;
  return path
    .split('/')
    .slice(0, -1)
    .some((dir) => DOC_DIRS.has(dir.toLowerCase()));
}

/** A bot account: `*[bot]`, type Bot, a well-known bot login, or this App itself. */
export function isBot(actor: Actor, appSlug: string): boolean {
  const login = actor.login.toLowerCase();
  if (actor.type === 'Bot') return true;
  if (login.endsWith('[bot]')) return true;
  return KNOWN_BOTS.has(login) || login === `${appSlug.toLowerCase()}[bot]`;
}

/** True when the text alone says it fixes something. */
export function hasFixCue(title: string, body = ''): boolean {
  if (NON_FIX_TYPE.test(title)) return false;
  // "Fix #357: Add cache_info() support" closes an issue: its "Fix" is the reference's, not a repair's
  const prefix = CLOSING_PREFIX.exec(title)?.[0];
  const rest = prefix === undefined ? title : title.slice(prefix.length);
  if (CONVENTIONAL_FIX.test(rest) || FIX_WORDS.test(rest)) return true;
  return (prefix !== undefined || CLOSING_REF.test(`${title}\n${body}`)) && closesAsRepair(rest);
}

/**
 * A closing reference ("Fixes #29") closes whatever the issue asked for: a feature, a docs change
 * or a chore as often as a bug. Alone, it makes a repair of a title that reads as one, not of one
 * that asks for something new ("Add `onError()` method"), documents ("Clarify timeout docs") or
 * tidies ("Rename an option"), unless that title names a defect ("Add null check for headers").
 */
function closesAsRepair(title: string): boolean {
  if (CHANGE_TYPE.test(title)) return false;
  const kind = readTaskKind(title);
  if (kind === 'docs' || kind === 'chore') return false;
  return kind !== 'feature' || NAMES_DEFECT.test(title);
}

export function isRevert(title: string, body: string): boolean {
  return REVERT_TITLE.test(title.trim()) || REVERT_BODY.test(body);
}

/** Were tests added or changed by this change? */
export function touchesTests(files: string[]): boolean {
  return files.some(isTestPath);
}

function botAllowed(actor: Actor, options: FixDetectionOptions): boolean {
  const trusted = (options.trustedBots ?? []).map((b) => b.toLowerCase());
  const login = actor.login.toLowerCase();
  // never this App itself, whatever the config says
  if (login === `${options.appSlug.toLowerCase()}[bot]` || login === options.appSlug.toLowerCase()) return false;
  return trusted.includes(login) || trusted.includes(login.replace(/\[bot\]$/, ''));
}

/** Why this change must not be learned whatever its cues say; undefined when it may be. */
export function skipReason(candidate: FixCandidate, options: FixDetectionOptions): FixSkipReason | undefined {
  if (isBot(candidate.author, options.appSlug) && !botAllowed(candidate.author, options)) return 'bot';
  if (isRevert(candidate.title, candidate.body)) return 'revert';
  if (DEPENDENCY_TITLE.some((pattern) => pattern.test(candidate.title))) return 'dependency-bump';
  const complete = candidate.changedFiles === undefined || candidate.changedFiles <= candidate.files.length;
  if (candidate.files.length > 0 && complete && candidate.files.every(isDocPath)) return 'docs-only';
  return undefined;
}

/** The verdict with the signals that made it a fix (for logs and evidence). */
export function detectFix(candidate: FixCandidate, options: FixDetectionOptions): FixVerdict {
  const reason = skipReason(candidate, options);
  if (reason) return { fix: false, reason };
  const because: FixSignal[] = [];
  const fixLabels = new Set(options.fixLabels.map((l) => l.toLowerCase()));
  const labels = candidate.labels.map((l) => l.toLowerCase());
  if (labels.some((l) => fixLabels.has(l))) because.push('label');
  if (hasFixCue(candidate.title, candidate.body)) because.push('title-cue');
  if ((candidate.commitMessages ?? []).some((m) => hasFixCue(m.split('\n')[0] ?? '', ''))) because.push('commit-cue');
  for (const issue of candidate.closedIssues ?? []) {
    if (issue.author && isBot(issue.author, options.appSlug)) continue;
    const issueLabels = issue.labels.map((l) => l.toLowerCase());
    if (issueLabels.some((l) => BUG_LABEL.test(l) || fixLabels.has(l))) because.push('closed-bug-issue');
    else if (hasFixCue(issue.title)) because.push('closed-issue-cue');
  }
  if (candidate.checksRedGreen) because.push('checks-red-green');
  const unique = [...new Set(because)];
  if (unique.length === 0) return { fix: false, reason: 'no-fix-signal' };
  // "Fix grammar in docs", "Fixes to documentation": a docstring's or a guide's repair that also
  // touched code, unless a label, a bug issue or a check says something failed
  if (unique.every((s) => s === 'title-cue' || s === 'commit-cue') && readTaskKind(candidate.title) === 'docs')
    return { fix: false, reason: 'docs' };
  return { fix: true, because: unique };
}
