import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REVIEW_SYNC_JOB } from '../../../src/app/interaction/review-sync.js';
import { keys } from '../../../src/app/interaction/state.js';
import { approve } from '../../../src/services/governance.js';
import { createHarness, github, type Harness } from '../app-harness.js';
import { FULL, OWNER, putInsight, REPO, TENANT } from './helpers.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.cleanup();
});

async function dashboard(items: string[], closedByPerson = false): Promise<void> {
  await h.store.setState(
    keys.dashboard(FULL),
    JSON.stringify({ number: 42, installationId: 1, items, closedByPerson, configProblems: {}, lastBodyHash: 'old' }),
  );
}

async function sync(memoryId: string): Promise<void> {
  await h.deps.queue.enqueue(`review-sync:test:${memoryId}`, REVIEW_SYNC_JOB, { tenant: TENANT, memoryId });
  await h.worker.drain();
}

describe('the review issue follows changes made on the web dashboard', () => {
  it('re-renders the issue listing an insight approved elsewhere: it leaves the checklist', async () => {
    await putInsight(h.store, 'm00000000a1', FULL, 'public', { status: 'proposed', title: 'Approved on the page' });
    await putInsight(h.store, 'm00000000a2', FULL, 'public', { status: 'proposed', title: 'Still proposed' });
    await dashboard(['m00000000a1', 'm00000000a2']);
    await approve(h.store, TENANT, 'm00000000a1', { actor: 'mel', detail: 'dashboard' });
    const bodies: string[] = [];
    // the state key keeps the name in lower case; GitHub's API takes names in any case
    const path = `/repos/${OWNER}/${REPO}`.toLowerCase();
    github()
      .get(path)
      .reply(200, { full_name: FULL, private: false, visibility: 'public' })
      .patch(`${path}/issues/42`)
      .reply(200, (_uri, body: any) => {
        bodies.push(body.body);
        return { number: 42 };
      });
    await sync('m00000000a1');
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).not.toContain('m00000000a1');
    expect(bodies[0]).toContain('Still proposed');
    expect(JSON.parse((await h.store.getState(keys.dashboard(FULL))) ?? '{}').items).toEqual(['m00000000a2']);
  });

  it('leaves alone an issue closed by a person, and issues that do not list the insight', async () => {
    await putInsight(h.store, 'm00000000a1', FULL, 'public', { status: 'active' });
    await dashboard(['m00000000a1'], true);
    await sync('m00000000a1');
    await dashboard(['m00000000b9']);
    await sync('m00000000a1');
    // no GitHub call was mocked: any call would fail the job and leave it pending
    expect(await h.store.countJobs('pending')).toBe(0);
  });
});
