// Issue 16, point 4: commands that only read never create or migrate a pool, and no command writes
// to a SQLite file holding another program's tables.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildGitRepo } from '../helpers/git-repo.js';
import { runCli, type CliRun } from '../helpers/run-cli.js';

let tmp: string;

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'mt-read-only-'));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const cli = (...args: string[]): Promise<CliRun> => runCli(args, tmp);

function sql(file: string, statements: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file);
    db.exec(statements, (error) => db.close(() => (error ? reject(error) : resolve())));
  });
}

async function learnedPool(): Promise<string> {
  const dir = join(tmp, 'api');
  await mkdir(dir);
  buildGitRepo(dir, [
    { message: 'Initial', files: { 'src/a.ts': 'export {}\n' } },
    {
      message: 'Fix crash when the request body is empty',
      files: { 'src/body.ts': 'if (!body) throw 400;\n', 'test/body.test.ts': 'it("empty")\n' },
    },
  ]);
  const db = join(tmp, 'pool.db');
  expect((await cli('learn', '--git', dir, '--repo', 'acme/api', '--db', db)).code).toBe(0);
  return db;
}

const READ_COMMANDS = [
  ['stats'],
  ['list'],
  ['show', 'm0123456789'],
  ['recall', 'anything at all'],
  ['export'],
  ['audit'],
  ['tenant'],
];

describe('commands that only read', () => {
  it.each(READ_COMMANDS)('%s never creates a pool, nor its folder', async (...args) => {
    const db = join(tmp, 'nowhere', 'pool.db');
    const { code, stderr } = await cli(...args, '--db', db);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^memory-transfer: there is no pool at .*pool\.db \(a command that only reads never creates one\): learn into it first/,
    );
    expect(existsSync(join(tmp, 'nowhere'))).toBe(false);
  });

  it.each([['approve'], ['reject'], ['forget'], ['restore'], ['share']])(
    '%s of a memory in a pool that does not exist creates none',
    async (command) => {
      const db = join(tmp, 'nowhere', 'pool.db');
      const { code, stderr } = await cli(command, 'm0123456789', '--db', db);
      expect(code).toBe(2);
      expect(stderr).toBe(
        `memory-transfer: there is no pool at ${db}: learn into it first (\`memory-transfer learn --git DIR\`), or point --db (or MEMORY_TRANSFER_DB) at your pool\n`,
      );
      expect(existsSync(join(tmp, 'nowhere'))).toBe(false);
    },
  );

  it('a pool of an older schema is read by none of them and left as it was (a command that writes upgrades it)', async () => {
    const db = await learnedPool();
    await sql(db, 'DELETE FROM schema_version WHERE version > 1');
    const before = await readFile(db);
    for (const args of READ_COMMANDS) {
      const { code, stderr } = await cli(...args, '--db', db);
      expect(code).toBe(3);
      expect(stderr).toMatch(
        /has schema version 1, older than this memory-transfer's \(\d+\); a command that only reads never upgrades it: run one that writes first \(learn, import\)\n$/,
      );
    }
    expect((await readFile(db)).equals(before)).toBe(true);
  });

  it('a pool behind only by migrations a reader does without (version 5) is read as it is, and not a byte changes', async () => {
    const db = await learnedPool();
    await sql(db, 'DELETE FROM schema_version WHERE version > 5');
    const before = await readFile(db);
    for (const args of READ_COMMANDS) {
      const { code, stderr } = await cli(...args, '--db', db);
      expect(code).not.toBe(3);
      expect(stderr).not.toMatch(/schema version/);
    }
    expect((await cli('stats', '--db', db)).code).toBe(0);
    expect((await readFile(db)).equals(before)).toBe(true);
  });

  it('read a pool without changing a byte of it', async () => {
    const db = await learnedPool();
    const before = await readFile(db);
    for (const args of READ_COMMANDS) await cli(...args, '--db', db);
    expect((await cli('stats', '--db', db)).code).toBe(0);
    expect((await readFile(db)).equals(before)).toBe(true);
  });
});

describe("another program's SQLite file", () => {
  it.each([
    ...READ_COMMANDS,
    ['learn', '--git', 'api', '--repo', 'acme/api'],
    ['import', 'export.jsonl'],
    ['tenant', 'acme'],
    ['forget', 'm0123456789'],
    ['approve', 'm0123456789'],
  ])('%s refuses it before writing anything: its bytes are unchanged', async (...args) => {
    const foreign = join(tmp, 'inventory.db');
    await sql(
      foreign,
      `CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT); CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT);
       INSERT INTO orders (item) VALUES ('widget'); INSERT INTO users (name) VALUES ('ada');`,
    );
    if (args[0] === 'learn')
      buildGitRepo(await mkdir(join(tmp, 'api'), { recursive: true }).then(() => join(tmp, 'api')), [
        { message: 'Fix crash on empty input', files: { 'a.ts': '1\n', 'a.test.ts': '2\n' } },
      ]);
    if (args[0] === 'import') {
      await writeFile(
        join(tmp, 'export.jsonl'),
        '{"format":"memory-transfer-pool","version":1,"tenant":"acme","exportedAt":"2026-01-01T00:00:00Z"}\n',
      );
    }
    const before = await readFile(foreign);
    const { code, stdout, stderr } = await cli(...args, '--db', foreign);
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `memory-transfer: ${foreign} is not a memory-transfer pool: it holds tables of another program (orders, users); nothing was written to it, choose another file for the pool\n`,
    );
    expect((await readFile(foreign)).equals(before)).toBe(true);
    expect(existsSync(`${foreign}-wal`)).toBe(false);
  });

  it('a pool written by a newer version, with a table this one does not know, is refused as newer, not foreign', async () => {
    const db = await learnedPool();
    await sql(
      db,
      "CREATE TABLE insights_v9 (id TEXT); INSERT INTO schema_version (version, applied_at) VALUES (9, '2030-01-01')",
    );
    const before = await readFile(db);
    for (const args of [['stats'], ['learn', '--git', 'api', '--repo', 'acme/api']]) {
      const { code, stderr } = await cli(...args, '--db', db);
      expect(code).toBe(3);
      expect(stderr).toMatch(/has schema version 9, newer than this memory-transfer understands/);
    }
    expect((await readFile(db)).equals(before)).toBe(true);
  });
});
