import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import type { Fix } from '../../src/core/types.js';
import { mineGitFixes } from '../../src/sources/git.js';
import type { GitSourceOptions } from '../../src/sources/git.js';
import { buildGitRepo } from '../helpers/git-repo.js';
import type { CommitSpec } from '../helpers/git-repo.js';

let tmp: string;
beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'mt-git-'));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function collect(options: GitSourceOptions): Promise<Fix[]> {
  const fixes: Fix[] = [];
  for await (const fix of await mineGitFixes(options)) fixes.push(fix);
  return fixes;
}

const base: CommitSpec = { message: 'Initial import', files: { 'src/parse.ts': 'export const parse = 1;\n' } };

function titles(fixes: Fix[]): string[] {
  return fixes.map((fix) => fix.title);
}

describe('mineGitFixes: detection', () => {
  it('takes commits with fix cues and passes over the rest', async () => {
    const dir = join(tmp, 'repo');
    await mkdir(dir);
    buildGitRepo(dir, [
      base,
      { message: 'Add a CSV exporter', files: { 'src/csv.ts': 'a\n' } },
      { message: 'fix: empty input crashes the parser', files: { 'src/parse.ts': 'b\n' } },
      { message: 'fix(cli): reject a negative --max', files: { 'src/cli.ts': 'c\n' } },
      { message: 'Handle timezone offsets\n\nFixes #12 and acme/web#7', files: { 'src/date.ts': 'd\n' } },
      { message: 'Crash when the config file is empty', files: { 'src/config.ts': 'e\n' } },
      { message: 'Regression in date parsing after 2.0', files: { 'src/date.ts': 'f\n' } },
      { message: 'Refactor the store', files: { 'src/store.ts': 'g\n' } },
    ]);
    const fixes = await collect({ dir, repo: 'acme/api' });
    expect(titles(fixes)).toEqual([
      'fix: empty input crashes the parser',
      'fix(cli): reject a negative --max',
      'Handle timezone offsets',
      'Crash when the config file is empty',
      'Regression in date parsing after 2.0',
    ]);
    const tz = fixes[2];
    expect(tz?.problem).toBe('Fixes #12 and acme/web#7');
    expect(tz?.issues).toEqual(['#12', 'acme/web#7']);
    expect(fixes.every((fix) => fix.tenant === 'acme' && fix.repo === 'acme/api' && fix.sourceKind === 'commit')).toBe(
      true,
    );
    expect(fixes.every((fix) => fix.visibility === 'private' && fix.trusted)).toBe(true);
  });

  it('reads a subject wrapped over several lines as git does, whole, up to a blank line or a list', async () => {
    const dir = join(tmp, 'repo');
    await mkdir(dir);
    buildGitRepo(dir, [
      base,
      {
        message:
          'Fixed precision problem on conversion of decimal seconds to\nmicroseconds in the parser.\n\nThe float was rounded twice.',
        files: { 'src/parse.ts': 'a\n' },
      },
      { message: 'Fix crash on empty input\n- guard the loop\n- add a test', files: { 'src/loop.ts': 'b\n' } },
    ]);
    const fixes = await collect({ dir, repo: 'acme/api' });
    expect(titles(fixes)).toEqual([
      'Fixed precision problem on conversion of decimal seconds to microseconds in the parser.',
      'Fix crash on empty input',
    ]);
    expect(fixes.map((fix) => fix.problem)).toEqual(['The float was rounded twice.', '- guard the loop\n- add a test']);
  });

  it('skips merges, reverts, docs-only and dependency bumps even when they say fix', async () => {
    const dir = join(tmp, 'repo');
    await mkdir(dir);
    buildGitRepo(dir, [
      base,
      { message: 'fix: side branch bug', files: { 'src/side.ts': 'x\n' } },
      { message: 'Add feature on main', files: { 'src/main.ts': 'm\n' }, parent: 0 },
      { message: 'Merge branch fix-bug', files: { 'src/a.ts': 'y\n' }, mergeOf: 1 },
      { message: 'Revert "fix: side branch bug"\n\nThis reverts commit abcdef1.', files: { 'src/side.ts': 'z\n' } },
      { message: 'docs: fix a broken link', files: { 'src/links.ts': 'q\n' } },
      { message: 'Fix typo in README', files: { 'README.md': 'r\n' } },
      { message: 'Fix the install instructions', files: { 'docs/install.md': 's\n', 'CHANGELOG.md': 't\n' } },
      { message: 'Bump lodash from 4.17.20 to 4.17.21', files: { 'package.json': '{}', 'package-lock.json': '{}' } },
      { message: 'fix(deps): update dependency zod to v4', files: { 'package.json': '{"a":1}' } },
      { message: 'Fix lockfile drift', files: { 'package-lock.json': '{"b":1}' } },
      { message: 'fix: real bug', files: { 'src/real.ts': 'ok\n' } },
    ]);
    const mined = await mineGitFixes({ dir, repo: 'acme/api' });
    const fixes: Fix[] = [];
    for await (const fix of mined) fixes.push(fix);
    expect(titles(fixes)).toEqual(['fix: side branch bug', 'fix: real bug']);
    expect(mined.count).toBe(2);
    expect(mined.skipped).toMatchObject({ revert: 1, 'docs-only': 2, 'dependency-bump': 3 });
  });
});

describe('mineGitFixes: evidence', () => {
  it('records files, tests, signals, authors, date, a capped diff and a GitHub url', async () => {
    const dir = join(tmp, 'repo');
    await mkdir(dir);
    const big = Array.from({ length: 2000 }, (_, i) => `line ${i} of a very large generated change`).join('\n');
    const shas = buildGitRepo(
      dir,
      [
        base,
        {
          message:
            'Fix null dereference on empty body\n\nCo-authored-by: Grace Hopper <grace@example.com>\nSigned-off-by: Ada',
          author: 'Ada Lovelace',
          time: 1_700_000_000,
          files: { 'src/parse.ts': big, 'test/parse.test.ts': 'it("empty")\n', 'yarn.lock': 'lock\n'.repeat(50) },
        },
        {
          message: 'fix: rust panic on empty path',
          files: { 'src/lib.rs': '#[cfg(test)]\nmod tests {\n#[test]\nfn t() {}\n}\n' },
        },
        { message: 'fix: tweak fixture only', files: { 'test/fixtures/data.json': '{}' } },
      ],
      { origin: 'git@github.com:Acme/API.git' },
    );
    const fixes = await collect({ dir });
    const [parse, rust, fixture] = fixes;
    expect(parse?.repo).toBe('Acme/API');
    expect(parse?.tenant).toBe('acme');
    expect(parse?.url).toBe(`https://github.com/Acme/API/commit/${shas[1]}`);
    expect(parse?.ref).toBe(shas[1]);
    expect(parse?.files).toEqual(['src/parse.ts', 'test/parse.test.ts', 'yarn.lock']);
    expect(parse?.testsChanged).toBe(true);
    expect(parse?.signals).toEqual([{ kind: 'tests-added', name: 'test/parse.test.ts' }]);
    expect(parse?.authors).toEqual(['Ada Lovelace', 'Grace Hopper']);
    expect(parse?.problem).toBe('');
    expect(parse?.date).toBe('2023-11-14T22:13:20+00:00');
    expect(parse?.language).toBe('TypeScript');
    expect(parse?.change.length).toBeLessThanOrEqual(4100);
    expect(parse?.change).toContain('diff src/parse.ts');
    expect(parse?.change).toContain('+line 0 of a very large generated change');
    expect(parse?.change).toContain('[… file cut]');
    expect(parse?.change).toContain('diff test/parse.test.ts');
    expect(parse?.change).not.toContain('lock\n');
    expect(rust?.testsChanged).toBe(true);
    expect(rust?.signals).toEqual([{ kind: 'tests-added' }]);
    expect(fixture?.testsChanged).toBe(false);
    expect(fixture?.signals).toEqual([]);
  });

  it('keeps each diff excerpt within the given caps', async () => {
    const dir = join(tmp, 'repo');
    await mkdir(dir);
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`src/f${i}.ts`] = `${'x'.repeat(5000)}\n`.repeat(20);
    buildGitRepo(dir, [base, { message: 'fix: many files', files }]);
    const [fix] = await collect({ dir, repo: 'acme/api', excerpt: { total: 1000, perFile: 300, line: 80 } });
    expect(fix?.change.length).toBeLessThanOrEqual(1000 + 20);
    expect(fix?.change.split('\n').every((line) => line.length <= 81)).toBe(true);
    expect(fix?.change.endsWith('[… diff cut]')).toBe(true);
  });
});

describe('mineGitFixes: options', () => {
  const history: CommitSpec[] = [
    { ...base, time: Date.UTC(2023, 0, 1) / 1000 },
    { message: 'fix: one', files: { 'a.ts': '1' }, time: Date.UTC(2023, 5, 1) / 1000 },
    { message: 'fix: two', files: { 'a.ts': '2' }, time: Date.UTC(2024, 0, 10) / 1000 },
    { message: 'Add feature', files: { 'b.ts': '3' }, time: Date.UTC(2024, 1, 1) / 1000 },
    { message: 'fix: three', files: { 'a.ts': '4' }, time: Date.UTC(2024, 2, 1) / 1000 },
  ];

  it('--since keeps only later commits; --max keeps the newest N fixes', async () => {
    const dir = join(tmp, 'repo');
    await mkdir(dir);
    buildGitRepo(dir, history);
    expect(titles(await collect({ dir, repo: 'acme/api', since: '2024-01-01' }))).toEqual(['fix: two', 'fix: three']);
    expect(titles(await collect({ dir, repo: 'acme/api', max: 2 }))).toEqual(['fix: two', 'fix: three']);
  });

  it('--commits takes exactly the listed commits, without detection', async () => {
    const dir = join(tmp, 'repo');
    await mkdir(dir);
    const shas = buildGitRepo(dir, history);
    const file = join(tmp, 'commits.txt');
    await writeFile(file, `# chosen by hand\n${shas[3]}\n\n${shas[1]?.slice(0, 10)}\n${shas[3]}\n`);
    const fixes = await collect({ dir, repo: 'acme/api', commitsFile: file });
    expect(titles(fixes)).toEqual(['Add feature', 'fix: one']);
    expect(fixes[1]?.ref).toBe(shas[1]);
  });

  it('--commits with an unknown SHA names it', async () => {
    const dir = join(tmp, 'repo');
    await mkdir(dir);
    const shas = buildGitRepo(dir, history);
    const file = join(tmp, 'commits.txt');
    await writeFile(file, `${shas[1]}\ndeadbeefdeadbeefdeadbeefdeadbeefdeadbeef\n`);
    await expect(mineGitFixes({ dir, repo: 'acme/api', commitsFile: file })).rejects.toThrow(
      /commits\.txt:2: unknown commit deadbeefdeadbeefdeadbeefdeadbeefdeadbeef/,
    );
    await expect(mineGitFixes({ dir, repo: 'acme/api', commitsFile: file, since: '2024-01-01' })).rejects.toThrow(
      /since does not apply with a commits file/,
    );
    await writeFile(file, 'not-a-sha!\n');
    await expect(mineGitFixes({ dir, repo: 'acme/api', commitsFile: file })).rejects.toThrow(/:1: not a commit SHA/);
  });

  it('rejects bad option values with the field named', async () => {
    await expect(mineGitFixes({ dir: tmp, repo: 'no-slash' })).rejects.toThrow(
      /^repo: repo must look like owner\/name/,
    );
    await expect(mineGitFixes({ dir: tmp, since: 'yesterday-ish' })).rejects.toThrow(/^since:/);
    await expect(mineGitFixes({ dir: tmp, max: 0 })).rejects.toThrow(/^max:/);
  });

  it('defaults repo to the folder name under the tenant; without a remote or a tenant, asks for the repo', async () => {
    const dir = join(tmp, 'my-service');
    await mkdir(dir);
    buildGitRepo(dir, history);
    await expect(mineGitFixes({ dir })).rejects.toThrow(
      `${dir}: the repository has no origin remote to take its owner/name from: pass --repo owner/name (e.g. --repo acme/my-service)`,
    );
    const mined = await mineGitFixes({ dir, tenant: 'Acme' });
    expect([mined.repo, mined.tenant]).toEqual(['acme/my-service', 'acme']);
  });
});

describe('mineGitFixes: repositories', () => {
  it('mines a bare repository', async () => {
    const dir = join(tmp, 'api.git');
    await mkdir(dir);
    buildGitRepo(dir, [base, { message: 'fix: bare bug', files: { 'a.ts': '1' } }], { bare: true });
    const mined = await mineGitFixes({ dir, tenant: 'acme' });
    expect(mined.repo).toBe('acme/api');
    const fixes: Fix[] = [];
    for await (const fix of mined) fixes.push(fix);
    expect(titles(fixes)).toEqual(['fix: bare bug']);
    expect(fixes[0]?.change).toContain('diff a.ts');
  });

  it('refuses a folder that is not a git repository', async () => {
    const error = await mineGitFixes({ dir: tmp }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(`${tmp}: not a git repository`);
  });

  it('refuses a missing folder', async () => {
    await expect(mineGitFixes({ dir: join(tmp, 'nope') })).rejects.toThrow(/nope: no such directory/);
  });

  it('refuses an empty repository', async () => {
    const dir = join(tmp, 'empty');
    await mkdir(dir);
    buildGitRepo(dir, []);
    const error = await mineGitFixes({ dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(`${dir}: the repository has no commits`);
  });

  it('yields nothing for a history without fixes', async () => {
    const dir = join(tmp, 'repo');
    await mkdir(dir);
    buildGitRepo(dir, [base]);
    const mined = await mineGitFixes({ dir, repo: 'acme/api' });
    expect(mined.count).toBe(0);
    expect(await collect({ dir, repo: 'acme/api' })).toEqual([]);
  });
});
