/**
 * The secret corpus planted in EVERY field of a fix record (title, problem, change, files, signal
 * names and excerpts, labels, url user-info, authors, ref) and of a git commit (message, diff,
 * path, remote URL, author) appears nowhere it could be read back: every column of every table
 * (SQLite and PostgreSQL), the pool file's bytes, the export, every `recall --json` level, the
 * audit log, the command's own output and logs, the recall API at every level, the App's suggestion
 * comment, and the Action's outputs, summary and injected file in pool-file mode.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import sqlite3 from 'sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createRulesAbstractor } from '../../src/abstraction/rules-abstractor.js';
import { renderSuggestionComment } from '../../src/core/rendering/comment-render.js';
import { escapeMarkdown, markdownLink } from '../../src/security/markdown.js';
import { MEMORY_LEVELS, MEMORY_STATUSES } from '../../src/core/types.js';
import { createRedactor } from '../../src/security/redact.js';
import { learnFix } from '../../src/services/learn.js';
import { silentLogger } from '../../src/ports/index.js';
import { readFixesFile } from '../../src/sources/fixes-file.js';
import { harness } from '../action/harness.js';
import { startApi } from '../app/http/api-harness.js';
import { ACME_WEB, fakeDirectory, makeIssuer } from '../app/http/oidc-helpers.js';
import { SECRET_SAMPLES, allLeaks, allSecretsText } from '../fixtures/secrets/corpus.js';
import { buildGitRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/run-cli.js';
import { leaksIn, tempDir } from './e2e-helpers.js';

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const dir = tempDir('mt-secrets-everywhere-');
const schemas: string[] = [];
afterAll(async () => {
  dir.remove();
  const client = new pg.Client(PG_URL);
  await client.connect();
  for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

const secret = (kind: string) => {
  const sample = SECRET_SAMPLES.find((s) => s.kind === kind);
  if (!sample) throw new Error(`no sample ${kind}`);
  return sample.leaks[0]!;
};
const LEAKS = allLeaks();
const EVERYTHING = allSecretsText();
const REPO = 'acme/web';

/** One fixes-file line with a secret in every field it has. */
function fixRecord(): Record<string, unknown> {
  return {
    title: `Crash when the request body is empty (${secret('mailgun-key')})`,
    problem: EVERYTHING,
    change: `+${EVERYTHING.split('\n').join('\n+')}`.slice(0, 20_000),
    files: ['src/body.ts', 'test/body.test.ts', `config/${secret('github-ghp')}.env`],
    signals: SECRET_SAMPLES.map((sample) => ({
      kind: 'check-red-green',
      check: 'unit',
      name: `unit ${secret('npm-token')}`,
      excerpt: sample.text,
    })).slice(0, 100),
    labels: ['bug', `KEY=${secret('key-hex-assignment')}`],
    repo: REPO,
    ref: `#12-${secret('npm-token')}`,
    url: `https://deploy:${secret('url-credentials-git')}@github.com/${REPO}/pull/12`,
    authors: ['ada', secret('github-gho')],
    visibility: 'public',
    date: '2026-01-02T03:04:05Z',
    language: 'TypeScript',
  };
}

/** every row of every table of a SQLite file, as text (blobs as latin1) */
async function sqliteRows(path: string): Promise<string> {
  const db = new sqlite3.Database(path, sqlite3.OPEN_READONLY);
  const all = (sql: string) =>
    new Promise<Record<string, unknown>[]>((resolve, reject) =>
      db.all(sql, (error, rows: Record<string, unknown>[]) => (error ? reject(error) : resolve(rows))),
    );
  try {
    const tables = await all("SELECT name FROM sqlite_master WHERE type = 'table'");
    const parts: string[] = [];
    for (const { name } of tables) parts.push(rowsText(await all(`SELECT * FROM "${String(name)}"`)));
    expect(tables.length).toBeGreaterThan(8);
    return parts.join('\n');
  } finally {
    await new Promise<void>((resolve) => db.close(() => resolve()));
  }
}

function rowsText(rows: Record<string, unknown>[]): string {
  return rows
    .map((row) =>
      Object.values(row)
        .map((v) => (Buffer.isBuffer(v) ? v.toString('latin1') : String(v)))
        .join('\t'),
    )
    .join('\n');
}

const fileBytes = (path: string) => {
  try {
    return readFileSync(path).toString('latin1');
  } catch {
    return '';
  }
};

/** learn, then every way the pool can be read back through the CLI; returns all that was read */
async function readBackThroughCli(pool: string, env: Record<string, string> = {}): Promise<string> {
  const out: string[] = [];
  const cli = async (...args: string[]) => {
    const run = await runCli(['--db', pool, ...args], dir.path, env);
    expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
    out.push(run.stdout, run.stderr);
    return run.stdout;
  };
  const exported = join(dir.path, `export-${randomBytes(4).toString('hex')}.jsonl`);
  await cli('--tenant', 'acme', 'export', '--out', exported);
  out.push(readFileSync(exported, 'utf8'));
  const listed = (JSON.parse(await cli('--tenant', 'acme', 'list', '--json')) as { memories: { level: string }[] })
    .memories;
  for (const level of MEMORY_LEVELS) {
    for (const where of [[], ['--repo', REPO]]) {
      const json = await cli(
        '--tenant',
        'acme',
        'recall',
        'crash when the request body is empty',
        '--json',
        '--level',
        level,
        ...where,
      );
      // whatever was stored at this level is read back at home
      if (where.length > 0 && listed.some((m) => m.level === level))
        expect(JSON.parse(json).results.length, `recall --level ${level} at home`).toBeGreaterThan(0);
    }
  }
  await cli('--tenant', 'acme', 'audit', '--json');
  return out.join('\n');
}

describe('a secret in any field of a fix is nowhere', () => {
  it('fix record → SQLite: every column of every table, the file bytes, export, recall at every level, audit, output', async () => {
    const fixes = join(dir.path, 'fixes.jsonl');
    writeFileSync(fixes, `${JSON.stringify(fixRecord())}\n`);
    const pool = join(dir.path, 'record.db');
    const learned = await runCli(['--db', pool, 'learn', '--fixes', fixes], dir.path);
    expect(learned.code, learned.stderr).toBe(0);
    const { memories } = JSON.parse(
      (await runCli(['--db', pool, '--tenant', 'acme', 'list', '--json'], dir.path)).stdout,
    );
    const id = (memories as { id: string; level: string }[]).find((m) => m.level === 'insight')!.id;
    // sharing wider writes an audit entry naming the memory
    const audited = await runCli(['--db', pool, '--tenant', 'acme', 'share', id], dir.path);
    expect(audited.code, audited.stderr).toBe(0);
    const read = (await readBackThroughCli(pool)) + learned.stdout + learned.stderr + audited.stdout + audited.stderr;
    expect(leaksIn(read, LEAKS)).toEqual([]);
    expect(leaksIn(await sqliteRows(pool), LEAKS)).toEqual([]);
    expect(leaksIn(fileBytes(pool) + fileBytes(`${pool}-wal`), LEAKS)).toEqual([]);
    // provenance was kept, without its secrets
    expect(read).toContain(`https://github.com/${REPO}/pull/12`);
  }, 60_000);

  it('fix record → PostgreSQL: every column of every table of the schema', async () => {
    const schema = `mt_test_${randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    const fixes = join(dir.path, 'fixes-pg.jsonl');
    writeFileSync(fixes, `${JSON.stringify(fixRecord())}\n`);
    const pool = `${PG_URL}?schema=${schema}`;
    const learned = await runCli(['--db', pool, 'learn', '--fixes', fixes], dir.path);
    expect(learned.code, learned.stderr).toBe(0);
    const read = await readBackThroughCli(pool);
    expect(leaksIn(read + learned.stderr, LEAKS)).toEqual([]);
    const client = new pg.Client(PG_URL);
    await client.connect();
    try {
      const tables = await client.query(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'",
        [schema],
      );
      expect(tables.rows.length).toBeGreaterThan(8);
      const rows: string[] = [];
      for (const { table_name: table } of tables.rows as { table_name: string }[]) {
        rows.push(rowsText((await client.query(`SELECT * FROM "${schema}"."${table}"`)).rows));
      }
      expect(rows.join('\n')).toContain('acme/web');
      expect(leaksIn(rows.join('\n'), LEAKS)).toEqual([]);
    } finally {
      await client.end();
    }
  }, 60_000);

  it('git commit (message, diff, path, remote URL, author) → SQLite: nothing of it in any row or read-back', async () => {
    const repo = join(dir.path, 'repo');
    mkdirSync(repo);
    buildGitRepo(
      repo,
      [
        { message: 'Initial import', files: { 'src/body.ts': 'export const body = 1;\n' } },
        {
          message: `Fix crash when the request body is empty\n\n${EVERYTHING}`,
          author: `Ada ${secret('github-ghs')}`,
          files: {
            'src/body.ts': `${EVERYTHING}\n`,
            'test/body.test.ts': 'it("empty body")\n',
            [`config/${secret('github-ghr')}.env`]: `KEY=${secret('key-hex-assignment')}\n`,
          },
        },
      ],
      { origin: `https://deploy:${secret('url-credentials-git')}@github.com/${REPO}.git` },
    );
    const pool = join(dir.path, 'git.db');
    const learned = await runCli(['--db', pool, 'learn', '--git', repo, '--visibility', 'public'], dir.path);
    expect(learned.code, learned.stderr).toBe(0);
    expect(learned.stdout + learned.stderr).toMatch(/1 fix/);
    const read = await readBackThroughCli(pool);
    expect(leaksIn(read + learned.stdout + learned.stderr, LEAKS)).toEqual([]);
    expect(leaksIn(await sqliteRows(pool), LEAKS)).toEqual([]);
    expect(leaksIn(fileBytes(pool) + fileBytes(`${pool}-wal`), LEAKS)).toEqual([]);
  }, 60_000);

  it('the recall API at every level, and the Action in pool-file mode at every level, serve none of it', async () => {
    const fixes = join(dir.path, 'fixes-api.jsonl');
    writeFileSync(fixes, `${JSON.stringify(fixRecord())}\n`);
    const issuer = await makeIssuer();
    const api = await startApi({ directory: fakeDirectory([ACME_WEB]), jwks: issuer.localJwks });
    try {
      for (const fix of await readFixesFile(fixes, { source: 'fixes.jsonl' })) {
        await learnFix(
          {
            store: api.store,
            abstractor: createRulesAbstractor(),
            redactor: createRedactor(),
            logger: silentLogger,
            clock: { now: () => new Date('2026-02-01T00:00:00Z') },
          },
          fix,
        );
      }
      const answers: string[] = [];
      for (const level of MEMORY_LEVELS) {
        const res = await api.post(
          '/api/v1/recall',
          { task: 'crash when the request body is empty', level },
          { token: await issuer.sign() },
        );
        expect(res.status).toBe(200);
        const stored = await api.store.countMemories('acme', { level: [level] });
        expect(res.json.insights.length > 0, level).toBe(stored > 0);
        answers.push(res.text);
      }
      expect(leaksIn(answers.join('\n'), LEAKS)).toEqual([]);

      // the App's suggestion comment showing every memory of the pool
      const memories = await api.store.listMemories('acme', { status: [...MEMORY_STATUSES] });
      const requester = { tenant: 'acme', repo: 'acme/other', visibility: 'private' as const };
      const comment = renderSuggestionComment(
        memories.map((memory) => ({
          memory,
          score: 1,
          parts: { lexical: 1, vector: 0, routine: 0, prior: 0, fused: 1 },
          transferred: true,
        })),
        {
          escape: escapeMarkdown,
          link: (text: string, url: string) => markdownLink(text, url, 'https://github.com'),
          githubUrl: 'https://github.com',
          requester,
        },
        memories.length,
      );
      expect(comment).toContain('Memory Transfer');
      expect(leaksIn(comment, LEAKS)).toEqual([]);

      // the same pool exported for the Action
      const exported = join(dir.path, 'action-pool.jsonl');
      const run = await runCli(['--db', api.store.path, '--tenant', 'acme', 'export', '--out', exported], dir.path);
      expect(run.code, run.stderr).toBe(0);
      const status = await api.store.countMemories('acme', { status: [...MEMORY_STATUSES] });
      expect(status).toBeGreaterThan(0);
      for (const level of MEMORY_LEVELS) {
        const h = await harness({
          withPool: false,
          inputs: {
            pool: 'pool.jsonl',
            task: 'crash when the request body is empty',
            target: 'agents-md',
            level,
            'min-score': '0',
          },
        });
        writeFileSync(join(h.workspace, 'pool.jsonl'), readFileSync(exported));
        await h.run();
        expect(h.failures).toEqual([]);
        const stored = await api.store.countMemories('acme', { level: [level] });
        expect(Number(h.outputs.count) > 0, level).toBe(stored > 0);
        const everything =
          JSON.stringify(h.outputs) +
          h.summaries.join('') +
          h.warnings.join('') +
          (await h.read('AGENTS.md').catch(() => ''));
        expect(leaksIn(everything, LEAKS)).toEqual([]);
      }
    } finally {
      await api.close();
    }
  }, 60_000);
});
