#!/usr/bin/env node
// The memory-transfer command. `npm install` (prepare: `npm run build`) compiles the TypeScript
// to build/ and bundles the CLI to dist/cli/ (scripts/bundle-cli.mjs). This runs the bundle when
// there is one (`recall` from its own, dist/cli/recall/main.cjs), else build/.
//
// `recall` must start within 2.5× of a bare `node -e 0` (docs/quality.md, "CLI start"), so:
// Node's modules are taken with process.getBuiltinModule (an ESM import of one builds a facade
// that loads more); regular expressions compile straight to machine code (the recall engine runs
// each of its ~200 cue patterns once or twice, and V8's default, interpret a pattern and compile
// it again on its second run, costs a short run more); and compiled code is cached: Node's
// compile cache where there is one (≥ 22.1), else for the recall bundle a V8 code cache of our
// own, kept beside the bundle and named by its size and time, so that a new bundle gets a new one.
const builtin = (id) => process.getBuiltinModule(id);
builtin('node:module').enableCompileCache?.();
builtin('node:v8').setFlagsFromString('--no-regexp-tier-up');

/**
 * Runs a CommonJS bundle through vm.Script with a code cache; saves the cache after the run. Not
 * with an API key: an online recall imports secretlint (ESM only) with import(), which code
 * compiled by vm.Script cannot do on Node 20 without an experimental loader (and not at all in a
 * function compiled after the cache was read), so it runs the bundle through require().
 */
async function runCached(file, argv) {
  const { createRequire, wrap } = builtin('node:module');
  if (process.env.OPENAI_API_KEY?.trim()) return createRequire(import.meta.url)(file).main(argv);
  const fs = builtin('node:fs');
  const vm = builtin('node:vm');
  const { size, mtimeMs } = fs.statSync(file);
  const cacheFile = `${file}.${size}-${Math.trunc(mtimeMs)}.cache`;
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    // first run of this bundle: compile, and save the cache after the run
  }
  const script = new vm.Script(wrap(fs.readFileSync(file, 'utf8')), { filename: file, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, builtin('node:path').dirname(file));
  const code = await module.exports.main(argv);
  // the cache holds what the run compiled: made by a recall that ran (not a help or usage error)
  const recalled =
    (code === 0 || code === 4) && !argv.some((arg) => arg === '--help' || arg === '-h' || arg === 'help');
  if (recalled && (cachedData === undefined || script.cachedDataRejected)) {
    try {
      // with what the run compiled; written aside and renamed, so a reader never sees half of one
      const temp = `${cacheFile}.${process.pid}`;
      fs.writeFileSync(temp, script.createCachedData());
      fs.renameSync(temp, cacheFile);
    } catch {
      // a read-only install runs without the cache
    }
  }
  return code;
}

const argv = process.argv.slice(2);
const dist = new URL('../dist/cli/', import.meta.url);
const fs = builtin('node:fs');
if (fs.existsSync(new URL('main.js', dist))) {
  const { invokedCommand } = await import(new URL('invoked.js', dist).href);
  process.exitCode =
    invokedCommand(argv) === 'recall'
      ? await runCached(builtin('node:url').fileURLToPath(new URL('recall/main.cjs', dist)), argv)
      : await (await import(new URL('main.js', dist).href)).main(argv);
} else {
  process.exitCode = await (await import('../build/cli/main.js')).main(argv);
}
