/**
 * Webhook acknowledgement under load: 200 signed `pull_request.closed` deliveries (plus 20
 * redeliveries) in flight at once against the real HTTP server, sent from another thread; the
 * same burst again (new delivery ids, same fixes); then the worker drains the queue (each recorded
 * delivery handed to Probot's handlers, then the learning jobs) with GitHub answered by nock, and
 * a third burst arrives while it learns (the steady state of a busy App).
 * Reports server-side ack p50/p99, from the moment the sender wrote each delivery to the end of its
 * answer (server-times.ts; the thin intake of src/app/intake.ts: signature, group-committed record,
 * answer), with the floor of this machine beside it, and checks that each of the 200 fixes was
 * learned exactly once from 700 deliveries. Both with one process (the intake, the worker and the
 * writer on one event loop) and with HTTP processes beside a primary that writes and learns.
 * Target: ack p99 ≤ 1.3 × the floor's p99 (the same burst against a server that reads each body and
 * answers at once, in the same run; printed as a ratio beside each p99). Figures swing widely on
 * a loaded machine: run it alone.
 */
import { createHmac, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import { pino } from 'pino';
import { ProbotOctokit } from 'probot';
import { startServer } from '../../src/app/server.js';
import { readServeConfig } from '../../src/app/settings.js';
import { openStore } from '../../src/store/open-store.js';
import { BENCH_PROCESSES, startBenchCluster } from './cluster.js';
import { againstNoopServer, burst as sendAtOnce, ms } from './load.js';
import { timeRequests } from './server-times.js';

const DELIVERIES = 200;
const REDELIVERIES = 20;
const SECRET = 'bench-secret';
/** how long the worker learns before a burst measured "while the worker learns" */
const LEARNING_HEAD_START_MS = 300;

/** p99 of `times` ÷ p99 of the floor's, both ascending */
const ratio = (times: number[], floor: number[]): string => (Number(ms(times, 99)) / Number(ms(floor, 99))).toFixed(2);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** resolves once no job is left to run */
async function untilDrained(store: { countJobs(state: 'pending'): Promise<number> }): Promise<void> {
  while ((await store.countJobs('pending')) > 0) await sleep(50);
}

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

interface Delivery {
  id: string;
  body: string;
  signature: string;
}

function makeDeliveries(prefix: string): Delivery[] {
  const template = JSON.parse(
    readFileSync(
      join(import.meta.dirname, '..', '..', '__tests__', 'fixtures', 'events', 'pull_request.closed.json'),
      'utf8',
    ),
  ) as { pull_request: { number: number; merge_commit_sha: string } };
  return Array.from({ length: DELIVERIES + REDELIVERIES }, (_, i) => {
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
}

/** Every delivery on its own connection, all in flight at once (as GitHub's senders would be). */
async function burst(port: number, path: string, deliveries: Delivery[]) {
  const results = await sendAtOnce(
    `http://127.0.0.1:${port}`,
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
  );
  return {
    roundTrip: results.latencies,
    ok: results.statuses[200] ?? 0,
    sent: deliveries.length,
    wallMs: results.elapsed,
  };
}

export async function run(): Promise<Record<string, string | number>> {
  const dir = mkdtempSync(join(tmpdir(), 'mt-bench-webhooks-'));
  const mocks = mockGitHub();
  const privateKey = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
  const env = { APP_ID: '1', PRIVATE_KEY: privateKey, WEBHOOK_SECRET: SECRET, PORT: '0', HOST: '127.0.0.1' };
  const serverOptions = {
    env: {},
    log: pino({ level: 'silent' }),
    // GitHub is nock here: no pacing (in production Probot's throttling paces GitHub calls)
    Octokit: ProbotOctokit.defaults((options: Record<string, unknown>) => ({
      ...options,
      retry: { enabled: false },
      throttle: { ...(options.throttle as object), enabled: false },
    })),
    worker: false,
  } as const;
  const figures: Record<string, string | number> = {
    'deliveries in flight': `${DELIVERIES} + ${REDELIVERIES} redeliveries`,
  };
  // the floor: the same burst against a server that reads each body and answers at once
  const floorCpu = process.cpuUsage();
  const [floor, floorServer] = await againstNoopServer((origin) =>
    sendAtOnce(
      origin,
      makeDeliveries('floor').map((d) => ({
        path: '/',
        headers: { 'content-type': 'application/json' },
        body: d.body,
      })),
    ),
  );
  figures['floor: the burst against a server that answers at once, p50 / p99 (server)'] =
    `${ms(floorServer, 50)} / ${ms(floorServer, 99)} ms`;
  // CPU of this process (server and load generator threads) per delivery of the burst
  const perDelivery = (used: NodeJS.CpuUsage) =>
    `${((used.user + used.system) / 1000 / (DELIVERIES + REDELIVERIES)).toFixed(2)} ms`;
  figures['floor: CPU per delivery (this process: server and load generator)'] = perDelivery(
    process.cpuUsage(floorCpu),
  );
  figures['floor: the same, round trip p50 / p99 (client)'] =
    `${ms(floor.latencies, 50)} / ${ms(floor.latencies, 99)} ms`;
  try {
    // 1. one process (serve on two cores, or --processes 1): the intake on the same event loop as everything else
    {
      const store = await openStore(join(dir, 'single.db'));
      const config = readServeConfig({ ...env, MEMORY_TRANSFER_PROCESSES: '1' });
      const server = await startServer({ ...serverOptions, config, store });
      const serverMs: number[] = [];
      timeRequests(server.http, serverMs);
      for (const d of makeDeliveries('single').slice(0, 50)) await burst(server.port, config.webhookPath, [d]);
      const single = serverMs.splice(0).sort((a, b) => a - b);
      const firstCpu = process.cpuUsage();
      const first = await burst(server.port, config.webhookPath, makeDeliveries('first'));
      const usedCpu = process.cpuUsage(firstCpu);
      const ack = [...serverMs].sort((a, b) => a - b);
      figures['1 process: CPU per delivery (this process: the App and the load generator)'] = perDelivery(usedCpu);
      figures['one delivery at a time: ack p50 / p99'] = `${ms(single, 50)} / ${ms(single, 99)} ms`;
      figures['1 process (serve on 2 cores): burst ack p50 / p99 (server)'] =
        `${ms(ack, 50)} / ${ms(ack, 99)} ms (${first.ok}/${first.sent} ok)`;
      figures['1 process: burst ack p99 ÷ floor p99 (target ≤ 1.3)'] = ratio(ack, floorServer);
      figures['1 process: burst round trip p50 / p99 (client)'] =
        `${ms(first.roundTrip, 50)} / ${ms(first.roundTrip, 99)} ms`;
      // the same burst again while the worker learns the first one (on the same event loop)
      server.worker?.start();
      await sleep(LEARNING_HEAD_START_MS);
      serverMs.splice(0);
      const during = await burst(server.port, config.webhookPath, makeDeliveries('during'));
      const duringAck = serverMs.splice(0).sort((a, b) => a - b);
      figures['1 process: burst while the worker learns, ack p50 / p99'] =
        `${ms(duringAck, 50)} / ${ms(duringAck, 99)} ms (${during.ok}/${during.sent} ok)`;
      figures['1 process: the same ÷ floor p99'] = ratio(duringAck, floorServer);
      await untilDrained(store);
      await server.stop();
      await store.close();
    }

    // 2. serve --processes N: HTTP processes forked, this process runs the job worker
    const poolPath = join(dir, 'pool.db');
    const store = await openStore(poolPath);
    // what group commit made of a burst: each write to the pool (measurement only)
    let writes: string[] = [];
    const enqueueJobs = store.enqueueJobs.bind(store);
    store.enqueueJobs = async (jobs) => {
      const t0 = performance.now();
      const added = await enqueueJobs(jobs);
      writes.push(`${jobs.length} in ${(performance.now() - t0).toFixed(0)} ms`);
      return added;
    };
    const config = readServeConfig({
      ...env,
      MEMORY_TRANSFER_PROCESSES: String(BENCH_PROCESSES),
      MEMORY_TRANSFER_DB: poolPath,
    });
    const jobs = await startServer({ ...serverOptions, config, store, role: 'jobs' });
    const gathersBefore = mocks.learnRequests();
    const http = await startBenchCluster(
      { ...env, MEMORY_TRANSFER_DB: poolPath },
      { ...(jobs.recordJobs ? { recordJobs: jobs.recordJobs } : {}) },
    );
    try {
      // warm each process's code paths (not measured)
      await burst(http.port, config.webhookPath, makeDeliveries('warm').slice(0, 40));
      await http.serverTimes();
      writes = [];
      const first = await burst(http.port, config.webhookPath, makeDeliveries('first'));
      const firstWrites = writes;
      const ack = await http.serverTimes();
      const queued = await store.countJobs('pending');
      // the same 200 fixes again with new delivery ids (as a second event for each fix would)
      const again = await burst(http.port, config.webhookPath, makeDeliveries('again'));
      const againAck = await http.serverTimes();
      const drainStart = performance.now();
      jobs.worker?.start();
      // a third burst (new ids, same fixes) while the worker, in the primary, learns
      await sleep(LEARNING_HEAD_START_MS);
      await http.serverTimes();
      const during = await burst(http.port, config.webhookPath, makeDeliveries('during'));
      const duringAck = await http.serverTimes();
      await untilDrained(store);
      const drainMs = performance.now() - drainStart;

      const memories = await store.listMemories('codertocat', { limit: 100_000 });
      const learned = new Set<string>();
      for (let n = 1; n <= DELIVERIES; n += 1)
        if (await store.isFixLearned('codertocat', 'Codertocat/Hello-World', String(n))) learned.add(String(n));
      const refsPerMemory = memories.flatMap((m) => m.provenance.map((p) => `${m.id}:${p.ref}`));
      Object.assign(figures, {
        [`${BENCH_PROCESSES} HTTP processes: acknowledged`]: `${first.ok}/${first.sent}`,
        [`${BENCH_PROCESSES} HTTP processes: burst ack p50 (server)`]: `${ms(ack, 50)} ms`,
        [`${BENCH_PROCESSES} HTTP processes: burst ack p99 (server)`]: `${ms(ack, 99)} ms`,
        [`${BENCH_PROCESSES} HTTP processes: burst ack p99 ÷ floor p99`]: ratio(ack, floorServer),
        [`${BENCH_PROCESSES} HTTP processes: burst ack max (server)`]: `${(ack[ack.length - 1] ?? 0).toFixed(1)} ms`,
        [`${BENCH_PROCESSES} HTTP processes: round trip p50 / p99 (client)`]: `${ms(first.roundTrip, 50)} / ${ms(first.roundTrip, 99)} ms`,
        [`${BENCH_PROCESSES} HTTP processes: burst wall time`]: `${first.wallMs.toFixed(0)} ms`,
        'pool writes in the burst (jobs, time each)': `${firstWrites.length}: ${firstWrites.join(', ')}`,
        'jobs recorded (40 warm-up + 200 burst)': queued,
        'second burst (new ids, same fixes): ack p50 / p99': `${ms(againAck, 50)} / ${ms(againAck, 99)} ms (${again.ok}/${again.sent} ok)`,
        [`${BENCH_PROCESSES} HTTP processes: burst while the worker learns, ack p50 / p99`]: `${ms(duringAck, 50)} / ${ms(duringAck, 99)} ms (${during.ok}/${during.sent} ok)`,
        'drain time (worker, 4 at a time; the third burst arrives meanwhile)': `${(drainMs / 1000).toFixed(1)} s`,
        'fixes learned (from 700 deliveries of 200 fixes)': `${learned.size}/${DELIVERIES}`,
        'PR gathers (GraphQL)': mocks.learnRequests() - gathersBefore,
        'processed twice': refsPerMemory.length - new Set(refsPerMemory).size,
        'dead jobs': await store.countJobs('dead'),
      });
      return figures;
    } finally {
      await http.stop();
      await jobs.stop();
      await store.close();
    }
  } finally {
    nock.cleanAll();
    nock.restore();
    rmSync(dir, { recursive: true, force: true });
  }
}
