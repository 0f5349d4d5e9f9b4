/**
 * Resolves a path given by a user inside the workspace, refusing anything that escapes it; a
 * path the Action writes must not lie in a version-control folder (`.git`, `.hg`, …) either.
 */
import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { InputError } from '../core/errors.js';

/** Folders of version-control systems: what is written there, the tool reads or runs (hooks). */
export const VCS_FOLDERS: ReadonlySet<string> = new Set([
  '.git',
  '.hg',
  '.svn',
  '.bzr',
  '_darcs',
  '.pijul',
  '.jj',
  '.sl',
  'cvs',
  '_fossil_',
]);

function inside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * The deepest existing ancestor of p, with symlinks resolved (so a link cannot point outside);
 * undefined when p or an ancestor is a symbolic link that leads nowhere (a write would follow it).
 */
function realExisting(p: string): string | undefined {
  let current = p;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync(current), ...rest.reverse());
    } catch {
      if (existsAsLink(current)) return undefined;
      const parent = path.dirname(current);
      if (parent === current) return p;
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

function existsAsLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * A path segment as the file systems read it: case-insensitive (macOS, Windows), without the
 * characters HFS+ ignores, the trailing dots and spaces Windows drops, or an NTFS stream suffix
 * (`.git::$INDEX_ALLOCATION`); `GIT~1` is Windows' short name of `.git`.
 */
function folded(segment: string): string {
  return segment
    .normalize('NFC')
    .replace(/[\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/g, '')
    .replace(/:.*$/s, '')
    .replace(/[. ]+$/, '')
    .toLowerCase();
}

function isVcsSegment(segment: string): boolean {
  const name = folded(segment);
  return VCS_FOLDERS.has(name) || /^(git|hg|svn|bzr)~\d+$/.test(name);
}

/** The version-control folder a path (relative, either separator) goes through, if any. */
export function vcsFolderIn(relativePath: string): string | undefined {
  return relativePath.split(/[\\/]+/).find(isVcsSegment);
}

/**
 * `field` names the input in the error. Relative paths are taken from the workspace; absolute
 * paths must lie inside it; symlinks leading outside (or nowhere) are refused.
 */
export function resolveInWorkspace(workspace: string, userPath: string, field: string): string {
  return resolved(workspace, userPath, field).path;
}

/** As resolveInWorkspace, for a file the Action writes: never in a version-control folder, however spelled. */
export function resolveWritableInWorkspace(workspace: string, userPath: string, field: string): string {
  const { root, path: file, real } = resolved(workspace, userPath, field);
  refuseVcsFolder(userPath, field, vcsFolderIn(path.relative(root, file)) ?? vcsFolderIn(path.relative(root, real)));
  return file;
}

/**
 * Refuses, before anything runs, a path the Action would write in a version-control folder as
 * spelled (resolveWritableInWorkspace checks it again, resolved, when it writes).
 */
export function refuseVcsPath(userPath: string, field: string): void {
  refuseVcsFolder(userPath, field, vcsFolderIn(path.normalize(userPath)));
}

function refuseVcsFolder(userPath: string, field: string, folder: string | undefined): void {
  if (folder === undefined) return;
  throw new InputError(
    `${field}: "${userPath}" is in a version-control folder (${folder}); the Action never writes there (git and its peers read or run what is there, e.g. hooks)`,
  );
}

function resolved(workspace: string, userPath: string, field: string): { root: string; path: string; real: string } {
  if (userPath.trim() === '' || userPath.includes('\0')) throw new InputError(`${field}: empty or invalid path`);
  const root = realExisting(path.resolve(workspace)) ?? path.resolve(workspace);
  const file = path.resolve(root, userPath);
  if (!inside(root, file)) {
    throw new InputError(`${field}: "${userPath}" is outside the workspace (${workspace}); give a path inside it`);
  }
  const real = realExisting(file);
  if (real === undefined) {
    throw new InputError(
      `${field}: "${userPath}" goes through a symbolic link that leads nowhere; refusing to write or read it`,
    );
  }
  if (!inside(root, real)) {
    throw new InputError(
      `${field}: "${userPath}" leads outside the workspace through a symbolic link; refusing to write or read it`,
    );
  }
  return { root, path: file, real };
}
