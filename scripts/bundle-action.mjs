#!/usr/bin/env node
/* global process, console */
// Bundles the Action (src/action/index.ts) to dist/action/index.js: ESM, platform node, no
// Probot, no native module, no LLM client. `--check` rebuilds into a temp folder and fails when
// the committed dist/ differs (CI's check-dist), or when a forbidden package slipped in.
import { build } from 'esbuild';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const MAX_BYTES = 1.5 * 1024 * 1024;
const FORBIDDEN = ['probot', 'sqlite3', 'pg', 'openai', '@probot/', 'pino', 'better-sqlite3'];

async function bundle(outdir) {
  const result = await build({
    entryPoints: [path.join(root, 'src/action/index.ts')],
    outfile: path.join(outdir, 'index.js'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    sourcemap: false,
    metafile: true,
    logLevel: 'warning',
    // a few CommonJS dependencies call require() for node built-ins
    banner: {
      js: "import { createRequire as __mtCreateRequire } from 'node:module';\nconst require = __mtCreateRequire(import.meta.url);",
    },
  });
  const inputs = Object.keys(result.metafile.inputs);
  const bad = inputs.filter((file) => {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? '';
    return (
      FORBIDDEN.some((name) => (name.endsWith('/') ? pkg.startsWith(name) : pkg === name)) || file.endsWith('.node')
    );
  });
  if (bad.length > 0)
    throw new Error(`the Action bundle must not contain: ${[...new Set(bad)].slice(0, 5).join(', ')}`);
  const imported = result.metafile.outputs[Object.keys(result.metafile.outputs)[0]].imports.filter(
    (i) => i.external && !i.path.startsWith('node:') && !/^[a-z_]+(\/|$)/.test(i.path),
  );
  if (imported.length > 0) throw new Error(`unexpected external imports: ${imported.map((i) => i.path).join(', ')}`);
  return path.join(outdir, 'index.js');
}

async function listFiles(dir) {
  try {
    return (await readdir(dir)).sort();
  } catch {
    return [];
  }
}

const target = path.join(root, 'dist/action');
if (!check) {
  const file = await bundle(target);
  const size = (await readFile(file)).length;
  console.log(`dist/action/index.js: ${(size / 1024).toFixed(0)} KiB`);
  if (size > MAX_BYTES) {
    console.error(`the bundle is larger than ${MAX_BYTES / 1024 / 1024} MB`);
    process.exitCode = 1;
  }
} else {
  const temp = await mkdtemp(path.join(os.tmpdir(), 'mt-dist-'));
  try {
    const fresh = await bundle(temp);
    const [committedFiles, freshFiles] = [await listFiles(target), await listFiles(temp)];
    const committed = await readFile(path.join(target, 'index.js'), 'utf8').catch(() => undefined);
    const rebuilt = await readFile(fresh, 'utf8');
    if (committed !== rebuilt || committedFiles.join() !== freshFiles.join()) {
      console.error('dist/action differs from a fresh build of src/action: run `npm run bundle` and commit dist/.');
      process.exitCode = 1;
    } else if (rebuilt.length > MAX_BYTES) {
      console.error(`the bundle is larger than ${MAX_BYTES / 1024 / 1024} MB`);
      process.exitCode = 1;
    } else {
      console.log(`dist/action is up to date (${(rebuilt.length / 1024).toFixed(0)} KiB)`);
    }
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}
