#!/usr/bin/env node
// The memory-transfer command. `npm install` (prepare: `npm run build`) compiles the TypeScript
// to build/ and bundles the CLI to dist/cli/ (scripts/bundle-cli.mjs). This runs the bundle when
// there is one (`recall` from its own, dist/cli/recall/), else build/.
//
// `recall` must start within 2.5× of a bare `node -e 0` (docs/quality.md, "CLI start"), so:
// Node's modules are taken with process.getBuiltinModule (an ESM import of one builds a facade
// that loads more); the compile cache is on where Node has one (≥ 22.1); and regular expressions
// compile straight to machine code: the recall engine runs each of its ~200 cue patterns once or
// twice, and V8's default (interpret a pattern first, compile it again when it runs a second
// time) costs a short run about twice as much.
const builtin = (id) => process.getBuiltinModule(id);
builtin('node:module').enableCompileCache?.();
builtin('node:v8').setFlagsFromString('--no-regexp-tier-up');

const argv = process.argv.slice(2);
const dist = new URL('../dist/cli/', import.meta.url);
let entry = new URL('../build/cli/main.js', import.meta.url);
if (builtin('node:fs').existsSync(new URL('main.js', dist))) {
  const { invokedCommand } = await import(new URL('invoked.js', dist).href);
  entry = new URL(invokedCommand(argv) === 'recall' ? 'recall/main.js' : 'main.js', dist);
}
const { main } = await import(entry.href);

process.exitCode = await main(argv);
