/**
 * Facts about a local repository: that it is one, that it has commits, its owner/name (from the
 * origin remote or the folder name), its GitHub URL, its main language.
 */
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { InputError } from '../../core/errors.js';
import { GitError, gitOutput } from './run-git.js';

export interface RepoInfo {
  /** absolute path git runs in */
  dir: string;
  bare: boolean;
  /** owner/name from the origin remote, when it is on a host (a local path names no owner) */
  remoteRepo?: string;
  /** the origin remote's URL as configured, when there is one */
  remote?: string;
  /** https://github.com/owner/name when origin is on GitHub */
  githubUrl?: string;
  /** the folder's name, without a trailing .git */
  folderName: string;
}

/** Checks that dir is a git repository with at least one commit on HEAD. */
export async function inspectRepository(dir: string): Promise<RepoInfo> {
  const absolute = resolve(dir);
  const info = await stat(absolute).catch(() => undefined);
  if (!info?.isDirectory()) throw new InputError(`${dir}: no such directory`);
  let bare: boolean;
  let folder = absolute;
  try {
    bare = (await gitOutput(absolute, ['rev-parse', '--is-bare-repository'])).trim() === 'true';
    if (!bare) folder = (await gitOutput(absolute, ['rev-parse', '--show-toplevel'])).trim() || absolute;
  } catch (error) {
    if (error instanceof GitError) throw new InputError(`${dir}: not a git repository`);
    throw error;
  }
  try {
    await gitOutput(absolute, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  } catch (error) {
    if (error instanceof GitError) throw new InputError(`${dir}: the repository has no commits`);
    throw error;
  }
  const remote = await gitOutput(absolute, ['config', '--get', 'remote.origin.url']).catch(() => '');
  const parsed = parseRemoteUrl(remote.trim());
  return {
    dir: absolute,
    bare,
    folderName: basename(folder).replace(/\.git$/, '') || 'repository',
    ...(remote.trim() && { remote: remote.trim() }),
    ...(parsed && { remoteRepo: parsed.repo }),
    ...(parsed?.github && { githubUrl: `https://github.com/${parsed.repo}` }),
  };
}

/**
 * owner/name and whether the host is github.com, from an https, ssh or scp-like remote URL.
 * Undefined for a remote on this machine (a path, `file://`): its folders name no owner.
 */
export function parseRemoteUrl(url: string): { repo: string; github: boolean } | undefined {
  if (!url) return undefined;
  let host = '';
  let path: string;
  // scp-like (git@host:owner/name); not a Windows drive (C:\…)
  const scp = /^(?:[^@/\\]+@)?([^:/\\]{2,}):(?!\/)(.+)$/.exec(url);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    try {
      const parsed = new URL(url);
      host = parsed.hostname;
      path = parsed.pathname;
    } catch {
      return undefined;
    }
  } else if (scp) {
    host = scp[1] ?? '';
    path = scp[2] ?? '';
  } else {
    return undefined;
  }
  if (host === '') return undefined;
  const segments = path
    .replace(/\/+$/, '')
    .replace(/\.git$/, '')
    .split('/')
    .filter(Boolean);
  const name = segments[segments.length - 1];
  const owner = segments[segments.length - 2];
  if (!name || !owner) return undefined;
  return { repo: `${owner}/${name}`, github: /^(www\.)?github\.com$/i.test(host) };
}

const LANGUAGES: Record<string, string> = {
  ts: 'TypeScript',
  tsx: 'TypeScript',
  mts: 'TypeScript',
  cts: 'TypeScript',
  js: 'JavaScript',
  jsx: 'JavaScript',
  mjs: 'JavaScript',
  cjs: 'JavaScript',
  py: 'Python',
  go: 'Go',
  rs: 'Rust',
  java: 'Java',
  kt: 'Kotlin',
  rb: 'Ruby',
  php: 'PHP',
  cs: 'C#',
  c: 'C',
  h: 'C',
  cc: 'C++',
  cpp: 'C++',
  hpp: 'C++',
  swift: 'Swift',
  scala: 'Scala',
  ex: 'Elixir',
  exs: 'Elixir',
};

/** Counts source files by language; `mainLanguage` picks the most frequent. */
export class LanguageTally {
  private readonly counts = new Map<string, number>();

  add(path: string): void {
    const dot = path.lastIndexOf('.');
    const language = dot === -1 ? undefined : LANGUAGES[path.slice(dot + 1).toLowerCase()];
    if (language) this.counts.set(language, (this.counts.get(language) ?? 0) + 1);
  }

  mainLanguage(): string | undefined {
    let best: string | undefined;
    let bestCount = 0;
    for (const [language, count] of this.counts) {
      if (count > bestCount) [best, bestCount] = [language, count];
    }
    return best;
  }
}
