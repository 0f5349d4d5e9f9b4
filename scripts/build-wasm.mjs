#!/usr/bin/env node
// Compiles src/core/retrieval/wasm/*.wat with wabt into the TypeScript modules beside them that embed the
// bytes (base64), so the code carries its kernels without a file to find at run time.
// `--check` fails (exit 1) when an embedded module differs from a fresh compile.
import wabtInit from 'wabt';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/core/retrieval/wasm');
const check = process.argv.includes('--check');
const wabt = await wabtInit();
let stale = 0;
for (const name of (await readdir(dir)).filter((f) => f.endsWith('.wat'))) {
  const source = await readFile(path.join(dir, name), 'utf8');
  const module = wabt.parseWat(name, source, { simd: true });
  const bytes = Buffer.from(module.toBinary({}).buffer);
  module.destroy();
  const target = path.join(dir, name.replace(/\.wat$/, '-bytes.ts'));
  const text = `// Generated from ${name} by scripts/build-wasm.mjs (npm run build:wasm): do not edit.\nexport const WASM_BASE64 =\n  '${bytes.toString('base64')}';\n`;
  const current = await readFile(target, 'utf8').catch(() => '');
  if (current === text) continue;
  if (check) {
    console.error(`${path.relative(process.cwd(), target)} does not match ${name}: run npm run build:wasm`);
    stale += 1;
  } else {
    await writeFile(target, text);
    console.log(`wrote ${path.relative(process.cwd(), target)} (${bytes.length} bytes)`);
  }
}
process.exit(stale > 0 ? 1 : 0);
