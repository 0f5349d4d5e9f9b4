/**
 * Webhook acknowledgement under load: 200 signed `pull_request.closed` deliveries (plus 20
 * redeliveries) in flight at once against the real HTTP server, sent from another thread; the
 * same burst again (new delivery ids, same fixes); then the worker drains the queue (each recorded
 * delivery handed to Probot's handlers, then the learning jobs) with GitHub answered by nock.
 * Reports server-side ack p50/p99 (the thin intake of src/app/intake.ts: signature, group-committed
 * record, answer) and checks that each of the 200 fixes was learned exactly once from 490
 * deliveries. Target: ack p99 ≤ 50 ms. Figures swing widely on a loaded machine: run it alone.
 */
import { createHmac, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import { pino } from 'pino';
import { ProbotOctokit } from 'probot';
import { startServer } from '../../src/app/server.js';
import { readServeConfig } from '../../src/app/settings.js';
import { openStore } from '../../src/store/open-store.js';
import { load, percentile } from './load.js';

const DELIVERIES = 200;
const REDELIVERIES = 20;
const SECRET = 'bench-secret';

function prGraph(number: number) {
  return {
    data: {
      repository: {
        databaseId: 186853002,
        nameWithOwner: 'Codertocat/Hello-World',
        isPrivate: false,
        visibility: 'PUBLIC',
        primaryLanguage: { name: 'TypeScript' },
        pullRequest: {
          number,
          url: `https://github.com/Codertocat/Hello-World/pull/${number}`,
          title: `Fix crash ${number} when the cache file is empty`,
          body: 'The loader crashed on an empty file; it now returns the defaults. Adds a regression test.',
          merged: true,
          mergedAt: '2026-01-10T10:00:00Z',
          changedFiles: 2,
          mergeCommit: { oid: `sha${number}` },
          author: { login: 'Codertocat', __typename: 'User' },
          mergedBy: { login: 'Codertocat', __typename: 'User' },
          labels: { nodes: [{ name: 'bug' }] },
          commits: { nodes: [{ commit: { oid: `c${number}`, message: 'fix: empty cache file', checkSuites: null } }] },
          closingIssuesReferences: { nodes: [] },
        },
      },
    },
  };
}

function mockGitHub(): { learnRequests: () => number } {
  nock.disableNetConnect();
  nock.enableNetConnect(/^(127\.0\.0\.1|localhost)(:\d+)?$/);
  let graphql = 0;
  const api = nock('https://api.github.com').persist();
  api
    .post(/\/app\/installations\/\d+\/access_tokens/)
    .reply(201, { token: 'ghs_bench', expires_at: '2099-01-01T00:00:00Z' });
  api.get(/\/contents\//).reply(404, { message: 'Not Found' });
  api.post('/graphql').reply(200, (_uri, body) => {
    graphql += 1;
    return prGraph((body as { variables: { number: number } }).variables.number);
  });
  api
    .get(/\/repos\/Codertocat\/Hello-World\/pulls\/\d+\/files/)
    .query(true)
    .reply(200, [
      { filename: 'src/cache/load.ts', patch: '@@ -1 +1,2 @@\n+  if (!text.trim()) return defaults;' },
      {
        filename: 'test/cache/load.test.ts',
        patch: "@@ -0,0 +1 @@\n+it('returns defaults for an empty file', () => {});",
      },
    ]);
  api.get(/\/collaborators\/[^/]+\/permission/).reply(200, { permission: 'write' });
  return { learnRequests: () => graphql };
}

export async function run(): Promise<Record<string, string | number>> {
  const dir = mkdtempSync(join(tmpdir(), 'mt-bench-webhooks-'));
  const mocks = mockGitHub();
  const store = await openStore(join(dir, 'pool.db'));
  // what group commit made of the burst: the size of each store write (measurement only)
  let batches: string[] = [];
  const enqueueJobs = store.enqueueJobs.bind(store);
  store.enqueueJobs = async (jobs) => {
    const t0 = performance.now();
    const added = await enqueueJobs(jobs);
    batches.push(`${jobs.length} in ${(performance.now() - t0).toFixed(1)} ms`);
    return added;
  };
  const privateKey = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
  const config = readServeConfig({
    APP_ID: '1',
    PRIVATE_KEY: privateKey,
    WEBHOOK_SECRET: SECRET,
    PORT: '0',
    HOST: '127.0.0.1',
  });
  const server = await startServer({
    config,
    store,
    env: {},
    log: pino({ level: 'silent' }),
    // GitHub is nock here: no pacing (in production Probot's throttling paces GitHub calls)
    Octokit: ProbotOctokit.defaults((options: Record<string, unknown>) => ({
      ...options,
      retry: { enabled: false },
      throttle: { ...(options.throttle as object), enabled: false },
    })),
    worker: false,
  });
  try {
    const template = JSON.parse(
      readFileSync(
        join(import.meta.dirname, '..', '..', '__tests__', 'fixtures', 'events', 'pull_request.closed.json'),
        'utf8',
      ),
    ) as { pull_request: { number: number; merge_commit_sha: string } };
    const makeDeliveries = (prefix: string) =>
      Array.from({ length: DELIVERIES + REDELIVERIES }, (_, i) => {
        const number = (i % DELIVERIES) + 1;
        const payload = {
          ...template,
          pull_request: { ...template.pull_request, number, merge_commit_sha: `sha${number}` },
        };
        const body = JSON.stringify(payload);
        return {
          id: `${prefix}-${number}`,
          body,
          signature: `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
        };
      });
    // server side: from the request's arrival to the end of the response
    let serverMs: number[] = [];
    server.http?.on('request', (_req, res) => {
      const t0 = performance.now();
      res.on('finish', () => serverMs.push(performance.now() - t0));
    });
    // the load comes from another thread, so the client does not share the server's event loop
    const burst = async (path: string, prefix: string) => {
      serverMs = [];
      batches = [];
      const deliveries = makeDeliveries(prefix);
      // the longest stretch the server's event loop could not turn (no answer goes out meanwhile)
      const loop = monitorEventLoopDelay({ resolution: 1 });
      loop.enable();
      const started = performance.now();
      // every delivery on its own connection, all in flight at once (as GitHub's senders would be)
      const results = await load(
        `http://127.0.0.1:${server.port}`,
        deliveries.map((d) => ({
          path,
          headers: {
            'content-type': 'application/json',
            'x-github-event': 'pull_request',
            'x-github-delivery': d.id,
            'x-hub-signature-256': d.signature,
          },
          body: d.body,
        })),
        deliveries.length,
      );
      loop.disable();
      return {
        writes: [...batches],
        longestTurnMs: loop.max / 1e6,
        wallMs: performance.now() - started,
        ack: [...serverMs].sort((a, b) => a - b),
        roundTrip: results.latencies,
        ok: results.statuses[200] ?? 0,
        sent: deliveries.length,
      };
    };
    // one at a time first: the cost of one delivery without queueing behind others
    const single: number[] = [];
    for (const d of makeDeliveries('single').slice(0, 50)) {
      serverMs = [];
      const response = await fetch(`http://127.0.0.1:${server.port}${config.webhookPath}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'pull_request',
          'x-github-delivery': d.id,
          'x-hub-signature-256': d.signature,
        },
        body: d.body,
      });
      await response.text();
      single.push(...serverMs);
    }
    single.sort((a, b) => a - b);
    const intake = await burst(config.webhookPath, 'first');
    const queued = await store.countJobs('pending');
    // the same 200 fixes again with new delivery ids (as a second event for each fix would)
    const again = await burst(config.webhookPath, 'again');
    const ack = intake.ack;
    const roundTrip = intake.roundTrip;
    const ok = intake.ok;
    const burstMs = intake.wallMs;
    const drainStart = performance.now();
    server.worker?.start();
    while ((await store.countJobs('pending')) > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    const drainMs = performance.now() - drainStart;

    const memories = await store.listMemories('codertocat', { limit: 100_000 });
    const learned = new Set<string>();
    for (let n = 1; n <= DELIVERIES; n += 1)
      if (await store.isFixLearned('codertocat', 'Codertocat/Hello-World', String(n))) learned.add(String(n));
    const refsPerMemory = memories.flatMap((m) => m.provenance.map((p) => `${m.id}:${p.ref}`));
    const twice = refsPerMemory.length - new Set(refsPerMemory).size;
    return {
      'one delivery at a time: ack p50 / p99': `${percentile(single, 50).toFixed(1)} / ${percentile(single, 99).toFixed(1)} ms`,
      'deliveries in flight': `${DELIVERIES} + ${REDELIVERIES} redeliveries`,
      'acknowledged 200': `${ok}/${intake.sent}`,
      'ack p50 (server)': `${percentile(ack, 50).toFixed(1)} ms`,
      'ack p99 (server)': `${percentile(ack, 99).toFixed(1)} ms`,
      'ack max (server)': `${(ack[ack.length - 1] ?? 0).toFixed(1)} ms`,
      'round trip p50 / p99 (client thread)': `${percentile(roundTrip, 50).toFixed(1)} / ${percentile(roundTrip, 99).toFixed(1)} ms`,
      'burst wall time': `${burstMs.toFixed(0)} ms`,
      'store writes in the burst (jobs each, time)': `${intake.writes.length} (${intake.writes.join(', ')})`,
      'longest event-loop turn in the burst': `${intake.longestTurnMs.toFixed(1)} ms`,
      'jobs recorded (50 single + 200 burst)': queued,
      'second burst (new ids, same fixes): ack p50 / p99': `${percentile(again.ack, 50).toFixed(1)} / ${percentile(again.ack, 99).toFixed(1)} ms (${again.ok}/${again.sent} ok)`,
      'drain time (worker, 4 at a time)': `${(drainMs / 1000).toFixed(1)} s`,
      'fixes learned (from 490 deliveries of 200 fixes)': `${learned.size}/${DELIVERIES}`,
      'PR gathers (GraphQL)': mocks.learnRequests(),
      'processed twice': twice,
      'dead jobs': await store.countJobs('dead'),
    };
  } finally {
    await server.stop();
    await store.close();
    nock.cleanAll();
    nock.restore();
    rmSync(dir, { recursive: true, force: true });
  }
}
