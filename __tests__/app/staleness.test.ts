import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueueStalenessSweeps, STALENESS_JOB, stalenessKey } from '../../src/app/handlers/staleness.js';
import { STALENESS_ACTOR } from '../../src/services/governance.js';
import { createHarness, github, type Harness } from './app-harness.js';
import { CONFIG, putInsight, TENANT } from './interaction/helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const OLD = '2026-01-01T00:00:00Z';
const RECENT = '2026-05-20T00:00:00Z';

let h: Harness;
beforeEach(async () => {
  h = await createHarness({ clock: { now: () => NOW } });
  await putInsight(h.store, 'm0000000s01', 'Codertocat/api', 'public', { createdAt: OLD, updatedAt: OLD });
  await putInsight(h.store, 'm0000000s02', 'Codertocat/api', 'public', {
    createdAt: OLD,
    updatedAt: OLD,
    lastUsedAt: RECENT,
  });
  await putInsight(h.store, 'm0000000s03', 'Codertocat/web', 'public', {
    createdAt: OLD,
    updatedAt: OLD,
    votes: { up: 1, down: 0 },
  });
});
afterEach(async () => h.cleanup());

/** The App finds the org's installation, then reads the org's `.github` config. */
function orgConfig(yaml: string | undefined, token = true): nock.Scope {
  const scope = nock('https://api.github.com').get(`/users/${TENANT}/installation`).reply(200, { id: 1 });
  // Probot caches the installation token after the first call
  const withToken = token ? github() : nock('https://api.github.com');
  const path = `/repos/${TENANT}/.github/contents/${CONFIG}`;
  if (yaml === undefined) withToken.get(path).reply(404, { message: 'Not Found' });
  else withToken.get(path).reply(200, yaml, { 'content-type': 'text/plain; charset=utf-8' });
  return scope;
}

async function status(id: string) {
  return (await h.store.getMemory(TENANT, id))?.status;
}

describe('the staleness sweep', () => {
  it('archives (not deletes) insights unused for 90 days and never up-voted, with an audit entry', async () => {
    orgConfig(undefined);
    expect(await enqueueStalenessSweeps(h.deps)).toBe(1);
    // asked again in the same slot: still one sweep per tenant
    expect(await enqueueStalenessSweeps(h.deps)).toBe(0);
    await h.worker.drain();
    expect(await status('m0000000s01')).toBe('archived');
    expect(await status('m0000000s02')).toBe('active');
    expect(await status('m0000000s03')).toBe('active');
    const audit = await h.store.listAudit(TENANT);
    expect(audit.filter((a) => a.action === 'archive').map((a) => [a.memoryId, a.actor])).toEqual([
      ['m0000000s01', STALENESS_ACTOR],
    ]);
  });

  it("follows the org's staleness_days", async () => {
    orgConfig('staleness_days: 365\n');
    await h.deps.queue.enqueue(stalenessKey(TENANT, NOW, 1000), STALENESS_JOB, { tenant: TENANT });
    await h.worker.drain();
    expect(await status('m0000000s01')).toBe('active');

    orgConfig('staleness_days: 5\n', false);
    await h.deps.queue.enqueue(stalenessKey(TENANT, new Date(NOW.getTime() + 1000), 1000), STALENESS_JOB, {
      tenant: TENANT,
    });
    await h.worker.drain();
    expect(await status('m0000000s01')).toBe('archived');
    // used 12 days ago: stale after 5 days
    expect(await status('m0000000s02')).toBe('archived');
    expect(await status('m0000000s03')).toBe('active');
  });

  it('uses the default 90 days when the App is not installed for the org', async () => {
    nock('https://api.github.com').get(`/users/${TENANT}/installation`).reply(404, { message: 'Not Found' });
    await enqueueStalenessSweeps(h.deps);
    await h.worker.drain();
    expect(await status('m0000000s01')).toBe('archived');
    expect(await h.store.countJobs('dead')).toBe(0);
  });
});
