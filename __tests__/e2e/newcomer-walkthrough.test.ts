/**
 * Issue 16's scripted newcomer walk-through, on a fresh temporary folder, with the real command as
 * a process and the committed Action bundle: learn two local repositories of different owners,
 * recall, export for the Action, run the Action for a public repository (first the insights are
 * withheld, with the reason and the way to share them; once shared they are injected). It prints
 * what the user sees at each step.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGitRepo, type CommitSpec } from '../helpers/git-repo.js';

const run = promisify(execFile);
const ROOT = resolve('.');
/** tsx's loader by its URL: the newcomer's folder has no node_modules */
const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const require = createRequire(import.meta.url);
const examples = require('@octokit/webhooks-examples/api.github.com/index.json') as {
  name: string;
  examples: ({ action?: string } & Record<string, unknown>)[];
}[];

let home: string;
const transcript: string[] = [];

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'mt-newcomer-'));
});
afterAll(async () => {
  console.log(`\n${transcript.join('\n')}\n`);
  await rm(home, { recursive: true, force: true });
});

/** Runs `memory-transfer ARGS` in the newcomer's folder, as a process; records what it prints. */
async function memoryTransfer(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const result = await run(process.execPath, ['--import', TSX, join(ROOT, '__tests__/helpers/cli-entry.ts'), ...args], {
    cwd: home,
    env: { PATH: process.env.PATH ?? '', HOME: home },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
  const shown = args.map((a) => (/[\s"]/.test(a) ? JSON.stringify(a) : a)).join(' ');
  transcript.push(`$ memory-transfer ${shown}`, `${result.stderr}${result.stdout}`.trimEnd(), '');
  return result;
}

/** Runs the committed Action bundle as GitHub runs it, in a workspace of a public repository. */
async function action(workspace: string, inputs: Record<string, string>) {
  const runner = join(home, 'runner');
  await mkdir(runner, { recursive: true });
  const issue = examples.find((e) => e.name === 'issues')?.examples.find((e) => e.action === 'opened');
  const payload = {
    ...structuredClone(issue),
    issue: {
      ...(issue?.issue as object),
      title: 'Invoices show the wrong day for customers in Auckland',
      body: 'An invoice created at 23:30 in UTC+13 is dated the next day.',
    },
    repository: {
      ...(issue?.repository as object),
      name: 'website',
      full_name: 'acme/website',
      owner: { login: 'acme', id: 100 },
      private: false,
      visibility: 'public',
    },
  };
  await writeFile(join(runner, 'event.json'), JSON.stringify(payload));
  await writeFile(join(runner, 'output'), '');
  await writeFile(join(runner, 'summary.md'), '');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    GITHUB_REPOSITORY: 'acme/website',
    GITHUB_EVENT_NAME: 'issues',
    GITHUB_EVENT_PATH: join(runner, 'event.json'),
    GITHUB_WORKSPACE: workspace,
    RUNNER_TEMP: join(runner, 'tmp'),
    GITHUB_OUTPUT: join(runner, 'output'),
    GITHUB_STEP_SUMMARY: join(runner, 'summary.md'),
  };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  const { stdout } = await run(process.execPath, [join(ROOT, 'dist/action/index.js')], { cwd: workspace, env });
  const summary = await readFile(join(runner, 'summary.md'), 'utf8');
  const output = await readFile(join(runner, 'output'), 'utf8');
  transcript.push(
    `# the Action (dist/action/index.js) in acme/website (public), inputs ${JSON.stringify(inputs)}`,
    stdout.trimEnd(),
    '# job summary:',
    summary.trimEnd(),
    '',
  );
  return { stdout, summary, output };
}

const BILLING: CommitSpec[] = [
  { message: 'Initial billing service', files: { 'src/invoice.ts': 'export {}\n' } },
  {
    message: 'fix: compare invoice dates in UTC (#41)\n\nCustomers in UTC+13 saw invoices dated the next day.',
    files: { 'src/billing/dates.ts': 'toUTC()\n', 'test/dates.test.ts': 'it("auckland")\n' },
  },
];
const API: CommitSpec[] = [
  { message: 'Initial API', files: { 'app/main.py': 'pass\n' } },
  {
    message: 'Fix crash when the request body is empty\n\nAn empty POST body raised instead of a 400.',
    files: { 'app/body.py': 'if not body: abort(400)\n', 'tests/test_body.py': 'def test_empty(): ...\n' },
  },
];

describe("a newcomer's first hour", () => {
  it('learns two repositories of different owners into one pool, recalls, and feeds the Action of a public repository', async () => {
    // two clones, of two owners
    for (const [repo, history] of [
      ['acme/billing', BILLING],
      ['globex/api', API],
    ] as const) {
      const dir = join(home, repo.split('/')[1] ?? repo);
      await mkdir(dir);
      buildGitRepo(dir, history, { origin: `git@github.com:${repo}.git` });
    }

    const first = await memoryTransfer('learn', '--git', 'billing');
    expect(first.code).toBe(0);
    expect(first.stderr).toContain("the pool's default tenant is now acme");
    expect(first.stdout).toMatch(/^learned 1 fix from acme\/billing: /);
    const second = await memoryTransfer('learn', '--git', 'api');
    expect(second).toMatchObject({ code: 0, stderr: '' });
    expect(second.stdout).toMatch(/^learned 1 fix from globex\/api: /);

    const recalled = await memoryTransfer('recall', 'the server crashes when a request arrives with no body');
    expect(recalled.code).toBe(0);
    expect(recalled.stdout).toContain('from globex/api');
    const stats = await memoryTransfer('stats');
    expect(stats.stdout).toMatch(/^tenant {4}acme \(the default/m);
    expect(stats.stdout).toMatch(/^repos {5}2$/m);

    // the pool file for the Action, inside the public repository's checkout
    const website = join(home, 'website');
    await mkdir(join(website, '.github'), { recursive: true });
    const exported = await memoryTransfer('export', '--for-action', '--out', 'website/.github/memory-transfer.jsonl');
    expect(exported.stderr).toMatch(/^exported 2 active insights of acme to /);

    // learned as private (the default): a public repository is told what was withheld and why
    const withheld = await action(website, { pool: '.github/memory-transfer.jsonl' });
    expect(withheld.summary).toMatch(
      /relevant insights? (was|were) withheld: .* more private than this repository \(public\)/,
    );
    expect(withheld.summary).toContain('memory-transfer share ID');
    expect(withheld.output).toMatch(/^count<<.*\n0\n/m);
    const id = /ids: (m[0-9a-f]+)/.exec(withheld.summary)?.[1] ?? '';
    expect(id).not.toBe('');

    // shared with the organization, exported again: injected into AGENTS.md
    expect((await memoryTransfer('share', id)).code).toBe(0);
    await memoryTransfer('export', '--for-action', '--out', 'website/.github/memory-transfer.jsonl');
    const injected = await action(website, { pool: '.github/memory-transfer.jsonl' });
    expect(injected.summary).toMatch(/^Injected 1 insight from the pool file into target agents\\-md\.$/m);
    expect(injected.output).toContain(id);
    const agents = await readFile(join(website, 'AGENTS.md'), 'utf8');
    transcript.push('# AGENTS.md in acme/website:', agents.trimEnd());
    expect(agents).toMatch(/time zone|UTC/i);
  }, 180_000);
});
