/**
 * The command as installed: bin/memory-transfer.js runs the esbuild bundle of the CLI
 * (scripts/bundle-cli.mjs: dist/cli/ for every command, dist/cli/recall/main.cjs with a V8 code
 * cache for `recall`, which must start fast). A copy of the bin with a fresh bundle beside it, inside node_modules so that the
 * packages left out of the bundle resolve as they do from the repository.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatReply, embeddingsReply, startFakeOpenAI } from '../helpers/openai-server.js';

const run = promisify(execFile);
const ROOT = resolve('.');
const RECORD = pathToFileURL(join(ROOT, '__tests__/helpers/record-packages.mjs')).href;
const SMOKE_POOL = join(ROOT, '__tests__/fixtures/pools/smoke.jsonl');
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const TASK = 'the parser crashes on empty input';

let install: string;
let work: string;
const schemas: string[] = [];

beforeAll(async () => {
  install = await mkdtemp(join(ROOT, 'node_modules', '.mt-cli-test-'));
  work = join(install, 'work');
  await mkdir(join(install, 'bin'), { recursive: true });
  await mkdir(work);
  await copyFile(join(ROOT, 'bin/memory-transfer.js'), join(install, 'bin/memory-transfer.js'));
  await run(process.execPath, [join(ROOT, 'scripts/bundle-cli.mjs'), '--out', join(install, 'dist/cli')], {
    cwd: ROOT,
  });
}, 120_000);

afterAll(async () => {
  await rm(install, { recursive: true, force: true });
  if (schemas.length === 0) return;
  const client = new pg.Client(PG_URL);
  await client.connect();
  for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

/** Runs the installed command; `record` lists the packages it loaded. */
async function cli(
  args: string[],
  record?: string,
  more: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { PATH: process.env.PATH ?? '', HOME: work, ...(record && { RECORD_PACKAGES: record }), ...more };
  const node = record ? ['--import', RECORD] : [];
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [...node, join(install, 'bin/memory-transfer.js'), ...args],
      {
        cwd: work,
        env,
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number | null; signal: string | null; stdout: string; stderr: string };
    // a process ended by a signal has no exit code: say which signal, so that a failure shows it
    const signal = failed.signal ? `\n(ended by ${failed.signal})` : '';
    return { code: failed.code ?? -1, stdout: failed.stdout, stderr: `${failed.stderr}${signal}` };
  }
}

async function loaded(record: string): Promise<string[]> {
  const packages = (await readFile(record, 'utf8')).split('\n').filter(Boolean);
  return [...new Set(packages.filter((pkg) => !pkg.startsWith('.mt-cli-test-')))].sort();
}

describe('the bundled command', () => {
  it('recalls from its own bundle, loading sqlite3 (and what it loads) and no other package', async () => {
    const db = join(work, 'pool.db');
    expect(await cli(['--db', db, 'import', SMOKE_POOL])).toMatchObject({ code: 0 });
    const record = join(work, 'recall.txt');
    const { code, stdout, stderr } = await cli(['--db', db, 'recall', TASK], record);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^1\. Add a regression test for empty input/);
    // sqlite3 finds its native module with `bindings`
    expect(await loaded(record)).toEqual(['bindings', 'file-uri-to-path', 'sqlite3']);
  });

  it('keeps a code cache beside the recall bundle, and recompiles past a bad one', async () => {
    const db = join(work, 'pool.db');
    const dir = join(install, 'dist/cli/recall');
    const caches = async () => (await readdir(dir)).filter((name) => name.endsWith('.cache'));
    const first = await cli(['--db', db, 'recall', TASK]);
    expect(await caches()).toHaveLength(1);
    const cache = join(dir, (await caches())[0] as string);
    const made = await readFile(cache);
    expect(made.length).toBeGreaterThan(10_000);
    expect(await cli(['--db', db, 'recall', TASK])).toEqual(first);
    await writeFile(cache, 'not a code cache');
    expect(await cli(['--db', db, 'recall', TASK])).toEqual(first);
    expect((await readFile(cache)).length).toBeGreaterThan(10_000);
  });

  it('recalls online with the recall bundle: the task is redacted (secretlint), read by the model and embedded', async () => {
    const llm = await startFakeOpenAI();
    try {
      llm.reply('chat', chatReply({ task_kind: 'failure', routines: ['edge-input'] }));
      llm.reply('embeddings', embeddingsReply(1, 512));
      const env = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: llm.baseURL, MEMORY_TRANSFER_LLM_RETRIES: '0' };
      const secret = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
      const { code, stdout, stderr } = await cli(
        ['--db', join(work, 'pool.db'), 'recall', `${TASK} ${secret}`],
        undefined,
        env,
      );
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(stdout).toMatch(/^1\. Add a regression test for empty input/);
      expect(llm.requests.map((r) => r.endpoint).sort()).toEqual(['chat', 'embeddings']);
      expect(JSON.stringify(llm.requests.map((r) => r.body))).not.toContain(secret);
      expect(llm.leftover()).toEqual({ unused: 0, unexpected: 0 });
    } finally {
      await llm.close();
    }
  });

  it("reports the model's reading of the task in --json, and is silent on what it reads as a question", async () => {
    const llm = await startFakeOpenAI();
    try {
      llm.reply('chat', chatReply({ task_kind: 'question', routines: [] }));
      llm.reply('embeddings', embeddingsReply(1, 512));
      const env = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: llm.baseURL, MEMORY_TRANSFER_LLM_RETRIES: '0' };
      const { code, stdout, stderr } = await cli(
        ['--db', join(work, 'pool.db'), 'recall', TASK, '--json'],
        undefined,
        env,
      );
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(JSON.parse(stdout)).toMatchObject({ taskKind: 'question', results: [] });
      // one reading serves the recall, the withheld check and the reported kind
      expect(llm.requests.map((r) => r.endpoint)).toEqual(['chat']);
    } finally {
      await llm.close();
    }
  });

  it('runs every other command from the full bundle, zod and all', async () => {
    const db = join(work, 'pool.db');
    const record = join(work, 'list.txt');
    const { code, stdout, stderr } = await cli(['--db', db, 'list', '--status', 'active'], record);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toContain('Add a regression test for empty input');
    expect(await loaded(record)).toContain('zod');
  });

  it('keeps the help, the exit codes and the messages of bad input', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: memory-transfer \[options\] \[command\]/);
    expect(help.stdout).toContain('recall [options] [text]');
    const recallHelp = await cli(['help', 'recall']);
    expect(recallHelp.stdout).toMatch(/^Usage: memory-transfer recall \[options\] \[text\]/);
    const bad = await cli(['--db', join(work, 'pool.db'), 'recall', TASK, '--repo', 'nope']);
    expect(bad).toEqual({ code: 2, stdout: '', stderr: 'memory-transfer: --repo: must look like owner/name\n' });
    const empty = await cli(['--db', join(work, 'pool.db'), 'recall', 'time zones', '--fail-empty']);
    expect(empty.code).toBe(4);
    const missing = await cli(['--db', join(work, 'absent', 'pool.db'), 'recall', TASK]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^memory-transfer: there is no pool at /);
    await writeFile(join(work, 'corrupt.db'), 'not a pool');
    const corrupt = await cli(['--db', join(work, 'corrupt.db'), 'recall', TASK]);
    expect(corrupt.code).toBe(3);
    expect(corrupt.stderr).toMatch(/is not a memory-transfer pool or is corrupt/);
  });

  it('recalls from a PostgreSQL pool with the recall bundle', async () => {
    const schema = `mt_test_${randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    const location = `${PG_URL}?schema=${schema}`;
    expect(await cli(['--db', location, 'import', SMOKE_POOL])).toMatchObject({ code: 0 });
    const { code, stdout } = await cli(['--db', location, 'recall', TASK, '--json']);
    expect(code).toBe(0);
    const answer = JSON.parse(stdout) as { results: { title: string }[] };
    expect(answer.results[0]?.title).toBe('Add a regression test for empty input');
  });
});
