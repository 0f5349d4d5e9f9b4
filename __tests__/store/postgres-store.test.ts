import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/core/errors.js';
import { openStore } from '../../src/store/open-store.js';
import { PostgresStore } from '../../src/store/postgres-store.js';
import type { Store } from '../../src/store/store.js';
import { makeMemory, runStoreContract } from './contract.js';

const URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const schemas: string[] = [];
const schemaOf = new WeakMap<Store, string>();

async function makeStore(): Promise<Store> {
  const schema = `mt_test_${randomBytes(6).toString('hex')}`;
  schemas.push(schema);
  const store = await PostgresStore.open(URL, { schema });
  await store.migrate();
  schemaOf.set(store, schema);
  return store;
}

afterAll(async () => {
  const client = new pg.Client(URL);
  await client.connect();
  for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

runStoreContract('postgres', makeStore, async (store) => {
  const schema = schemaOf.get(store)!;
  await store.close();
  const again = await PostgresStore.open(URL, { schema });
  await again.migrate();
  return again;
});

describe('PostgreSQL pool', () => {
  it('opens postgres:// locations through openStore, in the schema named by ?schema=', async () => {
    const schema = `mt_test_${randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    const store = await openStore(`${URL}?schema=${schema}`);
    try {
      await store.putMemory(makeMemory());
      expect(await store.countMemories('acme')).toBe(1);
    } finally {
      await store.close();
    }
    const client = new pg.Client(URL);
    await client.connect();
    const rows = await client.query(`SELECT COUNT(*)::int AS n FROM "${schema}".memories`);
    await client.end();
    expect(rows.rows[0]).toEqual({ n: 1 });
  });

  it('refuses a newer schema version', async () => {
    const store = (await makeStore()) as PostgresStore;
    await store.putMemory(makeMemory());
    await store.close();
    const client = new pg.Client(URL);
    await client.connect();
    await client.query(`INSERT INTO "${schemas.at(-1)}".schema_version (version, applied_at) VALUES (99, 'x')`);
    await client.end();
    const again = await PostgresStore.open(URL, { schema: schemas.at(-1) });
    const error = await again.migrate().catch((e: unknown) => e);
    await again.close();
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('newer-schema');
  });

  it('reports an unreachable server as a StoreError without the password', async () => {
    const error = await openStore('postgresql://user:hunter2@127.0.0.1:1/none').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).message).not.toContain('hunter2');
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    await expect(PostgresStore.open(URL, { schema: 'x"; DROP SCHEMA public; --' })).rejects.toThrow(/schema name/);
  });
});
