import { resolve } from 'node:path';

/** Local clones named in a bench variable as `path=owner/name[,…]` (the bench fetches nothing). */
export function localClones(variable: string, spec: string): { path: string; name: string }[] {
  return spec.split(',').map((item) => {
    const [path, name] = item.split('=');
    if (!path || !name) throw new Error(`${variable}: expected path=owner/name[,…], got ${item}`);
    return { path: resolve(path), name };
  });
}
