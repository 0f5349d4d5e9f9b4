// Issue 16, points 5-7: input checks that lead (one line: the input, the allowed form, an example),
// tasks of any size (standard input, a file), imports in the audit log, forgetting many only when asked.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildGitRepo } from '../helpers/git-repo.js';
import { runCli, type CliRun } from '../helpers/run-cli.js';

let tmp: string;
let db: string;

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'mt-inputs-'));
  db = join(tmp, 'pool.db');
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const cli = (...args: string[]): Promise<CliRun> => runCli([...args, '--db', db], tmp);

async function learnApi(): Promise<void> {
  const dir = join(tmp, 'api');
  await mkdir(dir);
  buildGitRepo(dir, [
    { message: 'Initial service', files: { 'src/server.ts': 'export {}\n' } },
    {
      message: 'fix: compare invoice dates in UTC (#41)\n\nCustomers in UTC+13 saw invoices dated the next day.',
      files: { 'src/billing/dates.ts': 'toUTC()\n', 'test/dates.test.ts': 'it("auckland")\n' },
    },
    {
      message: 'Fix crash when the request body is empty\n\nAn empty POST body threw a TypeError instead of a 400.',
      files: {
        'src/parse-body.ts': 'if (!body) throw new BadRequest();\n',
        'test/parse-body.test.ts': 'it("empty")\n',
      },
    },
  ]);
  expect((await cli('learn', '--git', dir, '--repo', 'acme/api')).code).toBe(0);
}

async function insightIds(): Promise<string[]> {
  return JSON.parse((await cli('list', '--level', 'insight', '--json')).stdout).memories.map(
    (m: { id: string }) => m.id,
  );
}

const TASK_HOW =
  'give the task as an argument (memory-transfer recall "dates break in UTC+13"), `-` to read it from standard input, or --file FILE';

describe('input checks name the input, the allowed form and an example', () => {
  it.each([
    [['learn', '--git', '.', '--max', 'abc'], '--max: must be a whole number of at least 1, e.g. 100; got "abc"'],
    [['learn', '--git', '.', '--max', '0'], '--max: must be a whole number of at least 1, e.g. 100; got "0"'],
    [
      ['learn', '--git', '.', '--since', 'yesterday'],
      '--since: must be a date, e.g. 2024-01-31 or 2024-01-31T12:00:00Z; got "yesterday"',
    ],
    [['recall', 'x', '-k', '51'], '--k: must be a whole number from 1 to 50, e.g. 3; got "51"'],
    [['list', '--limit', 'all'], '--limit: must be a whole number of at least 1, e.g. 100; got "all"'],
    [['audit', '--limit', '-5'], '--limit: must be a whole number from 1 to 10000, e.g. 100; got "-5"'],
    [['recall', ''], `the task is empty (the argument); ${TASK_HOW}`],
    [['recall', '   '], `the task is empty (the argument); ${TASK_HOW}`],
    [['recall'], `the task is empty (the argument); ${TASK_HOW}`],
  ])('%j', async (args, message) => {
    const { code, stderr } = await cli(...args);
    expect(code).toBe(2);
    expect(stderr).toBe(`memory-transfer: ${message}\n`);
  });

  it('restore of an active memory says so and exits 2; of an archived one, it restores', async () => {
    await learnApi();
    const [id] = await insightIds();
    const active = await cli('restore', id ?? '');
    expect(active).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `memory-transfer: memory ${id} is already active: restore puts back an archived or rejected memory (see \`memory-transfer list --status archived\`)\n`,
    });
    expect((await cli('reject', id ?? '')).code).toBe(0);
    expect((await cli('restore', id ?? '')).stdout).toMatch(new RegExp(`^restored ${id} \\(was rejected\\): `));
  });
});

/** Text as standard input gives it: 64 KiB chunks of bytes. */
async function* chunksOf(text: string): AsyncIterable<Uint8Array> {
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; at += 65_536) yield bytes.subarray(at, at + 65_536);
}

describe('large tasks', () => {
  it('recall - reads no more of standard input than the 20,000 characters it keeps', async () => {
    await learnApi();
    // 200 MB of task, made as it is read: count how much of it recall asks for
    let read = 0;
    async function* huge(): AsyncIterable<Uint8Array> {
      const line = Buffer.from('The request handler crashes when the POST body is empty. ü\n'.repeat(1_000), 'utf8');
      for (let sent = 0; sent < 200_000_000; sent += line.length) {
        read += line.length;
        yield line;
      }
    }
    const result = await runCli(['recall', '-', '--json', '--db', db], tmp, {}, { stdin: huge });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).query).toHaveLength(20_000);
    expect(read).toBeLessThan(200_000);
  });

  it('recall reads the task from standard input (-) or from a file (--file), any size', async () => {
    await learnApi();
    const task = `Invoice dates are off by one day for customers in UTC+13.\n${'Steps to reproduce and logs follow. '.repeat(30_000)}`;
    expect(task.length).toBeGreaterThan(1_000_000);
    const fromStdin = await runCli(['recall', '-', '--json', '--db', db], tmp, {}, { stdin: () => chunksOf(task) });
    expect(fromStdin.code).toBe(0);
    expect(fromStdin.stderr).toBe(
      `memory-transfer: the task is longer than 20000 characters: its first 20000 are used (as by the recall API)\n`,
    );
    const body = JSON.parse(fromStdin.stdout);
    expect(body.query).toHaveLength(20_000);
    expect(body.results[0].provenance[0].repo).toBe('acme/api');

    await writeFile(join(tmp, 'task.md'), 'The request handler crashes when the POST body is empty\n');
    const fromFile = await cli('recall', '--file', 'task.md');
    expect(fromFile.code).toBe(0);
    expect(fromFile.stdout).toMatch(/^1\. /);

    expect((await cli('recall', '--file', 'missing.md')).stderr).toBe(
      `memory-transfer: --file: cannot read missing.md (ENOENT); ${TASK_HOW}\n`,
    );
    expect((await cli('recall', 'x', '--file', 'task.md')).stderr).toBe(
      `memory-transfer: recall takes the task from an argument or from --file, not both; ${TASK_HOW}\n`,
    );
  });
});

describe('imports and forgetting many', () => {
  it('import writes who imported what into the audit log', async () => {
    await learnApi();
    const file = join(tmp, 'pool.jsonl');
    await cli('export', '--out', file);
    const count = (await readFile(file, 'utf8')).trimEnd().split('\n').length - 1;
    const fresh = join(tmp, 'fresh.db');
    expect((await runCli(['import', file, '--db', fresh], tmp)).code).toBe(0);
    expect((await runCli(['import', file, '--db', fresh], tmp)).code).toBe(0);
    const { entries } = JSON.parse((await runCli(['audit', '--json', '--db', fresh], tmp)).stdout);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      tenant: 'acme',
      action: 'import',
      detail: `${count} memories from pool.jsonl (${count} replaced existing ones)`,
    });
    expect(entries[0].actor).toMatch(/^cli:/);
    expect(entries[1].detail).toBe(`${count} memories from pool.jsonl (0 replaced existing ones)`);
  });

  it('forget of several memories asks first, or takes --yes; each is audited', async () => {
    await learnApi();
    const ids = await insightIds();
    expect(ids.length).toBeGreaterThanOrEqual(2);
    const [a = '', b = ''] = ids;

    const refused = await cli('forget', a, b);
    expect(refused).toMatchObject({
      code: 2,
      stderr: `memory-transfer: forgetting 2 memories at once needs --yes (e.g. memory-transfer forget ${a} ${b} --yes); nothing was forgotten\n`,
    });
    const questions: string[] = [];
    const declined = await runCli(
      ['forget', a, b, '--db', db],
      tmp,
      {},
      {
        confirm: async (question) => (questions.push(question), false),
      },
    );
    expect(declined.stdout).toBe('nothing was forgotten\n');
    expect(questions).toEqual([`forget 2 memories (${a}, ${b}) for good?`]);
    expect(await insightIds()).toEqual(expect.arrayContaining([a, b]));

    const unknown = await cli('forget', a, 'm0000000000', '--yes');
    expect(unknown.stderr).toBe(`memory-transfer: no memory m0000000000 in the pool of acme; nothing was forgotten\n`);
    expect(await insightIds()).toContain(a);

    const done = await cli('forget', a, b, '--yes');
    expect(done.code).toBe(0);
    expect(done.stdout.split('\n').filter(Boolean)).toHaveLength(2);
    expect(await insightIds()).not.toContain(a);
    const audit = JSON.parse((await cli('audit', '--json')).stdout).entries;
    expect(
      audit
        .filter((e: { action: string }) => e.action === 'forget')
        .map((e: { memoryId: string }) => e.memoryId)
        .sort(),
    ).toEqual([a, b].sort());
  });
});
