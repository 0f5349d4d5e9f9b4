import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildGitRepo } from '../helpers/git-repo.js';
import type { CommitSpec } from '../helpers/git-repo.js';
import { runCli, type CliRun } from '../helpers/run-cli.js';

let tmp: string;
let db: string;

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'mt-cli-'));
  db = join(tmp, 'pool.db');
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** Runs the CLI in-process with a clean environment (offline: no API key). */
const cli = (...args: string[]): Promise<CliRun> => runCli(args, tmp);

const API_HISTORY: CommitSpec[] = [
  { message: 'Initial service', files: { 'src/server.ts': 'export {}\n' } },
  {
    message: 'Fix crash when the request body is empty\n\nAn empty POST body threw a TypeError instead of a 400.',
    files: {
      'src/parse-body.ts': 'if (!body) throw new BadRequest();\n',
      'test/parse-body.test.ts': 'it("rejects empty")\n',
    },
  },
  {
    message: 'fix: compare invoice dates in UTC (#41)\n\nCustomers in UTC+13 saw invoices dated the next day.',
    files: { 'src/billing/dates.ts': 'toUTC()\n', 'test/dates.test.ts': 'it("auckland")\n' },
  },
  { message: 'Add an export endpoint', files: { 'src/export.ts': 'export {}\n' } },
];

async function learnApi(): Promise<CliRun> {
  const dir = join(tmp, 'api');
  await mkdir(dir);
  buildGitRepo(dir, API_HISTORY);
  return cli('learn', '--git', dir, '--repo', 'acme/api', '--db', db);
}

describe('learn and recall', () => {
  it('learns a git repository and recalls its insight for a task in other words', async () => {
    const learned = await learnApi();
    expect(learned.code).toBe(0);
    expect(learned.stderr).toMatch(/^memory-transfer: the pool's default tenant is now acme: /);
    expect(learned.stdout).toMatch(/^learned 2 fixes from acme\/api: \d+ memories created/);

    const recalled = await cli('recall', 'date parsing breaks for users in UTC+13', '--db', db);
    expect(recalled.code).toBe(0);
    expect(recalled.stdout).toMatch(/^1\. /);
    expect(recalled.stdout).toContain('from acme/api');
  });

  it('recall --repo of a public repository names what was withheld and how to share it, never "not relevant"', async () => {
    await learnApi(); // learned as private, by default
    const task = 'date parsing breaks for users in UTC+13';
    const asPublic = await cli('recall', task, '--repo', 'acme/web', '--visibility', 'public', '--db', db);
    expect(asPublic.code).toBe(0);
    expect(asPublic.stdout).toBe('');
    expect(asPublic.stderr).not.toContain('relevant enough');
    expect(asPublic.stderr).toMatch(
      /^memory-transfer: nothing recalled that acme\/web may see: \d+ relevant insights? (was|were) withheld: (its|their) sources are more private than this repository \(public\)\. To let every repository of the organization see (it|them): `memory-transfer share ID` \(ids: m[0-9a-f]+/,
    );
    const json = JSON.parse(
      (await cli('recall', task, '--repo', 'acme/web', '--visibility', 'public', '--json', '--db', db)).stdout,
    );
    expect(json.results).toEqual([]);
    expect(json.withheld).toMatchObject({ visibility: 'public' });
    expect(json.withheld.count).toBeGreaterThan(0);
    // without --visibility, a repository named by hand reads as private (the one default, as mcp --repo)
    const asDefault = await cli('recall', task, '--repo', 'acme/web', '--db', db);
    expect(asDefault.stdout).toMatch(/^1\. /);
    expect(asDefault.stderr).toBe('');
  });

  it('recall --json shows each result with its score parts and provenance', async () => {
    await learnApi();
    const { code, stdout } = await cli(
      'recall',
      'invoice dates wrong in another time zone',
      '--json',
      '--repo',
      'acme/web',
      '--db',
      db,
    );
    expect(code).toBe(0);
    const body = JSON.parse(stdout);
    expect(body).toMatchObject({
      query: 'invoice dates wrong in another time zone',
      tenant: 'acme',
      repo: 'acme/web',
      level: 'insight',
    });
    expect(body.results.length).toBeGreaterThan(0);
    const first = body.results[0];
    expect(first).toMatchObject({ rank: 1, level: 'insight', transferred: true, status: 'active' });
    expect(Object.keys(first.parts).sort()).toEqual(['fused', 'lexical', 'prior', 'routine', 'vector']);
    expect(first.provenance[0]).toMatchObject({ repo: 'acme/api', sourceKind: 'commit', visibility: 'private' });
    expect(first.provenance[0].ref).toMatch(/^[0-9a-f]{40}$/);
    // what it teaches, as fields beside the tags that say it for people
    expect(first).toMatchObject({ lesson: 'time-zone-offset', routines: ['encoding-locale'], writer: 'rules' });
    expect(first.facet).toBe('encoding-locale/time');
    expect(first.examples).toEqual(expect.any(Array));
    expect(first.tags).toEqual(expect.arrayContaining(['routine:encoding-locale', 'lesson:time-zone-offset']));
  });

  it('learn --json prints the summary; learning again skips what was learned', async () => {
    const dir = join(tmp, 'api');
    await mkdir(dir);
    buildGitRepo(dir, API_HISTORY);
    const first = await cli('learn', '--git', dir, '--repo', 'acme/api', '--json', '--db', db);
    expect(JSON.parse(first.stdout)).toMatchObject({ repo: 'acme/api', tenant: 'acme', fixes: 2, skipped: 0 });
    const again = await cli('learn', '--git', dir, '--repo', 'acme/api', '--json', '--db', db);
    expect(JSON.parse(again.stdout)).toMatchObject({ fixes: 2, skipped: 2, created: 0 });
  });

  it('recall --fail-empty exits 4 when nothing is relevant', async () => {
    await learnApi();
    const { code, stdout } = await cli('recall', 'zzqx vvwy', '--fail-empty', '--db', db);
    expect(code).toBe(4);
    expect(stdout).toBe('');
  });

  it('recall stays silent on a task with no failure in it and says why; --any-task searches anyway', async () => {
    await learnApi();
    const silent = await cli('recall', 'How do I show invoice dates in the time zone of the customer?', '--db', db);
    expect(silent.code).toBe(0);
    expect(silent.stdout).toBe('');
    expect(silent.stderr).toMatch(/nothing recalled: the task is a question, .*--any-task searches anyway/);
    const docs = await cli('recall', 'docs: fix typo in the invoice dates guide', '--db', db);
    expect(docs.stderr).toMatch(/nothing recalled: the task is documentation/);
    const topic = await cli('recall', 'time zones of invoice dates', '--any-task', '--db', db);
    expect(topic.stdout).toMatch(/^1\. /);
  });

  it('recall --json says what kind of task it read', async () => {
    await learnApi();
    const kindOf = async (task: string) =>
      (JSON.parse((await cli('recall', task, '--json', '--db', db)).stdout) as { taskKind: string }).taskKind;
    expect(await kindOf("Users in New Zealand see yesterday's date on invoices")).toBe('failure');
    expect(await kindOf('Add a `--currency` option to the invoice export\n\nIt would be handy for reports.')).toBe(
      'feature',
    );
    expect(await kindOf('How do I export invoices as CSV?')).toBe('question');
  });
});

describe('learn --fixes', () => {
  it('learns a fixes file, and refuses a malformed one naming the line, learning nothing', async () => {
    const file = join(tmp, 'fixes.jsonl');
    const fix = {
      repo: 'acme/billing',
      sha: 'a'.repeat(40),
      title: 'Fix crash on an empty invoice list',
      body: 'Summing an empty list threw instead of returning zero.',
      files: ['src/sum.py', 'tests/test_sum.py'],
    };
    await writeFile(file, `${JSON.stringify(fix)}\n`);
    const learned = await cli('learn', '--fixes', file, '--json', '--db', db);
    expect(learned.code).toBe(0);
    expect(JSON.parse(learned.stdout)).toMatchObject({ tenant: 'acme', fixes: 1, skipped: 0, failed: 0 });
    const recalled = JSON.parse(
      (await cli('recall', 'totals crash when the cart is empty', '--json', '--db', db)).stdout,
    );
    expect(recalled.results[0].provenance[0]).toMatchObject({ repo: 'acme/billing', ref: 'a'.repeat(40) });

    const bad = join(tmp, 'bad.jsonl');
    await writeFile(
      bad,
      `${JSON.stringify({ ...fix, sha: 'b'.repeat(40) })}\n{"repo":"acme/x","sha":"c0ffee","title":7}\n`,
    );
    const fresh = join(tmp, 'fresh.db');
    const refused = await cli('learn', '--fixes', bad, '--db', fresh);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^memory-transfer: .*bad\.jsonl:2: title: /);
    expect(existsSync(fresh)).toBe(false);
  });
});

describe('review and governance', () => {
  it('list, show, reject, approve and forget a memory', async () => {
    await learnApi();
    const listed = JSON.parse((await cli('list', '--level', 'insight', '--json', '--db', db)).stdout);
    expect(listed.memories.length).toBeGreaterThan(0);
    const id: string = listed.memories[0].id;

    const shown = await cli('show', id, '--db', db);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('sources:');
    expect(shown.stdout).toContain('acme/api commit');

    expect((await cli('reject', id, '--db', db)).stdout).toMatch(new RegExp(`^rejected ${id}: `));
    expect(JSON.parse((await cli('show', id, '--json', '--db', db)).stdout).status).toBe('rejected');
    const active = JSON.parse((await cli('list', '--status', 'active', '--json', '--db', db)).stdout);
    expect(active.memories.map((m: { id: string }) => m.id)).not.toContain(id);

    expect((await cli('approve', id, '--db', db)).code).toBe(0);
    expect(JSON.parse((await cli('show', id, '--json', '--db', db)).stdout).status).toBe('active');

    expect((await cli('forget', id, '--db', db)).code).toBe(0);
    const gone = await cli('show', id, '--db', db);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toBe(`memory-transfer: no memory ${id} in acme\n`);
  });

  it('show prints a trajectory as it was recorded: its title once, its diff with its indentation', async () => {
    const dir = join(tmp, 'indented');
    await mkdir(dir);
    buildGitRepo(dir, [
      { message: 'Initial parser', files: { 'src/parse.py': 'def parse(text):\n    return text\n' } },
      {
        message: 'fix: parse empty input\n\nAn empty document raised instead of returning nothing.',
        files: {
          'src/parse.py': 'def parse(text):\n    if not text:\n        return None\n    return text\n',
          'tests/test_parse.py': 'def test_empty():\n    assert parse("") is None\n',
        },
      },
    ]);
    expect((await cli('learn', '--git', dir, '--repo', 'acme/parser', '--db', db)).code).toBe(0);
    const listed = JSON.parse((await cli('list', '--level', 'trajectory', '--json', '--db', db)).stdout);
    const shown = await cli('show', listed.memories[0].id, '--db', db);
    expect(shown.code).toBe(0);
    expect(shown.stdout).not.toContain('fix: fix:');
    expect(shown.stdout).toContain('title: fix: parse empty input');
    // the diff's lines as they were, indentation and all
    expect(shown.stdout).toContain('\n+    if not text:\n+        return None\n');
  });

  it('stats --json counts the pool', async () => {
    await learnApi();
    const stats = JSON.parse((await cli('stats', '--json', '--db', db)).stdout);
    expect(stats).toMatchObject({ tenant: 'acme', repos: 1, fixes: 2 });
    expect(stats.memories).toBeGreaterThan(0);
  });
});

describe('export and import', () => {
  it('round-trips the pool into a fresh one', async () => {
    await learnApi();
    const file = join(tmp, 'pool.jsonl');
    const exported = await cli('export', '--out', file, '--db', db);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toMatch(/^exported \d+ memories of acme to /);
    const text = await readFile(file, 'utf8');
    expect(JSON.parse(text.split('\n')[0] ?? '')).toMatchObject({
      format: 'memory-transfer-pool',
      version: 1,
      tenant: 'acme',
    });

    const fresh = join(tmp, 'fresh.db');
    const imported = await cli('import', file, '--json', '--db', fresh);
    expect(imported.code).toBe(0);
    const count = text.trimEnd().split('\n').length - 1;
    expect(JSON.parse(imported.stdout)).toEqual({ tenant: 'acme', imported: count, replaced: 0, embedded: 0 });

    const before = JSON.parse((await cli('list', '--limit', '1000', '--json', '--db', db)).stdout).memories;
    const after = JSON.parse((await cli('list', '--limit', '1000', '--json', '--db', fresh)).stdout).memories;
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    expect(after.sort(byId)).toEqual(before.sort(byId));

    // the fixes are known as learned in the fresh pool too
    const relearn = await cli('learn', '--git', join(tmp, 'api'), '--repo', 'acme/api', '--json', '--db', fresh);
    expect(JSON.parse(relearn.stdout)).toMatchObject({ skipped: 2, created: 0 });
  });

  it('export writes to stdout without --out', async () => {
    await learnApi();
    const { code, stdout } = await cli('export', '--db', db);
    expect(code).toBe(0);
    expect(stdout.startsWith('{"format":"memory-transfer-pool","version":1,')).toBe(true);
  });

  it('a malformed line is named and nothing is imported', async () => {
    await learnApi();
    const file = join(tmp, 'pool.jsonl');
    await cli('export', '--out', file, '--db', db);
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    lines[2] = (lines[2] ?? '').replace(/"status":"\w+"/, '"status":"bogus"');
    await writeFile(file, `${lines.join('\n')}\n`);

    const fresh = join(tmp, 'fresh.db');
    const { code, stdout, stderr } = await cli('import', file, '--db', fresh);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^memory-transfer: .*pool\.jsonl: line 3: status: .*; nothing was imported\n$/);
    expect(existsSync(fresh)).toBe(false);
  });

  it('a file from a newer format version is refused with a clear line', async () => {
    const file = join(tmp, 'new.jsonl');
    await writeFile(
      file,
      '{"format":"memory-transfer-pool","version":9,"tenant":"acme","exportedAt":"2030-01-01T00:00:00Z"}\n',
    );
    const { code, stderr } = await cli('import', file, '--db', db);
    expect(code).toBe(2);
    expect(stderr).toMatch(/format version 9, newer than this memory-transfer reads \(1\); upgrade memory-transfer/);
  });
});

describe('errors', () => {
  it('a corrupt pool file exits 3 with one clear line', async () => {
    await writeFile(db, 'this is not a database '.repeat(200));
    const { code, stderr } = await cli('stats', '--db', db);
    expect(code).toBe(3);
    expect(stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(stderr).toMatch(/^memory-transfer: /);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('a pool written by a newer version exits 3 and is left as it is', async () => {
    await learnApi();
    const { default: sqlite3 } = await import('sqlite3');
    await new Promise<void>((resolve, reject) => {
      const raw = new sqlite3.Database(db);
      raw.run("INSERT INTO schema_version (version, applied_at) VALUES (999, '2099-01-01')", (error) =>
        raw.close(() => (error ? reject(error) : resolve())),
      );
    });
    const { code, stderr } = await cli('recall', 'anything at all', '--db', db);
    expect(code).toBe(3);
    expect(stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(stderr).toMatch(/^memory-transfer: .*newer/);
  });

  it('a pool locked by another writer exits 3 with a clear line', async () => {
    await learnApi();
    const { openStore } = await import('../../src/store/open-store.js');
    const holder = await openStore(db);
    let release = () => undefined as void;
    const held = holder.transaction(() => new Promise<void>((resolve) => (release = resolve)));
    try {
      const { code, stderr } = await cli(
        'learn',
        '--git',
        join(tmp, 'api'),
        '--repo',
        'acme/api',
        '--force',
        '--db',
        db,
      );
      expect(code).toBe(3);
      expect(stderr).toMatch(/^memory-transfer: .*locked/);
    } finally {
      release();
      await held;
      await holder.close();
    }
  });

  it('a folder that is not a git repository exits 2', async () => {
    const { code, stderr } = await cli('learn', '--git', tmp, '--db', db);
    expect(code).toBe(2);
    expect(stderr).toBe(`memory-transfer: ${tmp}: not a git repository\n`);
    expect(existsSync(db)).toBe(false);
  });

  it('an unknown id exits 2', async () => {
    await learnApi();
    const { code, stderr } = await cli('approve', 'm0000000000', '--db', db);
    expect(code).toBe(2);
    expect(stderr).toBe('memory-transfer: no memory m0000000000 in the pool of acme\n');
  });

  it.each([
    [['learn', '--db', 'x.db'], /learn needs exactly one of --git DIR or --fixes FILE/],
    [['learn', '--git', '.', '--max', 'lots'], /--max: /],
    [['recall', 'x', '--k', '0'], /--k: must be a whole number from 1 to 50, e.g. 3; got "0"/],
    [['recall', 'x', '--level', 'memo'], /option '--level <level>' argument 'memo' is invalid/],
    [['learn', '--gti', 'x'], /unknown option '--gti'/],
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['show', 'bad id!'], /--id: must be a memory id/],
  ])('bad usage %j exits 2', async (args, message) => {
    const { code, stderr } = await cli(...args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).toMatch(/^memory-transfer: /);
  });

  it('a missing pool asks for learn first, and is not created', async () => {
    const missing = await cli('list', '--db', db);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      `memory-transfer: there is no pool at ${db} (a command that only reads never creates one): learn into it first (\`memory-transfer learn --git DIR\`), or point --db (or MEMORY_TRANSFER_DB) at your pool\n`,
    );
    expect(existsSync(db)).toBe(false);
  });

  it.each(['learn', 'recall', 'list', 'show', 'approve', 'reject', 'forget', 'export', 'import', 'stats', 'tenant'])(
    '%s --help prints its usage',
    async (command) => {
      const { code, stdout } = await cli(command, '--help');
      expect(code).toBe(0);
      expect(stdout).toMatch(new RegExp(`^Usage: memory-transfer ${command}`));
      expect(stdout).toContain('--db');
    },
  );
});
