// An agent's report (MCP report_outcome) on the real SQLite file store and the real PostgreSQL
// server: the insight's outcomes move once per run per insight, through governance's rule.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { agentReportKey, recordAgentReport } from '../../src/services/agent-report.js';
import { silentLogger, systemClock } from '../../src/ports/index.js';
import { PostgresStore } from '../../src/store/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { SECRET_SAMPLES } from '../fixtures/secrets/corpus.js';
import { CANARY, PRIVATE_ID, PUBLIC_ID, poolInsights } from '../mcp/mcp-harness.js';

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function sqlite(): Promise<Store> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mt-report-'));
  const store = await SqliteStore.open(path.join(dir, 'pool.db'));
  await store.migrate();
  cleanups.push(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });
  return store;
}

async function postgres(): Promise<Store> {
  const schema = `mt_test_${randomBytes(6).toString('hex')}`;
  const store = await PostgresStore.open(PG_URL, { schema });
  await store.migrate();
  cleanups.push(async () => {
    await store.close();
    const client = new pg.Client(PG_URL);
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });
  return store;
}

const web = { tenant: 'acme', repo: 'acme/web', visibility: 'public' as const };

describe.each([
  ['SQLite', sqlite],
  ['PostgreSQL', postgres],
])('recordAgentReport on %s', (_name, open) => {
  it('helped → success, wrong → failure, once per run and insight; another run counts again', async () => {
    const store = await open();
    for (const memory of poolInsights()) await store.putMemory(memory);
    const deps = { store, clock: systemClock, logger: silentLogger };
    const first = await recordAgentReport(deps, { requester: web, runId: '1', ids: [PUBLIC_ID], outcome: 'helped' });
    expect(first).toEqual({ recorded: [PUBLIC_ID], already: [], unknown: [] });
    const again = await recordAgentReport(deps, { requester: web, runId: '1', ids: [PUBLIC_ID], outcome: 'wrong' });
    expect(again).toEqual({ recorded: [], already: [PUBLIC_ID], unknown: [] });
    expect((await store.getMemory('acme', PUBLIC_ID))?.outcomes).toEqual({ success: 1, failure: 0 });
    await recordAgentReport(deps, { requester: web, runId: '2', ids: [PUBLIC_ID], outcome: 'wrong' });
    expect((await store.getMemory('acme', PUBLIC_ID))?.outcomes).toEqual({ success: 1, failure: 1 });
  });

  it('not_relevant moves no outcome but uses up the run’s report; unseen ids change nothing; the note is kept without secrets', async () => {
    const store = await open();
    for (const memory of poolInsights()) await store.putMemory(memory);
    const deps = { store, clock: systemClock, logger: silentLogger };
    const secret = SECRET_SAMPLES[0]!;
    const result = await recordAgentReport(deps, {
      requester: web,
      runId: '3',
      ids: [PUBLIC_ID, PRIVATE_ID, 'm9999999999'],
      outcome: 'not_relevant',
      note: `did not apply; ${secret.text}`,
    });
    // the private insight is invisible to a public repository: reported as unknown, untouched
    expect(result).toEqual({ recorded: [PUBLIC_ID], unknown: [PRIVATE_ID, 'm9999999999'], already: [] });
    expect((await store.getMemory('acme', PUBLIC_ID))?.outcomes).toEqual({ success: 0, failure: 0 });
    expect((await store.getMemory('acme', PRIVATE_ID))?.outcomes).toEqual({ success: 0, failure: 0 });
    const kept = (await store.getState(agentReportKey('acme', 'acme/web', '3', PUBLIC_ID))) ?? '';
    expect(JSON.parse(kept)).toMatchObject({ outcome: 'not_relevant' });
    for (const leak of secret.leaks) expect(kept).not.toContain(leak);
    expect(await store.getState(agentReportKey('acme', 'acme/web', '3', PRIVATE_ID))).toBeUndefined();
    const later = await recordAgentReport(deps, { requester: web, runId: '3', ids: [PUBLIC_ID], outcome: 'helped' });
    expect(later.already).toEqual([PUBLIC_ID]);
    expect(JSON.stringify(result)).not.toContain(CANARY);
  });
});
