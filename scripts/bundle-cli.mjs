#!/usr/bin/env node
// Bundles the CLI with esbuild into dist/cli/, which bin/memory-transfer.js runs (else build/):
// - dist/cli/main.js (+ chunks/): every command. The project's code and commander are bundled;
//   every other package stays in node_modules (sqlite3 and pg are native or heavy; zod, Probot,
//   Octokit, OpenAI, … load only with the commands that import them). Code splitting: a command
//   is imported when it runs.
// - dist/cli/recall/main.cjs: the same program with `recall` alone runnable (the other commands
//   are listed for --help only), in one CommonJS file. `recall` must start within 2.5× of a bare
//   `node -e 0` (docs/quality.md): in the full bundle its code is spread over ~25 chunks that it
//   shares with other commands, each one a module load of its own; here it is one file, which the
//   bin compiles with a V8 code cache it keeps beside it (main.cjs.<size>-<mtime>.cache).
// - dist/cli/invoked.js: which command the arguments name (src/cli/invoked.ts), for the bin.
// Made by `npm run build`, so by `npm install` / `npm ci` (prepare); not committed (it changes
// with almost every source). `--check` (part of `npm run check-dist`) bundles into a temp folder,
// verifies what `recall` loads at start (below), and fails when a dist/cli/ is present but differs
// from a fresh bundle (run `npm run build`). `--out DIR` bundles into DIR instead (tests use it).
import { build } from 'esbuild';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { listFiles, sameTree } from './bundle-files.mjs';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const outIndex = process.argv.indexOf('--out');
const out = outIndex > 0 ? path.resolve(process.argv[outIndex + 1] ?? '') : undefined;

/** Bundled: the project's sources and the argument parser every command needs at start. */
const BUNDLED = new Set(['commander']);

/**
 * What `recall` must not load at start: zod (it alone takes about as long to import as `node -e
 * 0` runs), the App, GitHub clients, the LLM client, logging, scanners, MCP, a browser, pg.
 */
const NOT_FOR_RECALL = [
  'zod',
  'probot',
  'octokit',
  '@octokit/',
  'openai',
  'pino',
  '@secretlint/',
  '@modelcontextprotocol/',
  'playwright-core',
  'pg',
];

/** What the recall bundle may load at start besides Node's own modules. */
const RECALL_MAY_LOAD = ['sqlite3'];

const BUILTINS = new Set(builtinModules);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function isBuiltin(specifier) {
  return specifier.startsWith('node:') || BUILTINS.has(specifier);
}

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** CommonJS packages taken with require(): an ESM import of one first scans its source for exports. */
const REQUIRED = new Set(['sqlite3']);

/**
 * Packages stay in node_modules except BUNDLED ones; the project's own files are bundled. A
 * REQUIRED package's default import is its `module.exports`, as when imported.
 */
const PACKAGES = {
  name: 'memory-transfer-cli-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (isBuiltin(args.path) || BUNDLED.has(packageName(args.path))) return undefined;
      if (REQUIRED.has(args.path) && args.namespace === 'file') return { path: args.path, namespace: 'required' };
      return { path: args.path, external: true };
    });
    b.onLoad({ filter: /.*/, namespace: 'required' }, (args) => ({
      contents: `export default process.getBuiltinModule('node:module').createRequire(import.meta.url)(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

/**
 * Node's own modules, taken with `process.getBuiltinModule` (Node ≥ 20.16) rather than an ESM
 * import, which makes a facade that reads every export and so runs the lazy getters (`import …
 * from 'node:fs'` loads the file streams). A module exports the value-holding properties of the
 * real one (a getter, e.g. `fs.ReadStream`, is not exported: importing one fails the bundle) and
 * the real one as its default (and `require()`, from commander, gets the real one). Loaded on
 * first use instead: `node:crypto` (its functions, ids
 * hash with it, ~10 ms to load), and commander's `node:child_process` (executable subcommands,
 * which this CLI has none of).
 */
const BUILTIN_MODULES = {
  name: 'memory-transfer-cli-builtins',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (!isBuiltin(args.path)) return undefined;
      const id = args.path.startsWith('node:') ? args.path : `node:${args.path}`;
      const onUse =
        id === 'node:crypto' ||
        (id === 'node:child_process' && /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer));
      if (args.kind === 'require-call' && !onUse) return { path: id, namespace: 'builtin-required' };
      return { path: id, namespace: onUse ? 'builtin-on-use' : 'builtin' };
    });
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => {
      const real = process.getBuiltinModule(args.path);
      const names = Object.entries(Object.getOwnPropertyDescriptors(real))
        .filter(([name, d]) => 'value' in d && IDENTIFIER.test(name) && name !== 'default')
        .map(([name]) => name);
      return {
        contents: `const m = process.getBuiltinModule(${JSON.stringify(args.path)});
export default m;
export const { ${names.join(', ')} } = m;
`,
        loader: 'js',
      };
    });
    b.onLoad({ filter: /.*/, namespace: 'builtin-required' }, (args) => ({
      contents: `module.exports = process.getBuiltinModule(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
    b.onLoad({ filter: /.*/, namespace: 'builtin-on-use' }, (args) => {
      const real = process.getBuiltinModule(args.path);
      const names = Object.keys(real).filter((name) => typeof real[name] === 'function' && IDENTIFIER.test(name));
      const wrapper = (name) =>
        `function ${name}(...args) { const f = load().${name}; return new.target ? new f(...args) : f.apply(this, args); }`;
      return {
        contents: `const load = () => process.getBuiltinModule(${JSON.stringify(args.path)});
${names.map((name) => `export ${wrapper(name)}`).join('\n')}
export default { ${names.join(', ')} };
`,
        loader: 'js',
      };
    });
  },
};

/**
 * The recall bundle: the registry with `recall` alone loadable, and no abstractor (engine.ts
 * loads one for learn, never for recall). A call into a stand-in throws.
 */
const RECALL_ONLY = {
  name: 'memory-transfer-cli-recall-only',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]cli[\\/]commands[\\/]index\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      let loadable = 0;
      const contents = source.replace(
        /load: async \(\) => \(await import\('\.\/([\w-]+)\.js'\)\)\.(\w+),/g,
        (_, name, command) => {
          if (name === 'recall' && command === 'recallCommand') {
            loadable++;
            // imported statically: in the entry file, not in a chunk of its own
            return 'load: async () => __recallCommand,';
          }
          return `load: async () => { throw new Error('${name} is not part of the recall bundle (bin/memory-transfer.js runs it from dist/cli/main.js)'); },`;
        },
      );
      if (loadable !== 1) throw new Error('src/cli/commands/index.ts: the recall entry has changed shape');
      return { contents: `import { recallCommand as __recallCommand } from './recall.js';\n${contents}`, loader: 'ts' };
    });
    b.onResolve({ filter: /[\\/](create-abstractor|rules-abstractor)\.js$/ }, (args) =>
      args.importer.endsWith(`${path.sep}cli${path.sep}engine.ts`)
        ? { path: args.path, namespace: 'not-for-recall' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'not-for-recall' }, (args) => ({
      contents: `const absent = () => { throw new Error('${path.basename(args.path)} is not part of the recall bundle'); };
export const createAbstractor = absent;
export const createRulesAbstractor = absent;`,
      loader: 'js',
    }));
  },
};

/** The full bundle (ESM, split); with `recallOnly`, recall/main.cjs (CommonJS, one file). */
async function bundle(outdir, { recallOnly = false } = {}) {
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['src/cli/main.ts'],
    ...(recallOnly
      ? {
          // CommonJS, so that the bin can compile it with a V8 code cache (vm.Script): a package
          // or module imported lazily is required inside its module's lazy initializer
          outfile: path.join(outdir, 'main.cjs'),
          format: 'cjs',
          define: { 'import.meta.url': '__mtModuleUrl' },
          banner: { js: "const __mtModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
        }
      : { outdir, splitting: true, chunkNames: 'chunks/[name]-[hash]', format: 'esm' }),
    bundle: true,
    platform: 'node',
    target: 'node20',
    // whitespace and syntax only: names stay readable in a stack (MEMORY_TRANSFER_DEBUG=1)
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    plugins: [...(recallOnly ? [RECALL_ONLY] : []), BUILTIN_MODULES, PACKAGES],
  });
  if (result.warnings.length > 0) throw new Error('the CLI bundle must build without a warning');
  return result.metafile;
}

/**
 * What `recall` loads before it prints: the packages its modules reach through static imports
 * and require() (not `import()`) from the entry and from the recall command, and the number of
 * the bundle's files those modules are in.
 */
function recallStartup(metafile) {
  const inputs = metafile.inputs;
  const modules = new Set();
  const packages = new Set();
  const queue = ['src/cli/main.ts', 'src/cli/commands/recall.ts'];
  while (queue.length > 0) {
    const input = queue.pop();
    if (modules.has(input)) continue;
    modules.add(input);
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input) ?? /^required:(.+)$/.exec(input);
    if (match && !BUNDLED.has(match[1])) packages.add(match[1]);
    for (const i of inputs[input]?.imports ?? []) {
      if (i.kind === 'dynamic-import') continue;
      if (!i.external) queue.push(i.path);
      else if (!isBuiltin(i.path)) packages.add(packageName(i.path));
    }
  }
  const files = Object.values(metafile.outputs).filter((output) =>
    Object.keys(output.inputs).some((input) => modules.has(input)),
  );
  return { files: files.length, packages: [...packages] };
}

function assertRecallStartup(name, { packages }) {
  const bad = packages.filter((pkg) =>
    NOT_FOR_RECALL.some((heavy) => (heavy.endsWith('/') ? pkg.startsWith(heavy) : pkg === heavy)),
  );
  if (bad.length > 0)
    throw new Error(
      `${name}: \`recall\` would load at start ${bad.join(', ')} (import it in the command that needs it)`,
    );
}

/** Bundles all three into dir; what recall loads at start from each. */
export async function bundleCli(dir) {
  const full = recallStartup(await bundle(dir));
  assertRecallStartup('dist/cli/main.js', full);
  const fast = recallStartup(await bundle(path.join(dir, 'recall'), { recallOnly: true }));
  assertRecallStartup('dist/cli/recall/main.cjs', fast);
  const unexpected = fast.packages.filter((pkg) => !RECALL_MAY_LOAD.includes(pkg));
  if (unexpected.length > 0) throw new Error(`dist/cli/recall/main.cjs: recall would load ${unexpected.join(', ')}`);
  await build({
    absWorkingDir: root,
    entryPoints: ['src/cli/invoked.ts'],
    outfile: path.join(dir, 'invoked.js'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
  });
  return { full, fast };
}

/** Every file under dir, relative, sorted. */

function describe({ full, fast }) {
  return `recall loads ${fast.files} file of dist/cli/recall/ (it would load ${full.files} of dist/cli/) and ${fast.packages.join(', ')}`;
}

const target = path.join(root, 'dist/cli');
if (check) {
  // inside the repository, so that the bundle's packages resolve as they do from dist/cli
  const temp = await mkdtemp(path.join(root, 'node_modules', '.mt-cli-check-'));
  try {
    const startup = await bundleCli(temp);
    if ((await listFiles(target)).length > 0 && !(await sameTree(target, temp))) {
      console.error(
        'dist/cli differs from a fresh bundle of src/: run `npm run build` (bin/memory-transfer.js runs dist/cli).',
      );
      process.exitCode = 1;
    } else {
      const state = (await listFiles(target)).length > 0 ? 'up to date' : 'absent (bin/memory-transfer.js runs build/)';
      console.log(`dist/cli is ${state}; ${describe(startup)}`);
    }
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = out ?? target;
  await rm(dir, { recursive: true, force: true });
  const startup = await bundleCli(dir);
  console.log(`${out ? path.relative(root, dir) : 'dist/cli'}: bundled; ${describe(startup)}`);
}
