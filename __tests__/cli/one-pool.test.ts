// Issue 16, point 1: the CLI's pool is one pool by default, whatever the owners of the repositories learned.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildGitRepo } from '../helpers/git-repo.js';
import type { CommitSpec } from '../helpers/git-repo.js';
import { runCli, type CliRun } from '../helpers/run-cli.js';

let tmp: string;
let db: string;

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'mt-one-pool-'));
  db = join(tmp, 'pool.db');
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const cli = (...args: string[]): Promise<CliRun> => runCli([...args, '--db', db], tmp);

const DATES: CommitSpec[] = [
  { message: 'Initial service', files: { 'src/server.ts': 'export {}\n' } },
  {
    message: 'fix: compare invoice dates in UTC (#41)\n\nCustomers in UTC+13 saw invoices dated the next day.',
    files: { 'src/billing/dates.ts': 'toUTC()\n', 'test/dates.test.ts': 'it("auckland")\n' },
  },
];
const EMPTY_BODY: CommitSpec[] = [
  { message: 'Initial app', files: { 'app/main.py': 'pass\n' } },
  {
    message: 'Fix crash when the request body is empty\n\nAn empty POST body raised instead of a 400.',
    files: { 'app/body.py': 'if not body: abort(400)\n', 'tests/test_body.py': 'def test_empty(): ...\n' },
  },
];

/** a clone of github.com/<repo> with the given history */
async function clone(repo: string, history: CommitSpec[]): Promise<string> {
  const dir = join(tmp, repo.replace('/', '-'));
  await mkdir(dir);
  buildGitRepo(dir, history, { origin: `https://github.com/${repo}.git` });
  return dir;
}

async function learnTwoOwners(...extra: string[]): Promise<void> {
  expect((await cli('learn', '--git', await clone('acme/billing', DATES), ...extra)).code).toBe(0);
  expect((await cli('learn', '--git', await clone('globex/api', EMPTY_BODY), ...extra)).code).toBe(0);
}

/** forgets the default tenant, as in a pool made before defaults existed */
async function forgetDefault(): Promise<void> {
  const { default: sqlite3 } = await import('sqlite3');
  await new Promise<void>((resolve, reject) => {
    const raw = new sqlite3.Database(db);
    raw.run("DELETE FROM state WHERE key = 'pool:default-tenant'", (error) =>
      raw.close(() => (error ? reject(error) : resolve())),
    );
  });
}

describe('one pool by default', () => {
  it('repositories of two owners learn into one pool: recall and stats need no --tenant', async () => {
    const first = await cli('learn', '--git', await clone('acme/billing', DATES), '--json');
    expect(JSON.parse(first.stdout)).toMatchObject({ repo: 'acme/billing', tenant: 'acme' });
    expect(first.stderr).toContain("the pool's default tenant is now acme");
    const second = await cli('learn', '--git', await clone('globex/api', EMPTY_BODY), '--json');
    expect(JSON.parse(second.stdout)).toMatchObject({ repo: 'globex/api', tenant: 'acme' });
    expect(second.stderr).toBe('');

    const dates = await cli('recall', 'invoice dates are off by a day for customers in another time zone');
    expect(dates.code).toBe(0);
    expect(dates.stdout).toContain('from acme/billing');
    // a task in a repository of the other owner sees the whole pool, not one owner's part of it
    const body = JSON.parse(
      (await cli('recall', 'the handler crashes when the request body is empty', '--repo', 'acme/web', '--json'))
        .stdout,
    );
    expect(body.tenant).toBe('acme');
    expect(body.results[0].provenance[0].repo).toBe('globex/api');

    const stats = await cli('stats');
    expect(stats.stdout).toMatch(/^tenant {4}acme \(the default: `memory-transfer tenant NAME` changes it\)$/m);
    expect(stats.stdout).toMatch(/^repos {5}2$/m);
    expect(JSON.parse((await cli('stats', '--json')).stdout)).toMatchObject({
      tenant: 'acme',
      defaultTenant: 'acme',
      otherTenants: [],
      repos: 2,
      fixes: 2,
    });
  });

  it('the default is changeable, and --tenant still reaches any tenant', async () => {
    await learnTwoOwners();
    const changed = await cli('tenant', 'Initech');
    expect(changed.code).toBe(0);
    expect(changed.stderr).toContain("the pool's default tenant is now initech");
    expect(changed.stderr).toContain('initech holds nothing yet; the memories of acme stay where they are');
    expect(JSON.parse((await cli('tenant', '--json')).stdout)).toEqual({
      pool: db,
      default: 'initech',
      tenants: ['acme'],
    });
    const learned = await cli('learn', '--git', await clone('initech/tps', DATES), '--json');
    expect(JSON.parse(learned.stdout)).toMatchObject({ tenant: 'initech' });
    expect(JSON.parse((await cli('stats', '--json')).stdout)).toMatchObject({ tenant: 'initech', repos: 1 });
    expect(JSON.parse((await cli('stats', '--json', '--tenant', 'acme')).stdout)).toMatchObject({
      tenant: 'acme',
      repos: 2,
    });
    expect((await cli('stats')).stdout).toMatch(/^others {4}acme \(--tenant NAME to see one\)$/m);

    const bad = await cli('tenant', 'not a name!');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'memory-transfer: tenant: must be an organization or user name (letters, digits, - _ .), e.g. acme; got "not a name!"\n',
    );
  });

  it('a pool of several tenants and no default still asks for --tenant, naming how to choose one', async () => {
    await learnTwoOwners();
    await cli('learn', '--git', await clone('globex/web', EMPTY_BODY), '--tenant', 'globex');
    await forgetDefault();
    const message =
      'memory-transfer: the pool holds several tenants (acme, globex) and no default one: pass --tenant (e.g. --tenant acme), or make one the default with `memory-transfer tenant acme`\n';
    expect(await cli('list')).toMatchObject({ code: 2, stderr: message });
    expect(await cli('learn', '--git', join(tmp, 'acme-billing'), '--force')).toMatchObject({
      code: 2,
      stderr: message,
    });
    expect((await cli('list', '--tenant', 'globex')).code).toBe(0);
    expect((await cli('tenant', 'globex')).code).toBe(0);
    expect(JSON.parse((await cli('list', '--json')).stdout).tenant).toBe('globex');
  });

  it('a pool of one tenant made before defaults adopts it as its default when it next learns', async () => {
    expect((await cli('learn', '--git', await clone('acme/billing', DATES))).code).toBe(0);
    await forgetDefault();
    expect(JSON.parse((await cli('tenant', '--json')).stdout)).toMatchObject({ default: null, tenants: ['acme'] });
    expect((await cli('stats', '--json')).code).toBe(0);
    const learned = await cli('learn', '--git', await clone('globex/api', EMPTY_BODY), '--json');
    expect(JSON.parse(learned.stdout)).toMatchObject({ tenant: 'acme' });
    expect(JSON.parse((await cli('tenant', '--json')).stdout)).toMatchObject({ default: 'acme', tenants: ['acme'] });
  });

  it('a clone of a local path names no owner: a new pool asks for --repo (its parent folder never becomes the tenant)', async () => {
    const dir = join(tmp, 'work', 'billing');
    await mkdir(dir, { recursive: true });
    buildGitRepo(dir, DATES, { origin: join(tmp, 'work', 'billing-upstream.git') });
    const refused = await cli('learn', '--git', dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `memory-transfer: ${dir}: its origin remote (${join(tmp, 'work', 'billing-upstream.git')}) is not on a host, so it names no owner: pass --repo owner/name (e.g. --repo acme/billing)\n`,
    );
    expect(existsSync(db)).toBe(false);
    const named = await cli('learn', '--git', dir, '--repo', 'acme/billing', '--json');
    expect(JSON.parse(named.stdout)).toMatchObject({ repo: 'acme/billing', tenant: 'acme' });
  });

  it('a bare repository without a remote asks for --repo in a new pool, and is named under the default tenant after', async () => {
    const bare = join(tmp, 'srv', 'billing.git');
    await mkdir(bare, { recursive: true });
    buildGitRepo(bare, DATES, { bare: true });
    const refused = await cli('learn', '--git', bare);
    expect(refused).toMatchObject({
      code: 2,
      stderr: `memory-transfer: ${bare}: the repository has no origin remote to take its owner/name from: pass --repo owner/name (e.g. --repo acme/billing)\n`,
    });
    expect(existsSync(db)).toBe(false);
    expect((await cli('learn', '--git', await clone('globex/api', EMPTY_BODY))).code).toBe(0);
    const learned = await cli('learn', '--git', bare, '--json');
    expect(JSON.parse(learned.stdout)).toMatchObject({ repo: 'globex/billing', tenant: 'globex', fixes: 1 });
  });
});
