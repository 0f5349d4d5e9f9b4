/**
 * Commands load only what they use: the registry lists every command (name, usage, description)
 * without importing it, and a run imports the one command it names.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { invokedCommand } from '../../src/cli/main.js';
import { runCli } from '../helpers/run-cli.js';

const run = promisify(execFile);
const ROOT = resolve('.');
const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const RECORD = pathToFileURL(join(ROOT, '__tests__/helpers/record-packages.mjs')).href;
const SMOKE_POOL = join(ROOT, '__tests__/fixtures/pools/smoke.jsonl');
/**
 * what `recall` must never load: zod (its import alone costs about one `node -e 0`), the App,
 * GitHub clients, the LLM client, logging, scanners, MCP, a browser, PostgreSQL's client
 */
const HEAVY = [
  'zod',
  'pg',
  'probot',
  'octokit',
  '@octokit/',
  'openai',
  'pino',
  '@secretlint/',
  '@modelcontextprotocol/',
  'playwright-core',
];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mt-lazy-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the command registry', () => {
  it('--help lists every command with its usage and description', async () => {
    const { code, stdout } = await runCli(['--help'], dir);
    expect(code).toBe(0);
    const listed = stdout.replace(/\s+/g, ' ');
    for (const command of COMMANDS) {
      expect(listed).toContain(`${command.name} ${command.usage}`.trim());
      expect(listed).toContain(command.description.replace(/\s+/g, ' '));
    }
  });

  it.each(COMMANDS.map((c) => c.name))(
    '%s --help shows its own options and the description of the registry',
    async (name) => {
      const { code, stdout } = await runCli([name, '--help'], dir);
      expect(code).toBe(0);
      expect(stdout).toMatch(new RegExp(`^Usage: memory-transfer ${name} `));
      const description = COMMANDS.find((c) => c.name === name)!.description;
      expect(stdout.replace(/\s+/g, ' ')).toContain(description.replace(/\s+/g, ' '));
    },
  );

  it('finds the command a run names, past the global options', () => {
    expect(invokedCommand(['--db', 'recall', 'list'])).toBe('list');
    expect(invokedCommand(['--tenant', 'acme', '--db=x.db', 'recall', 'text'])).toBe('recall');
    expect(invokedCommand(['help', 'export'])).toBe('export');
    expect(invokedCommand(['--help'])).toBeUndefined();
  });

  it('recall on a small pool loads none of the packages other commands need', async () => {
    const db = join(dir, 'pool.db');
    const record = join(dir, 'packages.txt');
    const env = { PATH: process.env.PATH ?? '', HOME: dir, RECORD_PACKAGES: record };
    const cli = (...args: string[]) =>
      run(
        process.execPath,
        ['--import', TSX, '--import', RECORD, join(ROOT, '__tests__/helpers/cli-entry.ts'), ...args],
        {
          cwd: dir,
          env,
        },
      );
    await cli('--db', db, 'import', SMOKE_POOL);
    await rm(record, { force: true });
    const { stdout } = await cli('--db', db, 'recall', 'the parser crashes on empty input');
    expect(stdout).toMatch(/Add a regression test for empty input/);
    const loaded = new Set((await readFile(record, 'utf8')).split('\n').filter(Boolean));
    expect(loaded).toContain('sqlite3');
    expect([...loaded].filter((pkg) => HEAVY.some((heavy) => pkg === heavy || pkg.startsWith(heavy)))).toEqual([]);
  });
});
