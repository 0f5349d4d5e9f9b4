import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/core/errors.js';
import { SCHEMA_VERSION } from '../../src/store/migrations.js';
import { openStore } from '../../src/store/open-store.js';
import { GIN_CLEAN_WRITES, PostgresStore } from '../../src/store/postgres-store.js';
import type { Store } from '../../src/store/store.js';
import { recall } from '../../src/services/recall.js';
import { silentLogger, systemClock } from '../../src/ports/index.js';
import { expectMigratedWithoutLoss, readV3Rows, V3_POOL, writeV3Postgres } from '../helpers/v3-pool.js';
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

describe('PostgreSQL pool opened read-only', () => {
  it('creates no schema, migrates nothing, and refuses a missing or older pool', async () => {
    const schema = `mt_test_${randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    const location = `${URL}?schema=${schema}`;
    const missing = await openStore(location, silentLogger, { listen: false, readOnly: true }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(StoreError);
    expect((missing as StoreError).code).toBe('not-found');
    const client = new pg.Client(URL);
    await client.connect();
    try {
      const exists = async () =>
        (await client.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [schema])).rowCount;
      expect(await exists()).toBe(0);

      await (await openStore(location, silentLogger, { listen: false })).close();
      const reader = await openStore(location, silentLogger, { listen: false, readOnly: true });
      expect(await reader.listTenants()).toEqual([]);
      await reader.close();

      await client.query(`DELETE FROM "${schema}".schema_version WHERE version > 1`);
      const older = await openStore(location, silentLogger, { listen: false, readOnly: true }).catch((e: unknown) => e);
      expect((older as StoreError).code).toBe('older-schema');
      const versions = await client.query(`SELECT MAX(version) AS v FROM "${schema}".schema_version`);
      expect(Number(versions.rows[0].v)).toBe(1);
    } finally {
      await client.end();
    }
  });
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

  it('a new memory skips clearing its provenance; one put again replaces it, within one transaction too', async () => {
    const store = await makeStore();
    try {
      const first = makeMemory();
      const source = first.provenance[0]!;
      const moved = { ...first, provenance: [{ ...source, repo: 'acme/cli', ref: '7' }] };
      await store.transaction(async () => {
        await store.putMemory(first);
        await store.putMemory(moved);
      });
      expect((await store.getMemory('acme', first.id))?.provenance).toEqual(moved.provenance);
      expect((await store.listMemories('acme', { repo: 'acme/api' })).map((m) => m.id)).toEqual([]);
      const back = { ...first, provenance: [source, { ...source, repo: 'acme/web', ref: '8' }] };
      await store.putMemory(back);
      expect((await store.getMemory('acme', first.id))?.provenance).toEqual(back.provenance);
      expect((await store.listMemories('acme', { repo: 'acme/cli' })).map((m) => m.id)).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("refreshes the planner's statistics of memories as the pool grows; searches answer the same", async () => {
    const schema = `mt_test_${randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    const reltuples = async () => {
      const client = new pg.Client(URL);
      await client.connect();
      try {
        const rows = await client.query(`SELECT reltuples::float8 AS n FROM pg_class WHERE oid = $1::regclass`, [
          `"${schema}".memories`,
        ]);
        return Number(rows.rows[0]?.n);
      } finally {
        await client.end();
      }
    };
    const open = async () => {
      const store = await PostgresStore.open(URL, { schema, listen: false });
      await store.migrate();
      return store;
    };
    const query = 'migration zanzibar database';
    const options = { level: ['insight' as const], limit: 5 };
    let store = await open();
    {
      // only the store analyzes here, whatever the server's autovacuum does
      const client = new pg.Client(URL);
      await client.connect();
      await client.query(`ALTER TABLE "${schema}".memories SET (autovacuum_enabled = false)`);
      await client.end();
    }
    let before: Awaited<ReturnType<Store['searchLexical']>>;
    try {
      await store.transaction(async () => {
        for (let i = 0; i < 150; i += 1)
          await store.putMemory(makeMemory(i === 70 ? { title: `Check the zanzibar parser ${i}` } : {}));
      });
      // the first search counts the levels: the table, never analyzed, holds more than 100 rows
      before = await store.searchLexical('acme', query, options);
    } finally {
      await store.close(); // waits for the ANALYZE it started
    }
    expect(await reltuples()).toBe(150);
    store = await open();
    try {
      expect(before.length).toBe(5);
      expect(await store.searchLexical('acme', query, options)).toEqual(before);
      // 1.2 × 150 + 100 = 280: 100 more rows are not enough for another ANALYZE, 200 more are
      for (const [more, expected] of [
        [100, 150],
        [100, 350],
      ] as const) {
        await store.transaction(async () => {
          for (let i = 0; i < more; i += 1) await store.putMemory(makeMemory({ level: 'summary' }));
        });
        await store.close();
        store = await open();
        await store.searchLexical('acme', query, options);
        await store.close();
        expect(await reltuples()).toBe(expected);
        store = await open();
      }
    } finally {
      await store.close();
    }
  });

  it('merges the pending entries of the full-text index every GIN_CLEAN_WRITES memory writes', async () => {
    const schema = `mt_test_${randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    const client = new pg.Client(URL);
    await client.connect();
    // the pages still pending (merging them)
    const pending = async () =>
      Number(
        (await client.query('SELECT gin_clean_pending_list($1::regclass) AS n', [`"${schema}".memories_fts`])).rows[0]
          ?.n,
      );
    try {
      for (const [writes, left] of [
        [GIN_CLEAN_WRITES, 0], // the last write started a merge of all of them
        [GIN_CLEAN_WRITES - 1, 'some'], // one write short: all still pending
      ] as const) {
        const store = await PostgresStore.open(URL, { schema, listen: false });
        await store.migrate();
        for (let i = 0; i < writes; i += 1) await store.putMemory(makeMemory());
        await store.close(); // waits for the merge it started
        if (left === 0) expect(await pending()).toBe(0);
        else expect(await pending()).toBeGreaterThan(0);
      }
    } finally {
      await client.end();
    }
  });

  it('hears other replicas through one more connection, unless told not to (one-shot commands)', async () => {
    const listeners = async (schema: string) => {
      const client = new pg.Client(URL);
      await client.connect();
      const rows = await client.query('SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [
        `memory-transfer-listener:${schema}`,
      ]);
      await client.end();
      return rows.rows[0].n as number;
    };
    for (const listen of [true, false]) {
      const schema = `mt_test_${randomBytes(6).toString('hex')}`;
      schemas.push(schema);
      const store = await openStore(`${URL}?schema=${schema}`, undefined, { listen });
      try {
        expect(await listeners(schema)).toBe(listen ? 1 : 0);
        expect(await store.poolGeneration?.('acme')).toEqual(listen ? expect.any(String) : undefined);
      } finally {
        await store.close();
      }
      expect(await listeners(schema)).toBe(0);
    }
  });

  it('moves the provenance of a schema written by the version-3 release to its own table without loss', async () => {
    const schema = `mt_test_${randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    const before = await readV3Rows(V3_POOL);
    const client = new pg.Client(URL);
    await client.connect();
    try {
      await writeV3Postgres(client, schema, before.memories);
    } finally {
      await client.end();
    }
    const store = await PostgresStore.open(URL, { schema, listen: false });
    try {
      await store.migrate();
      await expectMigratedWithoutLoss(store, before);
    } finally {
      await store.close();
    }
  });

  it("keeps each memory's full-text vector in its row (version 6); a version-5 schema is moved there without loss", async () => {
    const store = (await makeStore()) as PostgresStore;
    const schema = schemas.at(-1)!;
    // a long insight: its vector alone is past the size PostgreSQL would move out of line
    const words = Array.from({ length: 400 }, (_, i) => `token${i.toString(36)}word`).join(' ');
    const memory = makeMemory({ content: `Check the migration against ${words}` });
    await store.putMemory(memory);
    await store.close();
    const client = new pg.Client(URL);
    await client.connect();
    const storage = async () =>
      (
        await client.query(
          `SELECT a.attstorage FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
           JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = $1 AND c.relname = 'memories' AND a.attname = 'fts'`,
          [schema],
        )
      ).rows[0]?.attstorage;
    try {
      expect(await storage()).toBe('m');
      // the schema as the version-5 release wrote it
      await client.query(`ALTER TABLE "${schema}".memories ALTER COLUMN fts SET STORAGE EXTENDED`);
      await client.query(
        `ALTER TABLE "${schema}".memories DROP COLUMN lesson, DROP COLUMN routines, DROP COLUMN facet, DROP COLUMN examples, DROP COLUMN writer`,
      );
      await client.query(`DELETE FROM "${schema}".schema_version WHERE version > 5`);
      expect(await storage()).toBe('x');
      const reader = await openStore(`${URL}?schema=${schema}`, silentLogger, { listen: false, readOnly: true }).catch(
        (e: unknown) => e,
      );
      expect((reader as StoreError).code).toBe('older-schema');
      const again = await PostgresStore.open(URL, { schema, listen: false });
      try {
        await again.migrate();
        expect(await storage()).toBe('m');
        expect(await again.getMemory('acme', memory.id)).toMatchObject({
          content: memory.content,
          title: memory.title,
        });
        expect((await again.searchLexical('acme', 'token1aword', { limit: 5 })).map((h) => h.id)).toEqual([memory.id]);
      } finally {
        await again.close();
      }
      const versions = await client.query(`SELECT MAX(version) AS v FROM "${schema}".schema_version`);
      expect(Number(versions.rows[0].v)).toBe(SCHEMA_VERSION);
    } finally {
      await client.end();
    }
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

describe('PostgreSQL replicas sharing one pool', () => {
  /** two stores on one schema; `listen: false` is also what a store does while its listener is down */
  async function replicas(
    searchTtlMs: number,
    listen = false,
    listenRetryMs = 50,
  ): Promise<[PostgresStore, PostgresStore, string]> {
    const schema = `mt_test_${randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    const a = await PostgresStore.open(URL, { schema, searchTtlMs, listen });
    await a.migrate();
    const b = await PostgresStore.open(URL, { schema, searchTtlMs, listen, listenRetryMs });
    return [a, b, schema];
  }
  /** polls until `check` passes (a notification arrives within milliseconds; 3 s at most) */
  async function eventually(check: () => Promise<void>): Promise<void> {
    const until = Date.now() + 3_000;
    for (;;) {
      try {
        return await check();
      } catch (error) {
        if (Date.now() > until) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }
  const search = { level: ['insight' as const], status: ['active' as const], limit: 10 };
  const TASK = 'the schema migration fails on a fresh database';

  it("sees its own writes in search at once, and another replica's once its cached result expires", async () => {
    const [a, b] = await replicas(300);
    try {
      await b.putMemory(makeMemory({ id: 'm00000000b1' }));
      expect((await b.searchLexical('acme', TASK, search)).map((h) => h.id)).toEqual(['m00000000b1']);
      await a.putMemory(makeMemory({ id: 'm00000000a1' }));
      // b answers from its cached result for a while...
      expect((await b.searchLexical('acme', TASK, search)).map((h) => h.id)).toEqual(['m00000000b1']);
      await new Promise((resolve) => setTimeout(resolve, 350));
      // ...then searches again
      expect((await b.searchLexical('acme', TASK, search)).map((h) => h.id).sort()).toEqual([
        'm00000000a1',
        'm00000000b1',
      ]);
      // its own write drops the cached result at once, inside a transaction too (after the commit)
      await b.transaction(async () => {
        await b.putMemory(makeMemory({ id: 'm00000000b2' }));
      });
      expect((await b.searchLexical('acme', TASK, search)).map((h) => h.id)).toContain('m00000000b2');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('never recalls a memory another replica forgot, even while its cached search still names it', async () => {
    const [a, b] = await replicas(60_000);
    try {
      await a.putMemory(makeMemory({ id: 'm00000000f1' }));
      const deps = { store: b, logger: silentLogger, clock: systemClock };
      const requester = { tenant: 'acme', repo: 'acme/web', visibility: 'private' as const };
      expect((await recall(deps, requester, TASK, { minScore: 0 })).map((h) => h.memory.id)).toEqual(['m00000000f1']);
      expect(await a.deleteMemory('acme', 'm00000000f1')).toBe(true);
      // the search recall ran (60 candidates) is still cached: it names the forgotten memory
      expect((await b.searchLexical('acme', TASK, { ...search, limit: 60 })).map((h) => h.id)).toEqual(['m00000000f1']);
      expect(await recall(deps, requester, TASK, { minScore: 0 })).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("hears another replica's writes: searches, memories and the pool generation follow at once, not after a TTL", async () => {
    const [a, b] = await replicas(600_000, true);
    try {
      await b.putMemory(makeMemory({ id: 'm00000000b1' }));
      expect((await b.searchLexical('acme', TASK, search)).map((h) => h.id)).toEqual(['m00000000b1']);
      const generation = await b.poolGeneration('acme');
      expect(generation).toBeDefined();
      expect(await b.poolGeneration('acme')).toBe(generation);

      await a.putMemory(makeMemory({ id: 'm00000000a1' }));
      await eventually(async () =>
        expect((await b.searchLexical('acme', TASK, search)).map((h) => h.id).sort()).toEqual([
          'm00000000a1',
          'm00000000b1',
        ]),
      );
      expect(await b.poolGeneration('acme')).not.toBe(generation);

      // a cached (frozen, shared) memory follows a status change and a delete made elsewhere
      const [cached] = await b.readMemories('acme', ['m00000000a1']);
      expect(Object.isFrozen(cached)).toBe(true);
      await a.putMemory({ ...(await a.getMemory('acme', 'm00000000a1'))!, status: 'rejected' });
      await eventually(async () => expect((await b.readMemories('acme', ['m00000000a1']))[0]?.status).toBe('rejected'));
      await a.deleteMemory('acme', 'm00000000a1');
      await eventually(async () => expect(await b.readMemories('acme', ['m00000000a1'])).toEqual([]));
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("keeps its vector index in step with another replica's vectors, status changes and deletes", async () => {
    const [a, b] = await replicas(600_000, true);
    const vector = (x: number) => new Float32Array([x, 1 - x, 0.5]);
    const nearest = async () =>
      (await b.searchVector('acme', vector(1), 'e1', { level: ['insight'], status: ['active'], limit: 5 })).map(
        (h) => h.id,
      );
    try {
      await a.putMemory(makeMemory({ id: 'm0000000v01' }));
      await a.putVector('acme', 'm0000000v01', vector(0), 'e1');
      expect(await nearest()).toEqual(['m0000000v01']); // b loads its index

      await a.putMemory(makeMemory({ id: 'm0000000v02' }));
      await a.putVector('acme', 'm0000000v02', vector(1), 'e1');
      await eventually(async () => expect(await nearest()).toEqual(['m0000000v02', 'm0000000v01']));

      await a.putMemory({ ...(await a.getMemory('acme', 'm0000000v02'))!, status: 'rejected' });
      await eventually(async () => expect(await nearest()).toEqual(['m0000000v01']));
      await a.deleteMemory('acme', 'm0000000v01');
      await eventually(async () => expect(await nearest()).toEqual([]));
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('turns its caches off when it stops hearing, answers fresh meanwhile, and turns them on when it hears again', async () => {
    // b stays deaf for a second before it reconnects: long enough for the steps below on a busy
    // machine (with 50 ms, a reconnection could clear b's cache before the deaf-phase checks ran)
    const [a, b, schema] = await replicas(600_000, true, 1_000);
    const admin = new pg.Client(URL);
    await admin.connect();
    try {
      await a.putMemory(makeMemory({ id: 'm00000000c1', title: 'Run the migration tests on a fresh database' }));
      expect((await b.readMemories('acme', ['m00000000c1']))[0]?.status).toBe('active');
      expect(await b.poolGeneration('acme')).toBeDefined();

      const killed = await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
        [`memory-transfer-listener:${schema}`],
      );
      expect(killed.rowCount).toBe(2); // a's listener and b's
      await eventually(async () => expect(await b.poolGeneration('acme')).toBeUndefined());
      // while deaf, b reads memories from the database itself: a's change shows at once
      await a.putMemory({ ...(await a.getMemory('acme', 'm00000000c1'))!, status: 'rejected' });
      expect((await b.readMemories('acme', ['m00000000c1']))[0]?.status).toBe('rejected');
      // and keeps full-text results for searchTtlMs only (here: long), as without listening
      expect((await b.searchLexical('acme', TASK, { ...search, status: ['rejected'] })).map((h) => h.id)).toEqual([
        'm00000000c1',
      ]);
      await a.putMemory(makeMemory({ id: 'm00000000c2', status: 'rejected' }));
      expect((await b.searchLexical('acme', TASK, { ...search, status: ['rejected'] })).map((h) => h.id)).toEqual([
        'm00000000c1',
      ]);

      // the listener reconnects, and what b caches from then on follows a's writes again
      await eventually(async () => expect(await b.poolGeneration('acme')).toBeDefined());
      expect((await b.readMemories('acme', ['m00000000c1']))[0]?.status).toBe('rejected');
      // what it kept while deaf is gone: the write it did not hear shows
      expect(
        (await b.searchLexical('acme', TASK, { ...search, status: ['rejected'] })).map((h) => h.id).sort(),
      ).toEqual(['m00000000c1', 'm00000000c2']);
      await a.putMemory({ ...(await a.getMemory('acme', 'm00000000c1'))!, status: 'active' });
      await eventually(async () => expect((await b.readMemories('acme', ['m00000000c1']))[0]?.status).toBe('active'));
    } finally {
      await admin.end();
      await a.close();
      await b.close();
    }
  });
});

describe('finished jobs at rest', () => {
  it("a done job keeps neither its payload nor its raw body (a delivery's text may hold a secret)", async () => {
    const store = await makeStore();
    try {
      const body = Buffer.from('{"issue":{"body":"npm token in the text"}}');
      await store.enqueueJob({ key: 'delivery-9', kind: 'webhook', payload: { text: 'token in the payload' }, body });
      const job = await store.claimJob(new Date().toISOString(), new Date(Date.now() + 60_000).toISOString());
      expect(job?.body).toEqual(body);
      expect(await store.completeJob(job!.id, job!.attempts)).toBe(true);
      const client = new pg.Client(URL);
      await client.connect();
      const rows = await client.query(`SELECT key, payload, body FROM "${schemaOf.get(store)!}".jobs`);
      await client.end();
      expect(rows.rows).toEqual([{ key: 'delivery-9', payload: 'null', body: null }]);
    } finally {
      await store.close();
    }
  });
});
