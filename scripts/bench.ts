/**
 * `npm run bench` prints speed figures (no assertions): `npm run bench` runs every section,
 * `npm run bench -- <name> [<name>…]` runs the named ones. A section is scripts/bench/<name>.ts
 * exporting `run(): Promise<Record<string, string | number>>`; add yours to SECTIONS below.
 */
import { spawnSync } from 'node:child_process';
import { availableParallelism, cpus } from 'node:os';

type Figures = Record<string, string | number>;
type Section = () => Promise<{ run(): Promise<Figures> }>;

const SECTIONS: Record<string, Section> = {
  action: () => import('./bench/action.js'),
  learn: () => import('./bench/learn.js'),
  'learn-steady': () => import('./bench/learn-steady.js'),
  recall: () => import('./bench/recall.js'),
  startup: () => import('./bench/startup.js'),
  vectors: () => import('./bench/vectors.js'),
  webhooks: () => import('./bench/webhooks.js'),
};

async function runSection(name: string, load: Section): Promise<boolean> {
  console.log(`\n## ${name}`);
  const started = performance.now();
  try {
    const figures = await (await load()).run();
    const width = Math.max(...Object.keys(figures).map((key) => key.length), 1);
    for (const [key, value] of Object.entries(figures)) console.log(`  ${key.padEnd(width)}  ${value}`);
    console.log(`  (section took ${((performance.now() - started) / 1000).toFixed(1)} s)`);
    return true;
  } catch (error) {
    console.log(`  failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return false;
  }
}

const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const unknown = wanted.filter((name) => !(name in SECTIONS));
if (unknown.length > 0) {
  console.error(`bench: unknown section ${unknown.join(', ')} (sections: ${Object.keys(SECTIONS).join(', ')})`);
  process.exit(2);
}
/** How fast this machine is today: figures from different machines compare only through it. */
function machine(): string {
  const starts: number[] = [];
  for (let i = 0; i < 7; i += 1) {
    const started = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    starts.push(performance.now() - started);
  }
  starts.sort((a, b) => a - b);
  return `${cpus()[0]?.model ?? 'cpu'} ×${availableParallelism()} · bare \`node -e 0\` ${starts[3]?.toFixed(0)} ms`;
}

console.log(`memory-transfer bench · node ${process.version} · ${process.platform}/${process.arch} · ${machine()}`);
let ok = true;
for (const name of wanted.length > 0 ? wanted : Object.keys(SECTIONS)) {
  ok = (await runSection(name, SECTIONS[name] as Section)) && ok;
}
process.exitCode = ok ? 0 : 1;
