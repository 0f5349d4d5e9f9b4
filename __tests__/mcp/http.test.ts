// The App's /mcp endpoint over streamable HTTP, driven by the MCP SDK's own client, behind the
// recall API's OIDC verification (a local key set stands in for GitHub's), on a real SQLite pool.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import nock from 'nock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../../src/app/deps.js';
import { createMcpHandler, type McpEndpointOptions } from '../../src/app/http/mcp-endpoint.js';
import type { InstalledRepository } from '../../src/app/http/oidc.js';
import { createRedactor } from '../../src/security/redact.js';
import { silentLogger, systemClock } from '../../src/ports/index.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { ACME_WEB, fakeDirectory, makeIssuer, type TestIssuer } from '../app/http/oidc-helpers.js';
import { CANARY, PRIVATE_ID, PUBLIC_ID, TASK, poolInsights, stdioClient, textOf } from './mcp-harness.js';

const ACME_CORE: InstalledRepository = { ...ACME_WEB, repoId: 4343, fullName: 'acme/core', visibility: 'private' };
const WRITERS = new Set(['ada']);

let dir: string;
let store: SqliteStore;
let issuer: TestIssuer;
const servers: Server[] = [];

async function startMcp(options: Partial<McpEndpointOptions> = {}, githubUrl = 'https://github.com'): Promise<string> {
  const deps: AppDeps = {
    store,
    abstractor: { abstract: async () => ({ memories: [], model: 'none', writer: 'model' }) },
    redactor: createRedactor(),
    logger: silentLogger,
    clock: systemClock,
    queue: { enqueue: async () => true, register: () => undefined },
    settings: { appSlug: 'memory-transfer', githubUrl, installBackfillLimit: 0 },
  };
  const handler = createMcpHandler(deps, {
    directory: fakeDirectory([ACME_WEB, ACME_CORE], { '4242#8': 4242, '4242#9': 31337 }),
    // on github.com a local key set stands in for GitHub's; elsewhere the server's own is fetched
    ...(githubUrl === 'https://github.com' ? { jwks: issuer.localJwks } : {}),
    mayVote: async (_run, actor) => (actor && WRITERS.has(actor) ? undefined : `${actor} has no write access`),
    ...options,
  });
  const server = createServer((req, res) => {
    void handler(req, res).then((handled) => {
      if (!handled) res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function connect(url: string, token: string | undefined): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: token ? { authorization: `Bearer ${token}` } : {} },
  });
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function outcomesOf(id: string) {
  return (await store.getMemory('acme', id))?.outcomes;
}

let url: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mt-mcp-http-'));
  store = await SqliteStore.open(path.join(dir, 'pool.db'));
  await store.migrate();
  for (const memory of poolInsights()) await store.putMemory(memory);
  issuer = await makeIssuer();
  url = await startMcp();
});
afterAll(async () => {
  for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('POST /mcp', () => {
  it('lists the tools and recalls within the run repository’s visibility', async () => {
    const publicRun = await connect(url, await issuer.sign());
    try {
      const { tools } = await publicRun.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['recall', 'report_outcome', 'show']);
      const recalled = await publicRun.callTool({ name: 'recall', arguments: { task: TASK, k: 5 } });
      expect((recalled.structuredContent as { insights: { id: string }[] }).insights.map((i) => i.id)).toEqual([
        PUBLIC_ID,
      ]);
      // a public repository's call never sees a private source, by recall, show or the resource
      expect(JSON.stringify(recalled)).not.toContain(CANARY);
      const shown = await publicRun.callTool({ name: 'show', arguments: { id: PRIVATE_ID } });
      expect(shown.isError).toBe(true);
      expect(JSON.stringify(shown)).not.toContain(CANARY);
      const top = await publicRun.readResource({ uri: 'memory-transfer://insights/top' });
      expect(JSON.stringify(top)).not.toContain(CANARY);
      // the token fixes the repository: another one cannot be named
      const other = await publicRun.callTool({ name: 'recall', arguments: { task: TASK, repo: 'acme/core' } });
      expect(other.isError).toBe(true);
      expect(textOf(other)).toMatch(/answers for acme\/web only/);
    } finally {
      await publicRun.close();
    }
    const privateRun = await connect(
      url,
      await issuer.sign({ repository: 'acme/core', repository_id: '4343', repository_visibility: 'private' }),
    );
    try {
      const recalled = await privateRun.callTool({ name: 'recall', arguments: { task: TASK, k: 5 } });
      expect((recalled.structuredContent as { insights: { id: string }[] }).insights.map((i) => i.id)).toContain(
        PRIVATE_ID,
      );
    } finally {
      await privateRun.close();
    }
  });

  it('refuses a missing or forged token with 401, and a fork’s run with 403, before any tool runs', async () => {
    await expect(connect(url, undefined)).rejects.toMatchObject({ code: 401 });
    const forger = await makeIssuer('test-key');
    await expect(connect(url, await forger.sign())).rejects.toMatchObject({ code: 401 });
    const raw = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toBe('Bearer');
    const fork = await issuer.sign({ event_name: 'pull_request', ref: 'refs/pull/9/merge' });
    await expect(connect(url, fork)).rejects.toMatchObject({
      code: 403,
      message: expect.stringMatching(/forks are refused/),
    });
  });

  it('answers bad arguments with tool errors', async () => {
    const client = await connect(url, await issuer.sign());
    try {
      const bad = await client.callTool({ name: 'report_outcome', arguments: { ids: [], outcome: 'helped' } });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(/give at least one insight id/);
    } finally {
      await client.close();
    }
  });

  it("report_outcome changes the insight's outcomes once per run; an outsider's run cannot vote", async () => {
    const before = (await outcomesOf(PUBLIC_ID))!;
    const run1 = await connect(url, await issuer.sign({ run_id: '501', actor: 'ada' }));
    try {
      const first = await run1.callTool({ name: 'report_outcome', arguments: { ids: [PUBLIC_ID], outcome: 'wrong' } });
      expect(first.structuredContent).toMatchObject({ recorded: [PUBLIC_ID] });
      const again = await run1.callTool({ name: 'report_outcome', arguments: { ids: [PUBLIC_ID], outcome: 'wrong' } });
      expect(again.structuredContent).toMatchObject({ recorded: [], already: [PUBLIC_ID] });
    } finally {
      await run1.close();
    }
    // a new connection with a new token of the same run: still once
    const sameRun = await connect(url, await issuer.sign({ run_id: '501', actor: 'ada', jti: 'token-2' }));
    try {
      const third = await sameRun.callTool({
        name: 'report_outcome',
        arguments: { ids: [PUBLIC_ID], outcome: 'wrong' },
      });
      expect(third.structuredContent).toMatchObject({ already: [PUBLIC_ID] });
    } finally {
      await sameRun.close();
    }
    expect(await outcomesOf(PUBLIC_ID)).toEqual({ success: before.success, failure: before.failure + 1 });

    const outsider = await connect(url, await issuer.sign({ run_id: '502', actor: 'mallory' }));
    try {
      const vote = await outsider.callTool({
        name: 'report_outcome',
        arguments: { ids: [PUBLIC_ID], outcome: 'wrong' },
      });
      expect(vote.isError).toBe(true);
      expect(textOf(vote)).toMatch(/this run may not report outcomes: mallory has no write access/);
    } finally {
      await outsider.close();
    }
    expect(await outcomesOf(PUBLIC_ID)).toEqual({ success: before.success, failure: before.failure + 1 });
  });

  it('limits requests per token (429 with Retry-After), and other methods get 405', async () => {
    const limited = await startMcp({ tokenRateLimitPerMinute: 1 });
    const token = await issuer.sign({ jti: 'token-limited' });
    const post = () =>
      fetch(`${limited}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
    expect((await post()).status).toBe(200);
    const refused = await post();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // another token is counted on its own
    const other = await issuer.sign({ jti: 'token-other' });
    const ok = await fetch(`${limited}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${other}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(ok.status).toBe(200);
    const get = await fetch(`${url}/mcp`, { headers: { authorization: `Bearer ${token}` } });
    expect(get.status).toBe(405);
  });
});

describe('POST /mcp budgets that a new token per call does not escape', () => {
  const ping = (base: string, token: string) =>
    fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });

  it('125 calls of one repository with 125 tokens: 120 answered, then 429 naming the repository', async () => {
    const fresh = await startMcp();
    const statuses: number[] = [];
    for (let i = 0; i < 125; i += 1) statuses.push((await ping(fresh, await issuer.sign({ jti: `call-${i}` }))).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(120);
    expect(statuses.slice(120)).toEqual([429, 429, 429, 429, 429]);
    const refused = await ping(fresh, await issuer.sign({ jti: 'call-126' }));
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /^too many requests for acme\/web; retry in \d+ s$/,
    );
  });

  it("an installation's budget holds across its repositories, whatever the tokens", async () => {
    const limited = await startMcp({ installationRateLimitPerMinute: 3 });
    const web = (i: number) => issuer.sign({ jti: `web-${i}` });
    const core = (i: number) =>
      issuer.sign({
        jti: `core-${i}`,
        repository: 'acme/core',
        repository_id: '4343',
        repository_visibility: 'private',
      });
    expect((await ping(limited, await web(1))).status).toBe(200);
    expect((await ping(limited, await core(1))).status).toBe(200);
    expect((await ping(limited, await web(2))).status).toBe(200);
    const refused = await ping(limited, await core(2));
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /^too many requests for the installation of acme; retry in \d+ s$/,
    );
  });
});

describe('POST /mcp on GitHub Enterprise Server (GHE_HOST)', () => {
  it("accepts a run of the server's own issuer, its key set read from that server; refuses github.com's", async () => {
    const ghe = await makeIssuer('ghes-key');
    const gheUrl = await startMcp({}, 'https://ghes.acme.test');
    // the key set is the server's, at its token service: no request reaches github.com
    nock('https://ghes.acme.test').get('/_services/token/.well-known/jwks').reply(200, ghe.jwks);
    const run = await connect(gheUrl, await ghe.sign({}, { issuer: 'https://ghes.acme.test/_services/token' }));
    try {
      const recalled = await run.callTool({ name: 'recall', arguments: { task: TASK, k: 5 } });
      expect((recalled.structuredContent as { insights: { id: string }[] }).insights.map((i) => i.id)).toEqual([
        PUBLIC_ID,
      ]);
    } finally {
      await run.close();
    }
    // a github.com token signed by the same key is not one of this server's runs
    const foreign = await ghe.sign({}, { issuer: 'https://token.actions.githubusercontent.com' });
    const refused = await fetch(`${gheUrl}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${foreign}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/"iss" claim/);
  });
});

describe('memory-transfer mcp --server (stdio in a workflow, answered by the App)', () => {
  it('forwards the tools to /mcp with the run’s OIDC token, under the App’s rules', async () => {
    const token = await issuer.sign({ run_id: '601', actor: 'ada', jti: 'token-proxy' });
    const { client, close } = await stdioClient(['mcp', '--server', url], { MEMORY_TRANSFER_OIDC_TOKEN: token });
    try {
      const recalled = await client.callTool({ name: 'recall', arguments: { task: TASK, k: 5 } });
      expect((recalled.structuredContent as { insights: { id: string }[] }).insights.map((i) => i.id)).toEqual([
        PUBLIC_ID,
      ]);
      expect(JSON.stringify(recalled)).not.toContain(CANARY);
      const hidden = await client.callTool({ name: 'show', arguments: { id: PRIVATE_ID } });
      expect(hidden.isError).toBe(true);
      expect(textOf(hidden)).toMatch(/no insight "m0000000102" that this repository may see/);
      const before = (await outcomesOf(PUBLIC_ID))!;
      const vote = await client.callTool({
        name: 'report_outcome',
        arguments: { ids: [PUBLIC_ID], outcome: 'helped' },
      });
      expect(vote.structuredContent).toMatchObject({ recorded: [PUBLIC_ID] });
      expect(await outcomesOf(PUBLIC_ID)).toEqual({ success: before.success + 1, failure: before.failure });
      const top = await client.readResource({ uri: 'memory-transfer://insights/top' });
      expect(top.contents.some((c) => 'text' in c && c.text.includes(PUBLIC_ID))).toBe(true);
    } finally {
      await close();
    }
  });

  it('a refused token is a tool error naming the cause, not a crash', async () => {
    const forger = await makeIssuer('test-key');
    const { client, close } = await stdioClient(['mcp', '--server', url], {
      MEMORY_TRANSFER_OIDC_TOKEN: await forger.sign(),
    });
    try {
      const recalled = await client.callTool({ name: 'recall', arguments: { task: TASK } });
      expect(recalled.isError).toBe(true);
      expect(textOf(recalled)).toMatch(/refused the request \(HTTP 401\): the OIDC token could not be verified/);
      // the server is still there
      expect((await client.listTools()).tools).toHaveLength(3);
    } finally {
      await close();
    }
  });
});
