// Issue 28, point 2: schema 7 keeps an insight's identity in columns of its own. A pool written by
// the version-6 release (__tests__/fixtures/pools/v6-identity.db, written by that release's own code:
// make-v6-identity-pool.ts.txt beside it) held it in tags, content and model only: it must read the
// same identity read-only as it is, migrated in SQLite, and migrated in PostgreSQL.
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import sqlite3 from 'sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createRulesAbstractor } from '../../src/abstraction/rules-abstractor.js';
import { legacyIdentity } from '../../src/core/knowledge/identity.js';
import type { Memory } from '../../src/core/types.js';
import { silentLogger } from '../../src/ports/index.js';
import { createRedactor } from '../../src/security/redact.js';
import { learnFixes } from '../../src/services/learn.js';
import { recall } from '../../src/services/recall.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/migrations.js';
import { openStore } from '../../src/store/open-store.js';
import { PostgresStore } from '../../src/store/postgres-store.js';
import { tagsText } from '../../src/store/rows.js';
import { sampleFix } from '../helpers/sample-fix.js';
import { identityOf } from '../helpers/sample-memory.js';

const V6_POOL = fileURLToPath(new URL('../fixtures/pools/v6-identity.db', import.meta.url));
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const dir = mkdtempSync(join(tmpdir(), 'mt-identity-'));
const schemas: string[] = [];
let n = 0;

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  const client = new pg.Client(PG_URL);
  await client.connect();
  for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

type Row = Record<string, string | number | null>;

/** rows of a SQLite file, read with plain SQL (no store code) */
function query(path: string, sql: string): Promise<Row[]> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(path, sqlite3.OPEN_READONLY);
    db.all(sql, (error, rows: Row[]) => db.close(() => (error ? reject(error) : resolve(rows))));
  });
}

/** The identity a memory row's five columns hold. */
const columnIdentity = (row: Record<string, unknown>) => ({
  lesson: row.lesson,
  routines: JSON.parse(String(row.routines)) as unknown,
  facet: row.facet,
  examples: JSON.parse(String(row.examples)) as unknown,
  writer: row.writer,
});

/** a copy of the version-6 fixture (the fixture itself is never written) */
function v6Copy(): string {
  const path = join(dir, `pool-${++n}.db`);
  copyFileSync(V6_POOL, path);
  return path;
}

const byTitle = (memories: Memory[], title: RegExp, level: Memory['level'] = 'insight') => {
  const found = memories.filter((m) => m.level === level && title.test(m.title));
  expect(found).toHaveLength(1);
  return found[0]!;
};

/**
 * What the version-6 release's fixes taught, written out by hand from its generator (not derived by
 * the code under test): what every read of the pool must give.
 */
function expectFixtureIdentity(memories: Memory[]): void {
  expect(identityOf(byTitle(memories, /^Empty input/))).toEqual({
    lesson: 'empty-input',
    routines: ['edge-input', 'error-handling'],
    facet: 'edge-input/empty',
    examples: [
      'crash when the request body is empty',
      'panic when no arguments are given',
      'empty search query returns every row',
    ],
    writer: 'rules',
  });
  expect(identityOf(byTitle(memories, /serving size/))).toEqual({
    lesson: 'learned-serving-size',
    routines: ['regression-test'],
    facet: null,
    examples: ['shopping list ignores the serving size'],
    writer: 'learned',
  });
  expect(identityOf(byTitle(memories, /time zone|UTC/i))).toMatchObject({
    lesson: 'time-zone-offset',
    facet: 'encoding-locale/time',
    examples: ['invoice dates shift by a day in UTC+13 time zones'],
  });
  // a model's insight: its own text ends without examples, or with a sentence that lists some
  const configInsight = memories.find((m) => m.level === 'insight' && m.lesson === 'environment-variable-states')!;
  expect(identityOf(configInsight)).toEqual({
    lesson: 'environment-variable-states',
    routines: ['config-env'],
    facet: 'config-env/precedence',
    examples: [],
    writer: 'model',
  });
  const modelChecklist = memories.find((m) => m.level === 'insight' && m.model === 'gpt-test' && m.lesson === null)!;
  expect(identityOf(modelChecklist)).toEqual({
    lesson: null,
    routines: ['regression-test'],
    facet: null,
    examples: ['token refresh races'],
    writer: 'model',
  });
  // the concrete levels carry the lesson and routines of their tags, no examples
  const trajectory = memories.find((m) => m.level === 'trajectory')!;
  expect(identityOf(trajectory)).toEqual({
    lesson: 'empty-input',
    routines: ['edge-input', 'error-handling'],
    facet: 'edge-input/empty',
    examples: [],
    writer: 'rules',
  });
  const modelWorkflows = memories.filter((m) => m.level === 'workflow' && m.model === 'gpt-test');
  expect(modelWorkflows.map((m) => m.writer)).toEqual(['model', 'model']);
  expect(memories.filter((m) => m.writer === 'learned').map((m) => m.level)).toEqual(['insight']);
}

describe('schema 7: the identity of a pool written by the version-6 release', () => {
  it('SQLite: reads the same identity read-only (not a byte changes) and migrated (the columns hold it)', async () => {
    const path = v6Copy();
    const before = await query(path, 'SELECT * FROM memories ORDER BY seq');
    expect(before).toHaveLength(21);
    expect(before[0]).not.toHaveProperty('lesson');
    expect((await query(path, 'SELECT MAX(version) AS v FROM schema_version'))[0]!.v).toBe(6);

    const bytes = readFileSync(path);
    const reader = await openStore(path, silentLogger, { readOnly: true });
    const asItIs = await reader.listMemories('acme');
    await reader.close();
    expect(readFileSync(path).equals(bytes)).toBe(true);
    expectFixtureIdentity(asItIs);

    const store = await openStore(path);
    const migrated = await store.listMemories('acme');
    await store.close();
    expect(migrated).toEqual(asItIs);
    expectFixtureIdentity(migrated);

    const after = await query(path, 'SELECT * FROM memories ORDER BY seq');
    expect((await query(path, 'SELECT MAX(version) AS v FROM schema_version'))[0]!.v).toBe(SCHEMA_VERSION);
    for (const [i, row] of after.entries()) {
      const old = before[i]!;
      // what was there stays as it was: tags and content for people, the model
      for (const column of Object.keys(old)) expect(row[column]).toEqual(old[column]);
      const memory = migrated.find((m) => m.id === row.id)!;
      expect(columnIdentity(row)).toEqual(identityOf(memory));
      // and it is what the code before read from them, row by row
      expect(identityOf(memory)).toEqual(
        legacyIdentity({
          level: old.level as Memory['level'],
          tags: JSON.parse(String(old.tags)) as string[],
          content: String(old.content),
          model: String(old.model),
        }),
      );
    }
  });

  it('SQLite: the migrated identity is what learn merges by and recall ranks by', async () => {
    const path = v6Copy();
    const store = await openStore(path);
    try {
      const clock = { now: () => new Date('2025-07-01T00:00:00Z') };
      await learnFixes(
        { store, abstractor: createRulesAbstractor(), redactor: createRedactor(), logger: silentLogger, clock },
        [
          // the learned lesson's phrase, in a third repository: it joins that lesson
          sampleFix({
            repo: 'acme/menu',
            ref: 'u1',
            title: 'Dish editor drops the serving size',
            problem: 'Saving a dish forgets its serving size.',
            files: ['src/dish.ts', 'test/dish.test.ts'],
          }),
          // the catalog lesson of three repositories: a fourth source, the three examples kept
          sampleFix({ repo: 'acme/files', ref: 'u2', title: 'Crash when the uploaded file is empty' }),
        ],
      );
      const insights = await store.listMemories('acme', { level: ['insight'] });
      const learned = byTitle(insights, /serving size/);
      expect(learned.support).toBe(3);
      expect(learned.lesson).toBe('learned-serving-size');
      expect(learned.examples).toEqual([
        'shopping list ignores the serving size',
        'dish editor drops the serving size',
      ]);
      expect(learned.content).toMatch(
        /Seen in: shopping list ignores the serving size; dish editor drops the serving size\.$/,
      );
      const empty = byTitle(insights, /^Empty input/);
      expect(empty.support).toBe(4);
      expect(empty.examples).toHaveLength(3);
      const hits = await recall(
        { store, logger: silentLogger, clock },
        { tenant: 'acme', repo: 'acme/orders', visibility: 'private' },
        'The order page shows the wrong serving size after a refresh',
        { k: 3 },
      );
      // recalled for its lesson's phrase: the share of the routine part a learned lesson's phrase gives
      const hit = hits.find((h) => h.memory.id === learned.id);
      expect(hit?.parts.routine).toBe(0.25);
    } finally {
      await store.close();
    }
  });

  it('PostgreSQL: the same rows in a version-6 schema migrate to the same memories as in SQLite', async () => {
    const path = v6Copy();
    const memories = await query(path, 'SELECT * FROM memories ORDER BY seq');
    const provenance = await query(path, 'SELECT seq, pos, repo, ref, entry FROM memory_provenance ORDER BY seq, pos');
    const sources = await query(path, 'SELECT seq, repo FROM memory_sources ORDER BY seq, repo');
    const schema = `mt_test_${randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    const client = new pg.Client(PG_URL);
    await client.connect();
    try {
      // the schema of migrations 1–6, and the rows as the version-6 release's putMemory wrote them
      await client.query(`CREATE SCHEMA "${schema}"`);
      await client.query(`SET search_path = "${schema}"`);
      await client.query('CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
      for (const migration of MIGRATIONS.filter((m) => m.version <= 6)) {
        await client.query(migration.postgres);
        await client.query('INSERT INTO schema_version (version, applied_at) VALUES ($1, $2)', [
          migration.version,
          '2026-01-01T00:00:00.000Z',
        ]);
      }
      for (const row of memories) {
        const columns = [...Object.keys(row), 'tags_text'];
        const values = [...Object.values(row), tagsText(JSON.parse(String(row.tags)) as string[])];
        await client.query(
          `INSERT INTO memories (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
          values,
        );
      }
      for (const row of provenance)
        await client.query('INSERT INTO memory_provenance (seq, pos, repo, ref, entry) VALUES ($1, $2, $3, $4, $5)', [
          row.seq,
          row.pos,
          row.repo,
          row.ref,
          row.entry,
        ]);
      for (const row of sources)
        await client.query('INSERT INTO memory_sources (seq, repo) VALUES ($1, $2)', [row.seq, row.repo]);
      await client.query("SELECT setval(pg_get_serial_sequence('memories', 'seq'), (SELECT MAX(seq) FROM memories))");
      await client.query('SET search_path = public');

      const pgStore = await PostgresStore.open(PG_URL, { schema, listen: false });
      let fromPostgres: Memory[];
      try {
        await pgStore.migrate();
        fromPostgres = await pgStore.listMemories('acme');
      } finally {
        await pgStore.close();
      }
      const sqlite = await openStore(path);
      const fromSqlite = await sqlite.listMemories('acme');
      await sqlite.close();
      const sorted = (list: Memory[]) => [...list].sort((a, b) => a.id.localeCompare(b.id));
      expect(sorted(fromPostgres)).toEqual(sorted(fromSqlite));
      expectFixtureIdentity(fromPostgres);
      const columns = await client.query(
        `SELECT id, lesson, routines, facet, examples, writer FROM "${schema}".memories WHERE level = 'insight' ORDER BY id`,
      );
      expect(columns.rows).toHaveLength(8);
      for (const row of columns.rows as Row[]) {
        const memory = fromSqlite.find((m) => m.id === row.id)!;
        expect(columnIdentity(row)).toEqual(identityOf(memory));
      }
    } finally {
      await client.end();
    }
  });
});
