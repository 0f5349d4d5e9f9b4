// What the bundlers' --check compares: the files of a bundle folder, and two folders' files byte for byte.
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';

/** The files below a folder, relative and sorted (none when it is missing); code caches made on use are not the bundler's. */
export async function listFiles(dir) {
  try {
    return (await readdir(dir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile() && !entry.name.endsWith('.cache'))
      .map((entry) => path.relative(dir, path.join(entry.parentPath ?? entry.path, entry.name)))
      .sort();
  } catch {
    return [];
  }
}

/** The same files with the same bytes in both folders. */
export async function sameTree(a, b) {
  const [left, right] = [await listFiles(a), await listFiles(b)];
  if (left.join('\n') !== right.join('\n')) return false;
  for (const file of left) {
    const [x, y] = [await readFile(path.join(a, file)), await readFile(path.join(b, file))];
    if (!x.equals(y)) return false;
  }
  return true;
}
