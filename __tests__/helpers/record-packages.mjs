// Loaded with `node --import`: appends the npm package of every module the process loads to the
// file named by RECORD_PACKAGES (one per line), so a test can see what a command loaded: what it
// imports (a resolve hook), and at exit what it took with require() (the module cache).
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const hook = `
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  const match = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(result.url);
  if (match && process.env.RECORD_PACKAGES) appendFileSync(process.env.RECORD_PACKAGES, match[1] + '\\n');
  return result;
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);

const cache = createRequire(import.meta.url).cache;
process.on('exit', () => {
  if (!process.env.RECORD_PACKAGES) return;
  const packages = Object.keys(cache).flatMap(
    (file) => /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(file)?.[1] ?? [],
  );
  if (packages.length > 0)
    appendFileSync(process.env.RECORD_PACKAGES, packages.map((p) => `${p.replace(/\\/g, '/')}\n`).join(''));
});
