/**
 * Builds a git repository in a folder with one `git fast-import` run: fast enough for tests and
 * for the bench's 10,000-commit repository. Dates are fixed so the history is reproducible.
 */
import { execFileSync, spawnSync } from 'node:child_process';

export interface CommitSpec {
  message: string;
  /** path → new content, or null to delete the file */
  files: Record<string, string | null>;
  author?: string;
  /** seconds since the epoch (default: one day after the previous commit) */
  time?: number;
  /** index (in the commits array) of the first parent (default: the previous commit) */
  parent?: number;
  /** index (in the commits array) of a second parent: makes a merge commit */
  mergeOf?: number;
}

export interface RepoOptions {
  bare?: boolean;
  /** sets remote.origin.url */
  origin?: string;
}

const START = 1_600_000_000;

/** Writes the fast-import stream for the commits (each on top of the previous one). */
export function fastImportStream(commits: CommitSpec[]): string {
  const chunks: string[] = [];
  let time = START;
  commits.forEach((commit, index) => {
    time = commit.time ?? time + 86_400;
    const author = commit.author ?? 'Ada Lovelace';
    const email = `${author.toLowerCase().replace(/[^a-z]+/g, '.')}@example.com`;
    chunks.push(`commit refs/heads/main\nmark :${index + 1}\n`);
    chunks.push(`author ${author} <${email}> ${time} +0000\ncommitter ${author} <${email}> ${time} +0000\n`);
    chunks.push(`data ${Buffer.byteLength(commit.message)}\n${commit.message}\n`);
    const parent = commit.parent ?? index - 1;
    if (parent >= 0) chunks.push(`from :${parent + 1}\n`);
    if (commit.mergeOf !== undefined) chunks.push(`merge :${commit.mergeOf + 1}\n`);
    for (const [path, content] of Object.entries(commit.files)) {
      if (content === null) chunks.push(`D ${path}\n`);
      else chunks.push(`M 100644 inline ${path}\ndata ${Buffer.byteLength(content)}\n${content}\n`);
    }
    chunks.push('\n');
  });
  return chunks.join('');
}

export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' });
}

/** Creates the repository in dir (which must exist) and returns the commit SHAs, oldest first. */
export function buildGitRepo(dir: string, commits: CommitSpec[], options: RepoOptions = {}): string[] {
  execFileSync('git', ['init', '--quiet', '-b', 'main', ...(options.bare ? ['--bare'] : []), dir]);
  if (options.origin) git(dir, 'remote', 'add', 'origin', options.origin);
  if (commits.length === 0) return [];
  const result = spawnSync('git', ['-C', dir, 'fast-import', '--quiet'], {
    input: fastImportStream(commits),
    maxBuffer: 1024 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`git fast-import failed: ${result.stderr.toString()}`);
  if (!options.bare) git(dir, 'checkout', '--quiet', '--force', 'main');
  return git(dir, 'rev-list', '--reverse', 'main').trim().split('\n');
}
