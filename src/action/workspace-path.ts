/** Resolves a path given by a user inside the workspace, refusing anything that escapes it. */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { InputError } from '../core/errors.js';

function inside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The deepest existing ancestor of p, with symlinks resolved (so a link cannot point outside). */
function realExisting(p: string): string {
  let current = p;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync(current), ...rest.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return p;
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

/**
 * `field` names the input in the error. Relative paths are taken from the workspace; absolute
 * paths must lie inside it; symlinks leading outside are refused.
 */
export function resolveInWorkspace(workspace: string, userPath: string, field: string): string {
  if (userPath.trim() === '' || userPath.includes('\0')) throw new InputError(`${field}: empty or invalid path`);
  const root = realExisting(path.resolve(workspace));
  const resolved = path.resolve(root, userPath);
  if (!inside(root, resolved)) {
    throw new InputError(`${field}: "${userPath}" is outside the workspace (${workspace}); give a path inside it`);
  }
  if (!inside(root, realExisting(resolved))) {
    throw new InputError(
      `${field}: "${userPath}" leads outside the workspace through a symbolic link; refusing to write or read it`,
    );
  }
  return resolved;
}
