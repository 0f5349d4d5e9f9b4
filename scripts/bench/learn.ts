/**
 * learn: a 10,000-commit repository generated with `git fast-import` (about 15% fix commits,
 * most with tests), learned end to end through the CLI's own code path (main(argv)), offline.
 */
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIo } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { mineGitFixes } from '../../src/sources/git.js';
import { buildGitRepo, type CommitSpec } from '../../__tests__/helpers/git-repo.js';
import { BUG_SUBJECTS, pick, random } from './seeded.js';

const COMMITS = Number(process.env.BENCH_COMMITS ?? 10_000);
const FIX_SHARE = 0.15;

const AREAS = ['api', 'billing', 'auth', 'parser', 'cache', 'queue', 'export', 'search', 'users', 'config'];
const THINGS = BUG_SUBJECTS;
const FIX_TEMPLATES = [
  (t: string) => `Fix crash when the ${t} is empty`,
  (t: string) => `fix: handle a missing ${t}`,
  (t: string) => `fix(${t.split(' ')[0]}): wrong ${t} in UTC+13`,
  (t: string) => `Fix race between ${t} refresh and shutdown`,
  (t: string) => `Fix regression in ${t} parsing (#123)`,
  (t: string) => `Fix memory leak in ${t} listener`,
  (t: string) => `Throw a clear error when the ${t} is malformed`,
  (t: string) => `fix: ${t} broken on Windows paths`,
];
const OTHER_TEMPLATES = [
  (t: string) => `Add ${t} support`,
  (t: string) => `Refactor ${t} handling`,
  (t: string) => `Improve ${t} performance`,
  (t: string) => `Rename ${t} helpers`,
  (t: string) => `docs: describe the ${t}`,
  (t: string) => `Bump lodash from 4.17.${t.length} to 4.17.21`,
];

function sourceFile(area: string, n: number, version: number): string {
  const lines = [`// ${area} module ${n}, revision ${version}`];
  for (let i = 0; i < 30; i++)
    lines.push(`export function ${area}Step${n}_${i}(input: string): string { return input.trim() + '${version}'; }`);
  return `${lines.join('\n')}\n`;
}

export function generateHistory(count: number): CommitSpec[] {
  const next = random(42);
  const commits: CommitSpec[] = [
    { message: 'Initial import', files: { 'package.json': '{"name":"bench"}\n', 'README.md': '# bench\n' } },
  ];
  for (let i = 1; i < count; i++) {
    const area = pick(AREAS, next);
    const n = Math.floor(next() * 20);
    const thing = pick(THINGS, next);
    const isFix = next() < FIX_SHARE;
    const source = { [`src/${area}/module-${n}.ts`]: sourceFile(area, n, i) };
    let files: Record<string, string> = source;
    let message: string;
    if (isFix) {
      message = `${pick(FIX_TEMPLATES, next)(thing)}\n\nUsers reported that the ${thing} in ${area} misbehaved; this pins it with a test.`;
      if (next() < 0.85) {
        files = {
          ...source,
          [`test/${area}/module-${n}.test.ts`]: `it('${thing} ${i}', () => expect(${area}Step${n}_0('')).toBe(''));\n`,
        };
      }
    } else {
      message = pick(OTHER_TEMPLATES, next)(thing);
      if (message.startsWith('docs:')) files = { [`docs/${area}.md`]: `# ${area} ${i}\n` };
      if (message.startsWith('Bump')) files = { 'package-lock.json': `{"v":${i}}\n` };
    }
    commits.push({
      message,
      files,
      author: pick(['Ada Lovelace', 'Grace Hopper', 'Alan Turing', 'Barbara Liskov'], next),
    });
  }
  return commits;
}

export async function run(): Promise<Record<string, string | number>> {
  const tmp = await mkdtemp(join(tmpdir(), 'mt-bench-learn-'));
  try {
    const dir = join(tmp, 'api');
    await mkdir(dir);
    let started = performance.now();
    const history = generateHistory(COMMITS);
    buildGitRepo(dir, history, { origin: 'https://github.com/bench/api.git' });
    const generateSeconds = (performance.now() - started) / 1000;

    // the git source alone: both git passes, every fix built
    started = performance.now();
    let mined = 0;
    for await (const fix of await mineGitFixes({ dir })) mined += fix.title.length > 0 ? 1 : 0;
    const mineSeconds = (performance.now() - started) / 1000;

    const db = join(tmp, 'pool.db');
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t), env: {}, cwd: tmp };
    started = performance.now();
    const code = await main(['learn', '--git', dir, '--db', db, '--json'], io);
    const learnSeconds = (performance.now() - started) / 1000;
    if (code !== 0) throw new Error(`learn exited ${code}: ${err.join('')}`);
    const summary = JSON.parse(out.join('')) as { fixes: number; created: number; merged: number; rejected: number };
    const size = (await stat(db)).size + ((await stat(`${db}-wal`).catch(() => undefined))?.size ?? 0);
    return {
      commits: COMMITS,
      'repository generated (s)': generateSeconds.toFixed(1),
      'git mining alone (s)': `${mineSeconds.toFixed(1)} (${mined} fixes)`,
      'learn end to end (s)': learnSeconds.toFixed(1),
      'fixes learned': summary.fixes,
      'memories created': summary.created,
      'insights strengthened (merged)': summary.merged,
      'rejected by specificity/screen': summary.rejected,
      'pool size (MB)': (size / 1024 / 1024).toFixed(1),
      'peak RSS (MB)': (process.resourceUsage().maxRSS / 1024).toFixed(0),
    };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
