// Issue 16, point 2: the Action's pool file holds what the Action reads, not the whole pool.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACTION_SOURCES, decodePoolBytes, parsePool, serializePool } from '../../../src/core/retrieval/pool-file.js';
import type { Provenance } from '../../../src/core/types.js';
import { maySee } from '../../../src/core/visibility.js';
import { sampleMemory } from '../../helpers/sample-memory.js';
import { buildGitRepo } from '../../helpers/git-repo.js';
import { runCli, type CliRun } from '../../helpers/run-cli.js';
import { harness } from '../../action/harness.js';

let tmp: string;
let db: string;

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'mt-export-'));
  db = join(tmp, 'pool.db');
  const dir = join(tmp, 'api');
  await mkdir(dir);
  buildGitRepo(dir, [
    { message: 'Initial service', files: { 'src/server.ts': 'export {}\n' } },
    {
      message: 'Fix crash when the request body is empty\n\nAn empty POST body threw a TypeError instead of a 400.',
      files: {
        'src/parse-body.ts': 'if (!body) throw new BadRequest();\n',
        'test/parse-body.test.ts': 'it("empty")\n',
      },
    },
    {
      message: 'fix: compare invoice dates in UTC (#41)\n\nCustomers in UTC+13 saw invoices dated the next day.',
      files: { 'src/billing/dates.ts': 'toUTC()\n', 'test/dates.test.ts': 'it("auckland")\n' },
    },
  ]);
  expect((await cli('learn', '--git', dir, '--repo', 'acme/api')).code).toBe(0);
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const cli = (...args: string[]): Promise<CliRun> => runCli([...args, '--db', db], tmp);

async function exported(...args: string[]): Promise<{ run: CliRun; text: string }> {
  const file = join(tmp, 'out.jsonl');
  const run = await cli('export', '--out', file, ...args);
  return { run, text: run.code === 0 ? await readFile(file, 'utf8') : '' };
}

describe('export filters', () => {
  it('--for-action writes only active insights: no trajectories, no diffs, a fraction of the size', async () => {
    const insightIds = JSON.parse((await cli('list', '--level', 'insight', '--status', 'active', '--json')).stdout)
      .memories.map((m: { id: string }) => m.id)
      .sort();
    expect(insightIds.length).toBeGreaterThan(0);
    const rejected = insightIds[0];
    expect((await cli('reject', rejected)).code).toBe(0);

    const whole = await exported();
    const forAction = await exported('--for-action');
    expect(forAction.run.stderr).toBe(
      `exported ${insightIds.length - 1} active insight${insightIds.length === 2 ? '' : 's'} of acme to ${join(tmp, 'out.jsonl')} (the Action injects it in repositories of acme only; --for-org OWNER labels it for another owner's)\n`,
    );
    const { header, memories } = parsePool(forAction.text);
    expect(header.tenant).toBe('acme');
    expect(memories.map((m) => m.id).sort()).toEqual(insightIds.filter((id: string) => id !== rejected));
    expect(new Set(memories.map((m) => `${m.level}/${m.status}`))).toEqual(new Set(['insight/active']));
    expect(forAction.text).not.toContain('toUTC()');
    expect(whole.text).toContain('toUTC()');
    expect(forAction.text.length * 2).toBeLessThan(whole.text.length);
  });

  it('a path ending in .gz writes the export gzip-compressed; import and parsing read it back', async () => {
    const plain = await exported('--for-action');
    const file = join(tmp, 'pool.jsonl.gz');
    expect((await cli('export', '--for-action', '--out', file)).code).toBe(0);
    const bytes = await readFile(file);
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
    expect(bytes.length).toBeLessThan(plain.text.length);
    expect(parsePool(decodePoolBytes(bytes)).memories).toEqual(parsePool(plain.text).memories);
    const imported = await runCli(['import', file, '--db', join(tmp, 'other.db'), '--tenant', 'acme'], tmp);
    expect(imported.code).toBe(0);
    expect(imported.stderr + imported.stdout).toMatch(/imported \d+/);
  });

  it('a file that starts like gzip but does not decompress is refused with one line', async () => {
    const file = join(tmp, 'broken.jsonl.gz');
    await writeFile(file, Buffer.from([0x1f, 0x8b, 1, 2, 3]));
    const run = await runCli(['import', file, '--db', join(tmp, 'other.db'), '--tenant', 'acme'], tmp);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/starts like gzip but does not decompress/);
  });

  it('--level and --status select what is exported', async () => {
    const { text } = await exported('--level', 'trajectory');
    const levels = new Set(parsePool(text).memories.map((m) => m.level));
    expect(levels).toEqual(new Set(['trajectory']));
    const id = JSON.parse((await cli('list', '--level', 'summary', '--json')).stdout).memories[0].id;
    await cli('reject', id);
    const rejected = parsePool((await exported('--status', 'rejected')).text).memories;
    expect(rejected.map((m) => m.id)).toEqual([id]);

    const bad = await exported('--for-action', '--status', 'archived');
    expect(bad.run.code).toBe(2);
    expect(bad.run.stderr).toMatch(/^memory-transfer: --status: the Action injects active memories only/);
  });

  it("the README's export command makes a file the Action injects from in the repository that commits it", async () => {
    const readme = await readFile(join(process.cwd(), 'README.md'), 'utf8');
    const command = /^npx memory-transfer (export --for-action[^\n#]*?)\s*(?:#.*)?$/m.exec(readme)?.[1];
    expect(command).toBeDefined();
    // the pool's tenant is acme (its first repository); the file is for a repository of globex
    const args = (command ?? '').replace('OWNER', 'globex').split(/\s+/);
    const out = args[args.indexOf('--out') + 1] ?? '';
    expect((await runCli([...args, '--db', db], tmp)).code).toBe(0);
    const h = await harness({
      inputs: { pool: out, task: 'the request handler crashes when the POST body is empty', target: 'none' },
      repository: 'globex/site',
      payload: { repository: { full_name: 'globex/site', private: true, visibility: 'private' } },
      withPool: false,
    });
    await mkdir(join(h.workspace, '.github'), { recursive: true });
    await writeFile(join(h.workspace, out), await readFile(join(tmp, out)));
    await h.run();
    expect(h.failures).toEqual([]);
    expect(h.warnings).toEqual([]);
    expect(Number(h.outputs.count)).toBeGreaterThan(0);
  });

  it("--for-org labels the file for another organization's repositories", async () => {
    const { text } = await exported('--for-action', '--for-org', 'Globex');
    const { header, memories } = parsePool(text);
    expect(header.tenant).toBe('globex');
    expect(memories.length).toBeGreaterThan(0);
    for (const memory of memories) {
      expect(memory.tenant).toBe('globex');
      expect(memory.provenance.every((p) => p.tenant === 'globex' && p.repo === 'acme/api')).toBe(true);
    }
  });

  it('--for-action cuts an insight taught by 1,500 fixes to a bounded list of sources, keeping what decides who sees it', async () => {
    const source = (i: number, repo: string, visibility: Provenance['visibility']): Provenance => ({
      tenant: 'acme',
      repo,
      visibility,
      sourceKind: 'pull_request',
      ref: String(i),
      url: `https://github.com/${repo}/pull/${i}`,
      authors: ['Ada', 'Grace'],
      date: new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString(),
    });
    const provenance = Array.from({ length: 1_500 }, (_, i) => source(i, `acme/repo-${i % 30}`, 'public'));
    // one of them is a private repository's fix: the insight may not reach a public repository
    provenance[700] = source(700, 'acme/secret', 'private');
    const big = sampleMemory({ id: 'mbig0000001', provenance, visibility: 'public', support: 1_500 });
    const poolFile = join(tmp, 'big.jsonl');
    await writeFile(poolFile, serializePool({ tenant: 'acme', exportedAt: '2025-01-01T00:00:00.000Z' }, [big]));
    expect((await cli('import', poolFile)).code).toBe(0);

    const whole = parsePool((await exported()).text).memories.find((m) => m.id === big.id)!;
    expect(whole.provenance).toHaveLength(1_500);
    const { text } = await exported('--for-action');
    const line = text.split('\n').find((l) => l.includes(big.id))!;
    expect(line.length).toBeLessThan(6_000);
    const cut = parsePool(text).memories.find((m) => m.id === big.id)!;
    expect(cut.provenance.length).toBeLessThanOrEqual(ACTION_SOURCES);
    expect(cut.provenance[0]).toEqual(provenance[0]);
    expect(cut.support).toBe(1_500);
    expect(cut.visibility).toBe('private');
    expect(maySee(cut, { tenant: 'acme', repo: 'acme/site', visibility: 'public' })).toBe(false);
    expect(maySee(cut, { tenant: 'acme', repo: 'acme/secret', visibility: 'private' })).toBe(true);
    // one source per repository, the newest of each
    const repos = cut.provenance.map((p) => p.repo);
    expect(new Set(repos).size).toBe(repos.length);
    expect(cut.provenance[1]).toEqual(provenance[1_499]);
  });
});
