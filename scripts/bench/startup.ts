/**
 * startup: how long a user waits for a process, each beside its floor `node -e 0` measured in the
 * same run (medians of BENCH_STARTUP_RUNS runs, default 9, interleaved with the floor's):
 * - the CLI: `memory-transfer recall` on a small pool (the smoke pool: 6 insights), as installed:
 *   bin/memory-transfer.js, which runs it from the bundle dist/cli/recall/main.cjs with its code
 *   cache (`npm run build` first when a source is newer; the warm-up run makes the cache).
 *   Target ≤ 2.5× the floor. NODE_EXTRA_CA_CERTS makes every node read a CA bundle at start,
 *   the floor too: run it with and without (`env -u NODE_EXTRA_CA_CERTS npm run bench -- startup`).
 * - the Action (dist/action/index.js, pool-file mode, dry run) on a pool file made for it
 *   (`export --for-action`) from real fix histories: BENCH_GIT_REPOS names local clones
 *   (comma-separated `path=owner/name`), learned into .bench/startup-git.db with `learn --git`
 *   (cached: delete the file to relearn), at most BENCH_GIT_FIXES fixes in all (default 4000).
 *   The file is written gzip-compressed (`--out pool.jsonl.gz`), as a repository commits it.
 *   Prints the file's size (target < 1 MB) and the start (target ≤ 2× the floor). Without
 *   BENCH_GIT_REPOS this part is skipped: the bench fetches nothing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { localClones } from './local-clones.js';
import { percentile } from './load.js';

const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 9);
const MAX_FIXES = Number(process.env.BENCH_GIT_FIXES ?? 4000);
const ROOT = resolve('.');
const CLI = join(ROOT, 'bin/memory-transfer.js');
const BUNDLE = join(ROOT, 'dist/action/index.js');

function ms(value: number): string {
  return value.toFixed(0);
}

function timed(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { encoding: 'utf8', ...options });
  const elapsed = performance.now() - started;
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stdout}${result.stderr}`);
  return elapsed;
}

/**
 * medians of the command and of `node -e 0`, run alternately so both see the same machine, the
 * floor in the command's environment (`env`; else this process's): a variable Node reads at
 * start (this machine's NODE_EXTRA_CA_CERTS: a CA bundle) weighs on both or on neither
 */
function againstFloor(run: () => number, env?: NodeJS.ProcessEnv): { median: number; floor: number } {
  const times: number[] = [];
  const floors: number[] = [];
  run(); // warm the file cache
  for (let i = 0; i < RUNS; i++) {
    floors.push(timed(['-e', '0'], env ? { env } : {}));
    times.push(run());
  }
  times.sort((a, b) => a - b);
  floors.sort((a, b) => a - b);
  return { median: percentile(times, 50), floor: percentile(floors, 50) };
}

async function newestSource(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts'))
      newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/**
 * build/ and the CLI bundle dist/cli/ as the installed command runs them (`npm run build` when a
 * source is newer than either): bin/memory-transfer.js runs `recall` from dist/cli/recall/main.cjs.
 */
async function ensureBuild(): Promise<void> {
  const newest = await newestSource(join(ROOT, 'src'));
  const outputs = [join(ROOT, 'build/cli/main.js'), join(ROOT, 'dist/cli/recall/main.cjs')];
  const fresh = await Promise.all(
    outputs.map(async (file) => existsSync(file) && (await stat(file)).mtimeMs >= newest),
  );
  if (fresh.every(Boolean)) return;
  const result = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm run build failed: ${result.stdout}${result.stderr}`);
}

async function cliRecall(dir: string): Promise<Record<string, string>> {
  await ensureBuild();
  const db = join(dir, 'startup-small.db');
  await rm(db, { force: true });
  timed([CLI, '--db', db, 'import', join(ROOT, '__tests__/fixtures/pools/smoke.jsonl')]);
  const { median, floor } = againstFloor(() =>
    timed([CLI, '--db', db, 'recall', 'the parser crashes on empty input'], { cwd: dir }),
  );
  return {
    'CLI recall, small pool (ms)': ms(median),
    'CLI floor, node -e 0 (ms)': ms(floor),
    'CLI recall / floor (target ≤ 2.5×)': `${(median / floor).toFixed(2)}×`,
  };
}

/** the pool learned from the clones, cached; returns the number of fixes learned */
async function gitPool(dir: string, repos: { path: string; name: string }[]): Promise<string> {
  const db = join(dir, 'startup-git.db');
  if (!existsSync(db)) {
    const per = Math.ceil(MAX_FIXES / repos.length);
    for (const repo of repos) {
      timed([
        CLI,
        '--db',
        db,
        '--tenant',
        repo.name.split('/')[0] as string,
        'learn',
        '--git',
        repo.path,
        '--repo',
        repo.name,
        '--visibility',
        'public',
        '--max',
        String(per),
      ]);
    }
  }
  return db;
}

async function actionOnPoolFile(dir: string, spec: string): Promise<Record<string, string>> {
  await ensureBuild();
  const repos = localClones('BENCH_GIT_REPOS', spec);
  const db = await gitPool(dir, repos);
  const tenant = (repos[0] as { name: string }).name.split('/')[0] as string;
  const work = join(dir, 'startup-action');
  await mkdir(work, { recursive: true });
  const file = join(work, 'pool.jsonl.gz');
  timed([CLI, '--db', db, '--tenant', tenant, 'export', '--for-action', '--out', file]);
  const stats = spawnSync(process.execPath, [CLI, '--db', db, '--tenant', tenant, 'stats', '--json'], {
    encoding: 'utf8',
  });
  const fixes = (JSON.parse(stats.stdout) as { fixes?: number }).fixes;
  await writeFile(join(work, 'event.json'), JSON.stringify({ repository: { visibility: 'public' } }));
  await writeFile(join(work, 'output'), '');
  const env = {
    PATH: process.env.PATH,
    GITHUB_REPOSITORY: `${tenant}/elsewhere`,
    GITHUB_EVENT_NAME: 'push',
    GITHUB_EVENT_PATH: join(work, 'event.json'),
    GITHUB_WORKSPACE: work,
    RUNNER_TEMP: join(work, 'tmp'),
    GITHUB_OUTPUT: join(work, 'output'),
    INPUT_POOL: 'pool.jsonl.gz',
    INPUT_TASK: 'The dev server crashes when the config file is empty',
    INPUT_TARGET: 'none',
    'INPUT_DRY-RUN': 'true',
  };
  const { median, floor } = againstFloor(() => timed([BUNDLE], { cwd: work, env }), env);
  const bytes = (await stat(file)).size;
  const plain = gunzipSync(await readFile(file));
  const lines = JSON.parse(plain.subarray(0, plain.indexOf(0x0a)).toString('utf8')) as { count: number };
  return {
    'Action pool file: fixes learned (learn --git)': String(fixes ?? '?'),
    'Action pool file: insights': String(lines.count),
    'Action pool file: size (MB, target < 1), gzip': (bytes / 1024 / 1024).toFixed(2),
    'Action pool file: uncompressed (MB)': (plain.length / 1024 / 1024).toFixed(2),
    'Action start on it (ms)': ms(median),
    "Action floor, node -e 0 in the Action's environment (ms)": ms(floor),
    'Action start / floor (target ≤ 2×)': `${(median / floor).toFixed(2)}×`,
  };
}

export async function run(): Promise<Record<string, string | number>> {
  const dir = join(ROOT, '.bench');
  await mkdir(dir, { recursive: true });
  const figures: Record<string, string | number> = { ...(await cliRecall(dir)) };
  const repos = process.env.BENCH_GIT_REPOS;
  if (repos) Object.assign(figures, await actionOnPoolFile(dir, repos));
  else figures['Action pool file'] = 'skipped: set BENCH_GIT_REPOS=path=owner/name[,…] (local clones)';
  figures.runs = `median of ${RUNS}, alternating with node -e 0`;
  return figures;
}
