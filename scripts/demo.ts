/**
 * `npm run demo`: the Quick start's main job on the embedded default. Builds two small git
 * repositories with real-looking fix histories, learns both into a SQLite pool of the demo's own
 * (./.memory-transfer/demo.db, made afresh at every run; never the user's pool, whatever
 * MEMORY_TRANSFER_DB says) with the memory-transfer CLI (offline, no API key), then recalls for a
 * task in a third repository, and says where the pool is.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { main } from '../src/cli/main.js';

interface DemoCommit {
  message: string;
  files: Record<string, string>;
}

const api: DemoCommit[] = [
  {
    message: 'Initial service skeleton',
    files: { 'app/server.py': 'def serve():\n    pass\n', 'README.md': '# api\n' },
  },
  {
    message: 'Fix crash when the request body is empty\n\nAn empty POST body raised KeyError instead of a 400.',
    files: {
      'app/parse_body.py':
        'def parse(body):\n    if not body:\n        raise BadRequest("empty body")\n    return body\n',
      'tests/test_parse_body.py': 'def test_empty_body_is_rejected():\n    assert parse_rejects("")\n',
    },
  },
  {
    message:
      'fix: compare invoice dates in UTC (#41)\n\nCustomers in UTC+13 saw invoices dated the next day; local time was compared with UTC.',
    files: {
      'app/billing/invoice_dates.py': 'def due(ts):\n    return ts.astimezone(timezone.utc).date()\n',
      'tests/test_invoice_dates.py':
        'def test_due_date_in_pacific_auckland():\n    assert due(AUCKLAND_MIDNIGHT) == date(2026, 1, 1)\n',
    },
  },
  { message: 'Add export endpoint', files: { 'app/export.py': 'def export():\n    return []\n' } },
  {
    message:
      'Fix migration failing on a fresh database (#57)\n\nThe index migration assumed a column created by an earlier data fix.',
    files: {
      'migrations/0012_add_index.sql': 'CREATE INDEX IF NOT EXISTS invoices_due ON invoices (due);\n',
      'tests/test_migrations.py': 'def test_migrations_apply_to_empty_database():\n    migrate(fresh_db())\n',
    },
  },
  {
    message:
      'Fix race between cache refresh and shutdown\n\nA refresh scheduled during shutdown wrote to a closed pool.',
    files: {
      'app/cache.py':
        'async def refresh(self):\n    async with self._lock:\n        if self.closed:\n            return\n',
      'tests/test_cache.py':
        'async def test_refresh_after_close_is_a_noop():\n    await cache.close(); await cache.refresh()\n',
    },
  },
];

const web: DemoCommit[] = [
  { message: 'Initial commit', files: { 'package.json': '{ "name": "web" }\n', 'src/index.ts': 'export {};\n' } },
  {
    message:
      'fix(dates): wrong day shown for users east of UTC (#12)\n\nformatDay used the server offset instead of the user time zone.',
    files: {
      'src/format-day.ts':
        'export const formatDay = (d: Date, tz: string) => d.toLocaleDateString("en", { timeZone: tz });\n',
      'src/format-day.test.ts':
        'test("Pacific/Kiritimati", () => expect(formatDay(new Date(0), "Pacific/Kiritimati")).toBe("1/1/1970"));\n',
    },
  },
  {
    message:
      'Fix event listener leak on unmount\n\nThe resize listener was never removed, so every navigation added one more.',
    files: {
      'src/use-resize.ts':
        'useEffect(() => { addEventListener("resize", f); return () => removeEventListener("resize", f); }, []);\n',
      'src/use-resize.test.ts': 'test("removes its listener", () => { unmount(); expect(listeners()).toBe(0); });\n',
    },
  },
  { message: 'docs: describe the build', files: { 'README.md': '# web\n\nnpm run build\n' } },
  {
    message: 'Fix type errors after upgrading the DOM typings',
    files: {
      'src/globals.d.ts': 'declare global { interface Window { appConfig: Record<string, string> } }\nexport {};\n',
    },
  },
];

function makeRepo(root: string, name: string, commits: DemoCommit[]): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  let day = 1;
  for (const commit of commits) {
    for (const [path, text] of Object.entries(commit.files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    git('add', '-A');
    const date = `2026-03-${String(day++).padStart(2, '0')}T10:00:00Z`;
    execFileSync('git', ['commit', '-q', '-m', commit.message], {
      cwd: dir,
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'Dana Demo',
        GIT_AUTHOR_EMAIL: 'dana@example.com',
        GIT_COMMITTER_NAME: 'Dana Demo',
        GIT_COMMITTER_EMAIL: 'dana@example.com',
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_DATE: date,
      },
    });
  }
  return dir;
}

async function run(argv: string[]): Promise<void> {
  console.log(`\n$ memory-transfer ${argv.map((a) => (a.includes(' ') ? JSON.stringify(a) : a)).join(' ')}`);
  const code = await main(argv);
  if (code !== 0) throw new Error(`memory-transfer ${argv[0]} exited with ${code}`);
}

// the demo's own pool, made afresh (the first real `learn` goes to ./.memory-transfer/pool.db, untouched)
const db = resolve('.memory-transfer', 'demo.db');
for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
// the two repositories live in a temporary folder, removed whatever happens; the pool stays
const root = mkdtempSync(join(tmpdir(), 'memory-transfer-demo-'));
try {
  const apiDir = makeRepo(root, 'api', api);
  const webDir = makeRepo(root, 'web', web);

  await run(['learn', '--git', apiDir, '--repo', 'acme/api', '--db', db]);
  await run(['learn', '--git', webDir, '--repo', 'acme/web', '--db', db]);
  await run(['recall', 'date parsing breaks for users in UTC+13', '--repo', 'acme/mobile', '--db', db]);
  await run([
    'recall',
    'the worker crashes when the queue message has no payload',
    '--repo',
    'acme/mobile',
    '--db',
    db,
  ]);
  await run(['stats', '--db', db]);
  const shown = relative(process.cwd(), db);
  console.log(
    [
      '',
      `The demo's pool is ${shown} (made afresh by every \`npm run demo\`); your own pool is not touched.`,
      `Look further with --db: npx memory-transfer list --db ${shown}`,
      'Learn your own repositories without it: npx memory-transfer learn --git ../some-repo',
    ].join('\n'),
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
