import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiHandler } from '../../src/app/http/api.js';
import { recordInjectionUsage } from '../../src/services/usage.js';
import { createHarness, loadEvent, type Harness } from './app-harness.js';
import { fakeDirectory, makeIssuer } from './http/oidc-helpers.js';
import { putInsight } from './interaction/helpers.js';

const ORG = 'octo-org';
const REPO = 'octo-org/octo-repo';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => h.cleanup());

let deliveries = 0;
async function receive(name: string, payload: unknown): Promise<void> {
  deliveries += 1;
  await h.probot.receive({ id: `outcome-${deliveries}`, name, payload } as never);
}

/** An active insight of the org, injected into run `runId` (what POST /api/v1/usage records). */
async function injected(id: string, runId: string, pullRequest?: number): Promise<void> {
  const memory = await putInsight(h.store, id, `${ORG}/api`, 'public');
  await h.store.deleteMemory(memory.tenant, id);
  await h.store.putMemory({
    ...memory,
    tenant: ORG,
    provenance: memory.provenance.map((p) => ({ ...p, tenant: ORG })),
  });
  const recorded = await recordInjectionUsage(h.deps, {
    requester: { tenant: ORG, repo: REPO, visibility: 'public' },
    runId,
    ...(pullRequest !== undefined ? { pullRequest } : {}),
    ids: [id],
  });
  expect(recorded).toBe(1);
}

function workflowRun(runId: number, conclusion: string, attempt = 1) {
  const event = loadEvent('workflow_run.completed');
  event.workflow_run.id = runId;
  event.workflow_run.run_attempt = attempt;
  event.workflow_run.conclusion = conclusion;
  return event;
}

/** The recall API over the harness's pool: the Action of octo-org/octo-repo reports run `runId`'s usage. */
async function reportUsageOverHttp(runId: string, ids: string[]): Promise<unknown> {
  const issuer = await makeIssuer();
  const directory = fakeDirectory([
    {
      installationId: 1,
      ownerId: 41548062,
      ownerLogin: ORG,
      repoId: 300029405,
      fullName: REPO,
      visibility: 'public',
    },
  ]);
  const handler = createApiHandler(h.deps, { directory, jwks: issuer.localJwks });
  const server: Server = createServer((req, res) => {
    void handler(req, res).then((handled) => {
      if (!handled) res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const token = await issuer.sign({
      sub: `repo:${REPO}:ref:refs/heads/main`,
      repository: REPO,
      repository_id: '300029405',
      repository_owner: ORG,
      repository_owner_id: '41548062',
      event_name: 'push',
      run_id: runId,
    });
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/usage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ ids, run_id: runId }),
    });
    return await response.json();
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('outcomes of runs and pull requests that used injected insights', () => {
  it('a failed run whose usage the recall API recorded counts one failure, and a redelivery does not count twice', async () => {
    const memory = await putInsight(h.store, 'm0000000o01', `${ORG}/api`, 'public');
    await h.store.deleteMemory(memory.tenant, memory.id);
    await h.store.putMemory({
      ...memory,
      tenant: ORG,
      provenance: memory.provenance.map((p) => ({ ...p, tenant: ORG })),
    });
    expect(await reportUsageOverHttp('5001', ['m0000000o01'])).toEqual({ recorded: 1 });
    await receive('workflow_run', workflowRun(5001, 'failure'));
    await h.worker.drain();
    expect((await h.store.getMemory(ORG, 'm0000000o01'))?.outcomes).toEqual({ success: 0, failure: 1 });

    // the same event again, under a new delivery id
    await receive('workflow_run', workflowRun(5001, 'failure'));
    await h.worker.drain();
    expect((await h.store.getMemory(ORG, 'm0000000o01'))?.outcomes).toEqual({ success: 0, failure: 1 });

    // a re-run (attempt 2) that succeeded is new evidence
    await receive('workflow_run', workflowRun(5001, 'success', 2));
    await h.worker.drain();
    expect((await h.store.getMemory(ORG, 'm0000000o01'))?.outcomes).toEqual({ success: 1, failure: 1 });
  });

  it('a run that injected nothing, or was cancelled, records no job and changes nothing', async () => {
    await injected('m0000000o02', '5002');
    await receive('workflow_run', workflowRun(7777, 'failure'));
    await receive('workflow_run', workflowRun(5002, 'cancelled'));
    expect(await h.store.countJobs('pending')).toBe(0);
    expect((await h.store.getMemory(ORG, 'm0000000o02'))?.outcomes).toEqual({ success: 0, failure: 0 });
  });

  it('three failed runs archive the insight, with an audit entry by the feedback rule', async () => {
    await injected('m0000000o03', '6001');
    for (const run of ['6002', '6003']) {
      await recordInjectionUsage(h.deps, {
        requester: { tenant: ORG, repo: REPO, visibility: 'public' },
        runId: run,
        ids: ['m0000000o03'],
      });
    }
    for (const run of [6001, 6002, 6003]) await receive('workflow_run', workflowRun(run, 'failure'));
    await h.worker.drain();
    const memory = await h.store.getMemory(ORG, 'm0000000o03');
    expect(memory?.outcomes.failure).toBe(3);
    expect(memory?.status).toBe('archived');
    expect((await h.store.listAudit(ORG)).some((a) => a.memoryId === 'm0000000o03' && a.action === 'archive')).toBe(
      true,
    );
  });

  it('a pull request closed without merging counts a failure for the insights its runs used, once', async () => {
    await injected('m0000000o04', '8001', 2);
    const event = loadEvent('pull_request.closed-unmerged');
    event.repository.full_name = REPO;
    event.pull_request.number = 2;
    await receive('pull_request', event);
    await receive('pull_request', event);
    await h.worker.drain();
    expect((await h.store.getMemory(ORG, 'm0000000o04'))?.outcomes).toEqual({ success: 0, failure: 1 });
  });
});
