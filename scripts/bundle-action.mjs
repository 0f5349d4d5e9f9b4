#!/usr/bin/env node
// Bundles the Action (src/action/index.ts) to dist/action/index.js, and its own MCP server
// (src/action/mcp-server.ts, which the MCP configurations written with `mcp: true` run with the
// runner's node) to dist/action/memory-transfer-mcp.js: ESM, platform node, no Probot, no native
// module, no LLM client. `--check` rebuilds into a temp folder and fails when
// the committed dist/ differs (CI's check-dist), or when a forbidden package slipped in.
import { build } from 'esbuild';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { listFiles, sameTree } from './bundle-files.mjs';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const MAX_BYTES = 1.5 * 1024 * 1024;
const FORBIDDEN = [
  'probot',
  'sqlite3',
  'pg',
  '@probot/',
  'pino',
  'better-sqlite3',
  '@secretlint/',
  'ajv',
  'ajv-formats',
];

/**
 * Modules the Action imports through shared code but never runs, replaced by small stand-ins
 * (each one a few hundred KB that every cold start would parse):
 * - secretlint: src/security/redact.ts loads it for redaction before the LLM; the Action screens
 *   insights and redacts the task it sends to a model (model-api-key) with redact.ts's own
 *   patterns, not secretlint. A call into the stand-in throws, so a future use cannot pass silently.
 * - zod's translated error messages (`z.locales`): the Action speaks English (zod's default,
 *   which zod imports on its own, not through this index).
 * - ajv and ajv-formats: the MCP SDK's default JSON Schema validator, for the answers to an
 *   elicitation; the MCP server elicits nothing and gives the SDK its own validator
 *   (src/mcp/server.ts, NO_ELICITATION), so the default is never made. Constructing it throws.
 */
const STAND_INS = {
  name: 'memory-transfer-stand-ins',
  setup(b) {
    b.onResolve({ filter: /^@secretlint\// }, (args) => ({ path: args.path, namespace: 'stand-in' }));
    b.onResolve({ filter: /^ajv(-formats)?$/ }, (args) =>
      /[\\/]@modelcontextprotocol[\\/]sdk[\\/]/.test(args.importer)
        ? { path: args.path, namespace: 'stand-in' }
        : undefined,
    );
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'stand-in' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'stand-in' }, (args) => ({
      contents:
        args.path === 'zod-locales'
          ? 'export {};'
          : /^ajv/.test(args.path)
            ? `export default function absent() { throw new Error('${args.path} is not part of the Action bundle'); }`
            : `const absent = () => { throw new Error('${args.path} is not part of the Action bundle'); };
export const lintSource = absent;
export const secretLintProfiler = {};
export const rules = [];`,
      loader: 'js',
    }));
  },
};

/**
 * Packages a pool-file run must not load at start-up (they are in lazily imported chunks): the
 * HTTP client stack (@actions/core is only needed for the OIDC token in server mode) and the
 * Octokit (pull request events only). Each would add tens of milliseconds to every cold start.
 */
// openai: only a step given model-api-key loads it (src/action/model-reader.ts)
const NOT_AT_STARTUP = [
  'undici',
  '@actions/http-client',
  '@actions/core',
  '@actions/github',
  '@octokit/',
  'zod',
  'openai',
];

function packageOf(file) {
  return /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? '';
}

/** The inputs of every output the Action's entry (index.js) loads through static imports (not `import()`). */
function startupInputs(metafile) {
  const outputs = metafile.outputs;
  const entry = Object.keys(outputs).find((file) => outputs[file].entryPoint?.endsWith('src/action/index.ts'));
  const seen = new Set();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file) || !outputs[file]) continue;
    seen.add(file);
    for (const i of outputs[file].imports) if (i.kind === 'import-statement' && !i.external) queue.push(i.path);
  }
  return [...seen].flatMap((file) => Object.keys(outputs[file].inputs));
}

async function bundle(outdir) {
  const result = await build({
    entryPoints: {
      index: path.join(root, 'src/action/index.ts'),
      'memory-transfer-mcp': path.join(root, 'src/action/mcp-server.ts'),
    },
    outdir,
    bundle: true,
    // @actions/github is imported lazily (pull request events only): it goes to its own chunk
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    sourcemap: false,
    metafile: true,
    logLevel: 'warning',
    plugins: [STAND_INS],
    // a few CommonJS dependencies call require() for node built-ins
    banner: {
      js: "import { createRequire as __mtCreateRequire } from 'node:module';\nconst require = __mtCreateRequire(import.meta.url);",
    },
  });
  const inputs = Object.keys(result.metafile.inputs);
  const bad = inputs.filter((file) => {
    const pkg = packageOf(file);
    return (
      FORBIDDEN.some((name) => (name.endsWith('/') ? pkg.startsWith(name) : pkg === name)) || file.endsWith('.node')
    );
  });
  if (bad.length > 0)
    throw new Error(`the Action bundle must not contain: ${[...new Set(bad)].slice(0, 5).join(', ')}`);
  const eager = startupInputs(result.metafile).filter((file) =>
    NOT_AT_STARTUP.some((name) => (name.endsWith('/') ? packageOf(file).startsWith(name) : packageOf(file) === name)),
  );
  if (eager.length > 0)
    throw new Error(`loaded at start-up, should be imported lazily: ${[...new Set(eager.map(packageOf))].join(', ')}`);
  const imported = Object.values(result.metafile.outputs)
    .flatMap((output) => output.imports)
    .filter((i) => i.external && !i.path.startsWith('node:') && !/^[a-z_]+(\/|$)/.test(i.path));
  if (imported.length > 0) throw new Error(`unexpected external imports: ${imported.map((i) => i.path).join(', ')}`);
}

/** Every file under dir, relative, sorted. */

async function totalSize(dir) {
  let size = 0;
  for (const file of await listFiles(dir)) size += (await readFile(path.join(dir, file))).length;
  return size;
}

const target = path.join(root, 'dist/action');
if (!check) {
  await rm(target, { recursive: true, force: true });
  await bundle(target);
  const size = await totalSize(target);
  console.log(`dist/action: ${(size / 1024).toFixed(0)} KiB`);
  if (size > MAX_BYTES) {
    console.error(`the bundle is larger than ${MAX_BYTES / 1024 / 1024} MB`);
    process.exitCode = 1;
  }
} else {
  const temp = await mkdtemp(path.join(os.tmpdir(), 'mt-dist-'));
  try {
    await bundle(temp);
    const size = await totalSize(temp);
    if (!(await sameTree(target, temp))) {
      console.error('dist/action differs from a fresh build of src/action: run `npm run bundle` and commit dist/.');
      process.exitCode = 1;
    } else if (size > MAX_BYTES) {
      console.error(`the bundle is larger than ${MAX_BYTES / 1024 / 1024} MB`);
      process.exitCode = 1;
    } else {
      console.log(`dist/action is up to date (${(size / 1024).toFixed(0)} KiB)`);
    }
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}
