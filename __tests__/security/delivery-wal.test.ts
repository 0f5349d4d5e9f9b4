// A raw delivery is stored as received (its text may carry a secret: here, in a branch name);
// once its job is done, no byte of it is left in the pool's database, -wal or -shm file, while
// the App is still running (the log is emptied, not left for later deliveries to overwrite).
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer } from '../../src/app/server.js';
import { readServeConfig } from '../../src/app/settings.js';
import { SECRET_SAMPLES } from '../fixtures/secrets/corpus.js';
import {
  TestOctokit,
  WEBHOOK_SECRET,
  loadEvent,
  sign,
  silentPino,
  tempPool,
  testPrivateKey,
} from '../app/app-harness.js';
import { leaksIn } from './e2e-helpers.js';

const env = { APP_ID: '1', PRIVATE_KEY: testPrivateKey(), WEBHOOK_SECRET, PORT: '0', HOST: '127.0.0.1' };
const secretOf = (kind: string) => SECRET_SAMPLES.find((s) => s.kind === kind)!.leaks[0]!;
const AWS_KEY = secretOf('aws-access-key-id');
const GITHUB_TOKEN = secretOf('github-token-in-diff');

function poolBytes(path: string): string {
  return ['', '-wal', '-shm']
    .map((suffix) => (existsSync(path + suffix) ? readFileSync(path + suffix).toString('latin1') : ''))
    .join('\n');
}

describe('a done delivery at rest', () => {
  let server: RunningServer;
  let pool: Awaited<ReturnType<typeof tempPool>>;

  beforeEach(async () => {
    pool = await tempPool();
    server = await startServer({
      config: readServeConfig(env),
      store: pool.store,
      log: silentPino,
      Octokit: TestOctokit,
      worker: false,
      env: {},
    });
  });
  afterEach(async () => {
    await server.stop();
    await pool.cleanup();
  });

  it('leaves no byte of a secret in the database, -wal or -shm file once its job is done', async () => {
    const event = loadEvent('pull_request.closed');
    event.pull_request.head.ref = `fix/${AWS_KEY}-${GITHUB_TOKEN}`;
    const body = JSON.stringify(event);
    const response = await fetch(`http://127.0.0.1:${server.port}/api/github/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'pull_request',
        'x-github-delivery': 'delivery-secret-branch',
        'x-hub-signature-256': sign(body),
      },
      body,
    });
    expect(response.status).toBe(200);
    // stored as received, until its job is done
    expect(leaksIn(poolBytes(pool.path), [AWS_KEY, GITHUB_TOKEN])).toEqual([AWS_KEY, GITHUB_TOKEN]);
    server.worker?.register('resolve-fix', async () => undefined);
    expect(await server.worker?.drain()).toBe(2);
    expect(await pool.store.countJobs('done')).toBe(2);
    // the App keeps running: the log is emptied within a checkpoint's tick (1 s), not at close
    await vi.waitFor(() => expect(leaksIn(poolBytes(pool.path), [AWS_KEY, GITHUB_TOKEN])).toEqual([]), {
      timeout: 5_000,
      interval: 100,
    });
    expect(await pool.store.countJobs('done')).toBe(2);
  });
});
