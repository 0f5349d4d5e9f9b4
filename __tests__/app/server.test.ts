import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { availableParallelism, tmpdir } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { recordTokenTotals } from '../../src/app/http/metrics.js';
import { startServer, type RunningServer } from '../../src/app/server.js';
import { defaultProcesses, readServeConfig } from '../../src/app/settings.js';
import type { Store } from '../../src/store/store.js';
import { TestOctokit, WEBHOOK_SECRET, loadEvent, sign, silentPino, tempPool, testPrivateKey } from './app-harness.js';

const env = { APP_ID: '1', PRIVATE_KEY: testPrivateKey(), WEBHOOK_SECRET, PORT: '0', HOST: '127.0.0.1' };

async function post(server: RunningServer, body: string, headers: Record<string, string>): Promise<Response> {
  return fetch(`http://127.0.0.1:${server.port}/api/github/webhooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'pull_request',
      'x-github-delivery': 'delivery-1',
      ...headers,
    },
    body,
  });
}

describe('the App server over real HTTP', () => {
  let server: RunningServer;
  let store: Store;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    ({ store, cleanup } = await tempPool());
    server = await startServer({
      config: readServeConfig(env),
      store,
      log: silentPino,
      Octokit: TestOctokit,
      worker: false,
      env: {},
    });
  });
  afterEach(async () => {
    await server.stop();
    await cleanup();
  });

  it('answers /healthz', async () => {
    const response = await fetch(`http://127.0.0.1:${server.port}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('answers /metrics with the model use the job worker recorded', async () => {
    const empty = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    expect(empty.status).toBe(200);
    expect(empty.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await empty.text()).toContain('memory_transfer_llm_tokens_total{kind="prompt"} 0\n');
    await recordTokenTotals(store, {
      chatCalls: 2,
      promptTokens: 1500,
      completionTokens: 400,
      embeddingCalls: 2,
      embeddingTokens: 60,
      fallbacks: 1,
    });
    const text = await (await fetch(`http://127.0.0.1:${server.port}/metrics`)).text();
    expect(text).toContain('memory_transfer_llm_calls_total{kind="chat"} 2\n');
    expect(text).toContain('memory_transfer_llm_tokens_total{kind="prompt"} 1500\n');
    expect(text).toContain('memory_transfer_llm_tokens_total{kind="embedding"} 60\n');
    expect(text).toContain('memory_transfer_llm_fallbacks_total 1\n');
  });

  it('mounts the recall API: a request without an OIDC token is refused with 401', async () => {
    const response = await fetch(`http://127.0.0.1:${server.port}/api/v1/recall`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ task: 'x' }),
    });
    expect(response.status).toBe(401);
  });

  it('mounts /mcp behind the same OIDC check: a request without a token is refused with 401', async () => {
    const response = await fetch(`http://127.0.0.1:${server.port}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
  });

  it('accepts a correctly signed webhook (200) and records one job', async () => {
    const body = JSON.stringify(loadEvent('pull_request.closed'));
    const response = await post(server, body, { 'x-hub-signature-256': sign(body) });
    expect(response.status).toBe(200);
    expect(await store.countJobs('pending')).toBe(1);
  });

  it('refuses a forged signature with 400 and records nothing', async () => {
    const body = JSON.stringify(loadEvent('pull_request.closed'));
    const forged = await post(server, body, { 'x-hub-signature-256': sign(body, 'not-the-secret') });
    expect(forged.status).toBe(400);
    // a valid signature of another body does not sign this one
    const tampered = await post(server, body.replace('"merged": true', '"merged":true '), {
      'x-hub-signature-256': sign('{}'),
    });
    expect(tampered.status).toBe(400);
    expect(await store.countJobs('pending')).toBe(0);
  });

  it('records a redelivery once, and the worker learns from the recorded job', async () => {
    const body = JSON.stringify(loadEvent('pull_request.closed'));
    for (let i = 0; i < 3; i += 1)
      expect((await post(server, body, { 'x-hub-signature-256': sign(body) })).status).toBe(200);
    expect(await store.countJobs('pending')).toBe(1);
    const seen: unknown[] = [];
    server.worker?.register('resolve-fix', async (payload) => void seen.push(payload));
    // the recorded delivery (handed to Probot's handlers), then the job its handler recorded
    expect(await server.worker?.drain()).toBe(2);
    expect(seen).toEqual([
      expect.objectContaining({ source: 'pull_request', number: 2, owner: 'Codertocat', repo: 'Hello-World' }),
    ]);
  });

  it('refuses a webhook without a signature with 400 and records nothing', async () => {
    const body = JSON.stringify(loadEvent('pull_request.closed'));
    const response = await post(server, body, {});
    expect(response.status).toBe(400);
    expect(await store.countJobs('pending')).toBe(0);
  });

  it('acknowledges unknown events and odd payloads without recording work', async () => {
    const body = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 });
    const response = await post(server, body, { 'x-github-event': 'ping', 'x-hub-signature-256': sign(body) });
    expect(response.status).toBe(200);
    const star = JSON.stringify({ action: 'created', repository: { id: 1 } });
    expect(
      (
        await post(server, star, {
          'x-github-event': 'star',
          'x-github-delivery': 'd2',
          'x-hub-signature-256': sign(star),
        })
      ).status,
    ).toBe(200);
    expect(await store.countJobs('pending')).toBe(0);
  });

  it('records 100 deliveries in flight at once, each once, acknowledging each after it is stored', async () => {
    const template = loadEvent('pull_request.closed');
    const deliveries = Array.from({ length: 100 }, (_, i) => {
      const body = JSON.stringify({ ...template, pull_request: { ...template.pull_request, number: i + 1 } });
      return { body, id: `burst-${i % 80}` };
    });
    const responses = await Promise.all(
      deliveries.map((d) => post(server, d.body, { 'x-github-delivery': d.id, 'x-hub-signature-256': sign(d.body) })),
    );
    expect(responses.map((r) => r.status)).toEqual(deliveries.map(() => 200));
    // 20 were redeliveries of an id already in flight
    expect(await store.countJobs('pending')).toBe(80);
    const numbers: number[] = [];
    server.worker?.register(
      'resolve-fix',
      async (payload) => void numbers.push((payload as { number: number }).number),
    );
    await server.worker?.drain();
    expect(numbers.sort((a, b) => a - b)).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
  });

  it('as an HTTP process, records through its writer and answers 503 when the writer cannot store', async () => {
    const recorded: string[] = [];
    let writerUp = true;
    const http = await startServer({
      config: readServeConfig(env),
      store,
      log: silentPino,
      Octokit: TestOctokit,
      env: {},
      role: 'http',
      recordJobs: async (jobs) => {
        if (!writerUp) throw new Error('the primary process is gone');
        recorded.push(...jobs.map((job) => job.key));
        return jobs.map(() => true);
      },
    });
    try {
      const body = JSON.stringify(loadEvent('pull_request.closed'));
      const ok = await post(http, body, { 'x-github-delivery': 'via-writer', 'x-hub-signature-256': sign(body) });
      expect(ok.status).toBe(200);
      expect(recorded).toEqual(['webhook:via-writer']);
      writerUp = false;
      const failed = await post(http, body, { 'x-github-delivery': 'writer-down', 'x-hub-signature-256': sign(body) });
      expect(failed.status).toBe(503);
      expect(await failed.json()).toEqual({ error: 'could not record the delivery; retry later' });
      // an HTTP process neither writes jobs itself nor runs them
      expect(await store.countJobs('pending')).toBe(0);
      expect(recorded).toEqual(['webhook:via-writer']);
    } finally {
      await http.stop();
    }
  });

  it('does not record an event it has no handler for', async () => {
    const event = loadEvent('pull_request.closed');
    event.action = 'labeled';
    const body = JSON.stringify(event);
    expect((await post(server, body, { 'x-hub-signature-256': sign(body) })).status).toBe(200);
    expect(await store.countJobs('pending')).toBe(0);
  });

  it('answers 503 when the delivery cannot be stored, so GitHub can deliver it again', async () => {
    await store.close();
    const body = JSON.stringify(loadEvent('pull_request.closed'));
    expect((await post(server, body, { 'x-hub-signature-256': sign(body) })).status).toBe(503);
  });

  it("records the delivery itself: Probot's handlers run later, from the worker, never straight from HTTP", async () => {
    const body = JSON.stringify(loadEvent('pull_request.closed'));
    expect((await post(server, body, { 'x-hub-signature-256': sign(body) })).status).toBe(200);
    const recorded = await store.claimJob(new Date().toISOString(), new Date(Date.now() + 60_000).toISOString());
    expect(recorded).toMatchObject({ key: 'webhook:delivery-1', kind: 'webhook-delivery' });
    // nothing else yet: the fix's job is recorded when the worker hands the delivery to Probot
    expect(await store.countJobs('pending')).toBe(1);
  });

  it('refuses a body that is not JSON, and a wrong content type, recording nothing', async () => {
    const text = 'not json';
    expect((await post(server, text, { 'x-hub-signature-256': sign(text) })).status).toBe(400);
    const body = JSON.stringify(loadEvent('pull_request.closed'));
    const form = await post(server, body, { 'content-type': 'text/plain', 'x-hub-signature-256': sign(body) });
    expect(form.status).toBe(415);
    expect(await store.countJobs('pending')).toBe(0);
  });

  it('refuses a signed delivery cut mid-object (its action readable) or not an object with 400, recording nothing', async () => {
    const whole = JSON.stringify(loadEvent('pull_request.closed'));
    for (const body of [whole.slice(0, Math.floor(whole.length / 2)), `[${whole}]`, '"closed"', `${whole}}`]) {
      const response = await post(server, body, { 'x-hub-signature-256': sign(body) });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'the payload is not a JSON object' });
    }
    expect(await store.countJobs('pending')).toBe(0);
    // the whole delivery is still recorded
    expect((await post(server, whole, { 'x-hub-signature-256': sign(whole) })).status).toBe(200);
    expect(await store.countJobs('pending')).toBe(1);
  });
});

describe('serve settings', () => {
  it('refuses to start without a real WEBHOOK_SECRET unless in development mode', () => {
    expect(() => readServeConfig({ APP_ID: '1', PRIVATE_KEY: testPrivateKey() })).toThrow(/WEBHOOK_SECRET: is not set/);
    expect(() =>
      readServeConfig({ APP_ID: '1', PRIVATE_KEY: testPrivateKey(), WEBHOOK_SECRET: 'development' }),
    ).toThrow(/WEBHOOK_SECRET: is the default "development"/);
    expect(readServeConfig({ APP_ID: '1', PRIVATE_KEY: testPrivateKey() }, { dev: true }).dev).toBe(true);
    expect(
      readServeConfig({ APP_ID: '1', PRIVATE_KEY: testPrivateKey(), MEMORY_TRANSFER_DEV: '1' }).webhookSecret,
    ).toBe('development');
  });

  it('names the variable of a bad value', () => {
    expect(() => readServeConfig({ ...env, PORT: 'eighty' })).toThrow(/^PORT: /);
    expect(() => readServeConfig({ ...env, INSTALL_BACKFILL_LIMIT: '-1' })).toThrow(/^INSTALL_BACKFILL_LIMIT: /);
    expect(() => readServeConfig({ ...env, PRIVATE_KEY: 'not a key' })).toThrow(/^PRIVATE_KEY: /);
    expect(() => readServeConfig({ APP_ID: '1', WEBHOOK_SECRET })).toThrow(/^PRIVATE_KEY: is not set/);
  });

  it('runs one HTTP process per core beyond the first, up to 4, and one wherever several would be wrong', () => {
    expect([1, 2, 3, 4, 5, 8, 64].map(defaultProcesses)).toEqual([1, 1, 2, 3, 4, 4, 4]);
    expect(readServeConfig(env).processes).toBe(defaultProcesses(availableParallelism()));
    expect(readServeConfig({ ...env, MEMORY_TRANSFER_PROCESSES: '3' }).processes).toBe(3);
    expect(readServeConfig(env, { processes: 1 }).processes).toBe(1);
    // each process would have its own in-memory pool, or relay every delivery
    expect(readServeConfig(env, { db: ':memory:' }).processes).toBe(1);
    expect(readServeConfig({ ...env, WEBHOOK_PROXY_URL: 'https://smee.io/abc' }).processes).toBe(1);
    expect(readServeConfig(env, { dev: true }).processes).toBe(1);
    expect(() => readServeConfig(env, { db: ':memory:', processes: 2 })).toThrow(
      /^MEMORY_TRANSFER_PROCESSES: must be 1 with an in-memory pool/,
    );
    expect(() => readServeConfig({ ...env, MEMORY_TRANSFER_PROCESSES: '0' })).toThrow(/^MEMORY_TRANSFER_PROCESSES: /);
  });

  it('without App credentials is in set-up mode (no secret needed yet)', () => {
    const config = readServeConfig({});
    expect(config.credentials).toBeUndefined();
  });

  it('accepts a private key with escaped new lines or base64-encoded', () => {
    const pem = testPrivateKey();
    expect(readServeConfig({ ...env, PRIVATE_KEY: pem.replace(/\n/g, '\\n') }).credentials?.privateKey).toBe(pem);
    expect(readServeConfig({ ...env, PRIVATE_KEY: Buffer.from(pem).toString('base64') }).credentials?.privateKey).toBe(
      pem,
    );
  });
});

async function freePort(): Promise<number> {
  return new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe('set-up mode (no App credentials)', () => {
  it('started in a folder without app.yml, uses the package manifest and leaves no app.yml behind', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'mt-setup-'));
    const before = process.cwd();
    process.chdir(folder);
    try {
      const port = await freePort();
      const server = await startServer({
        config: readServeConfig({ PORT: String(port), HOST: '127.0.0.1' }),
        log: silentPino,
      });
      try {
        const html = (await (await fetch(`http://127.0.0.1:${port}/probot`)).text()).replace(/&quot;/g, '"');
        expect(html).toContain('"workflow_run"');
      } finally {
        await server.stop();
      }
      expect(await readdir(folder)).toEqual([]);
    } finally {
      process.chdir(before);
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("offers Probot's manifest flow with the permissions and events of app.yml", async () => {
    const port = await freePort();
    const server = await startServer({
      config: readServeConfig({ PORT: String(port), HOST: '127.0.0.1' }),
      log: silentPino,
    });
    try {
      expect(server.setup).toBe(true);
      const page = await fetch(`http://127.0.0.1:${port}/probot`);
      expect(page.status).toBe(200);
      const html = (await page.text()).replace(/&quot;/g, '"');
      expect(html).toContain(
        '"default_permissions":{"metadata":"read","contents":"read","pull_requests":"write","issues":"write"',
      );
      expect(html).toContain('"workflow_run"');
    } finally {
      await server.stop();
    }
  });
});

describe('the serve command', () => {
  it('refuses to start without a real webhook secret, naming the variable', async () => {
    const err: string[] = [];
    const io = {
      out: () => undefined,
      err: (t: string) => void err.push(t),
      env: { APP_ID: '1', PRIVATE_KEY: testPrivateKey() },
      cwd: process.cwd(),
    };
    expect(await main(['serve'], io)).toBe(2);
    expect(err.join('')).toMatch(/^memory-transfer: WEBHOOK_SECRET: is not set; .*--dev/);
  });
});
