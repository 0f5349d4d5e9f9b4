/**
 * One ranking, whichever store: the same real fixes learned through the ordinary learn path (rules
 * abstractor) into SQLite on a file and into PostgreSQL give recall the same top 3 for the same
 * tasks, so moving an organization to PostgreSQL does not change what its agents are told.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRulesAbstractor } from '../../src/abstraction/rules-abstractor.js';
import { silentLogger, systemClock } from '../../src/ports/index.js';
import { createRedactor } from '../../src/security/redact.js';
import { learnFixes } from '../../src/services/learn.js';
import { recall } from '../../src/services/recall.js';
import { readFixesFile } from '../../src/sources/fixes-file.js';
import { PostgresStore } from '../../src/store/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/store.js';

const URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const schema = `mt_test_${randomBytes(6).toString('hex')}`;
const dir = mkdtempSync(join(tmpdir(), 'mt-ranking-parity-'));
const sets = join(import.meta.dirname, '..', '..', 'eval', 'sets');
const TENANT = 'acme';
const TASKS = 30;

let sqlite: Store;
let postgres: Store;

async function learnInto(store: Store): Promise<void> {
  const fixes = await readFixesFile(join(sets, 'e', 'fixes.jsonl'), { tenant: TENANT, visibility: 'public' });
  const redactor = createRedactor();
  await learnFixes(
    { store, abstractor: createRulesAbstractor(), redactor, logger: silentLogger, clock: systemClock },
    fixes,
  );
}

beforeAll(async () => {
  sqlite = await SqliteStore.open(join(dir, 'pool.db'));
  await sqlite.migrate();
  postgres = await PostgresStore.open(URL, { schema });
  await postgres.migrate();
  await learnInto(sqlite);
  await learnInto(postgres);
}, 120_000);

afterAll(async () => {
  await sqlite?.close();
  await postgres?.close();
  rmSync(dir, { recursive: true, force: true });
  const client = new pg.Client(URL);
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

describe('recall ranks the same pool the same way in SQLite and PostgreSQL', () => {
  it('learns the same insights into both', async () => {
    const insights = async (store: Store) =>
      (await store.listMemories(TENANT, { level: ['insight'] })).map((m) => `${m.id} ${m.support}`).sort();
    const fromSqlite = await insights(sqlite);
    expect(fromSqlite.length).toBeGreaterThan(30);
    expect(await insights(postgres)).toEqual(fromSqlite);
  });

  it('gives the same top 3 for 30 real tasks of other repositories', async () => {
    // the tasks: fixes of another set (other repositories), as their titles state them
    const tasks = (await readFixesFile(join(sets, 'f', 'fixes.jsonl'), { tenant: TENANT })).map((f) => f.title);
    const top3 = async (store: Store, task: string) =>
      (await recall({ store, logger: silentLogger, clock: systemClock }, { tenant: TENANT }, task, { k: 3 })).map(
        (hit) => hit.memory.id,
      );
    const compared: { task: string; sqlite: string[]; postgres: string[] }[] = [];
    for (const task of tasks) {
      const fromSqlite = await top3(sqlite, task);
      if (fromSqlite.length < 3) continue;
      compared.push({ task, sqlite: fromSqlite, postgres: await top3(postgres, task) });
      if (compared.length === TASKS) break;
    }
    expect(compared).toHaveLength(TASKS);
    const differing = compared.filter((c) => c.sqlite.join() !== c.postgres.join());
    expect(differing).toEqual([]);
  });
});
