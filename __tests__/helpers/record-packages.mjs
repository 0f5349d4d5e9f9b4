// Loaded with `node --import`: appends the npm package of every module the process resolves to
// the file named by RECORD_PACKAGES (one per line), so a test can see what a command loaded.
import { register } from 'node:module';

const hook = `
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  const match = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(result.url);
  if (match && process.env.RECORD_PACKAGES) appendFileSync(process.env.RECORD_PACKAGES, match[1] + '\\n');
  return result;
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
