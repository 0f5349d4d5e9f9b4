// `serve` mounts /mcp; an agent's vote counts only when GitHub says the run's actor has write access
// to the repository (the collaborator permission API, mocked with nock as the App's installation).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/app/server.js';
import { readServeConfig } from '../../src/app/settings.js';
import type { Store } from '../../src/store/store.js';
import { TestOctokit, WEBHOOK_SECRET, github, silentPino, tempPool, testPrivateKey } from '../app/app-harness.js';
import { ACME_WEB, fakeDirectory, makeIssuer, type TestIssuer } from '../app/http/oidc-helpers.js';
import { PUBLIC_ID, poolInsights, textOf } from './mcp-harness.js';

const env = { APP_ID: '1', PRIVATE_KEY: testPrivateKey(), WEBHOOK_SECRET, PORT: '0', HOST: '127.0.0.1' };

describe('serve: /mcp votes', () => {
  let server: RunningServer;
  let store: Store;
  let cleanup: () => Promise<void>;
  let issuer: TestIssuer;

  beforeEach(async () => {
    ({ store, cleanup } = await tempPool());
    for (const memory of poolInsights()) await store.putMemory(memory);
    issuer = await makeIssuer();
    server = await startServer({
      config: readServeConfig(env),
      store,
      log: silentPino,
      Octokit: TestOctokit,
      worker: false,
      env: {},
      api: { directory: fakeDirectory([ACME_WEB]), jwks: issuer.localJwks },
    });
  });
  afterEach(async () => {
    await server.stop();
    await cleanup();
  });

  async function vote(actor: string, runId: string) {
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${await issuer.sign({ actor, run_id: runId })}` } },
    });
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(transport);
    try {
      return await client.callTool({ name: 'report_outcome', arguments: { ids: [PUBLIC_ID], outcome: 'helped' } });
    } finally {
      await client.close();
    }
  }

  it("counts a collaborator's run and refuses an outsider's, asking GitHub as the installation", async () => {
    github(ACME_WEB.installationId)
      .get('/repos/acme/web/collaborators/ada/permission')
      .reply(200, { permission: 'write', role_name: 'write' })
      .get('/repos/acme/web/collaborators/mallory/permission')
      .reply(404, { message: 'Not Found' });
    const counted = await vote('ada', '801');
    expect(counted.structuredContent).toMatchObject({ recorded: [PUBLIC_ID] });
    const refused = await vote('mallory', '802');
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/mallory has no write access to acme\/web/);
    expect((await store.getMemory('acme', PUBLIC_ID))?.outcomes).toEqual({ success: 1, failure: 0 });
  });
});
