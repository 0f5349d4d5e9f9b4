/**
 * `memory-transfer serve --processes 2` as an admin runs it: real processes (the CLI under tsx),
 * real HTTP, a real SQLite pool. The primary runs the job worker and forks two HTTP processes that
 * share the port; deliveries they take in are recorded by the primary. GitHub is a closed local
 * port (GHE_HOST), so no test reaches the network.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { WEBHOOK_SECRET, loadEvent, sign, testPrivateKey } from '../app/app-harness.js';

const ROOT = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'mt-cluster-'));
const pool = join(dir, 'pool.db');
let primary: ChildProcess;
let output = '';
let origin = '';

/** the HTTP processes: children running the same command (tsx also starts an esbuild service) */
function childrenOf(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid), '-f', 'cli-entry'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; serve printed:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function deliver(id: string, body: string, signature = sign(body)): Promise<Response> {
  return fetch(`${origin}/api/github/webhooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'pull_request',
      'x-github-delivery': id,
      'x-hub-signature-256': signature,
    },
    body,
  });
}

async function recorded(ids: string[]): Promise<boolean[]> {
  const store = await openStore(pool);
  try {
    const added = await store.enqueueJobs(ids.map((id) => ({ key: `webhook:${id}`, kind: 'probe', payload: null })));
    return added.map((wasNew) => !wasNew);
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  primary = spawn(
    process.execPath,
    ['--import', 'tsx', '__tests__/helpers/cli-entry.ts', '--db', pool, 'serve', '--processes', '2'],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        APP_ID: '1',
        PRIVATE_KEY: testPrivateKey(),
        WEBHOOK_SECRET,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        // GitHub is a closed port: the worker's calls fail at once and are retried later
        GHE_HOST: '127.0.0.1:9',
        GHE_PROTOCOL: 'http',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  primary.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  primary.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  origin = await until(
    'the listening line',
    () => /listening on (http:\/\/[\d.:]+) with 2 HTTP processes/.exec(output)?.[1],
  );
}, 60_000);

afterAll(async () => {
  if (primary.exitCode === null) primary.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('serve --processes 2', () => {
  it('forks two HTTP processes that share one port and answer /healthz', async () => {
    expect(childrenOf(primary.pid as number)).toHaveLength(2);
    const response = await fetch(`${origin}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('records each signed delivery once (redeliveries too) and refuses a forged one', async () => {
    const body = JSON.stringify(loadEvent('pull_request.closed'));
    const ids = Array.from({ length: 12 }, (_, i) => `cluster-${i}`);
    // spread over both processes: new connections, sent together, each id twice
    const answers = await Promise.all([...ids, ...ids].map((id) => deliver(id, body)));
    expect(answers.map((r) => r.status)).toEqual(Array(24).fill(200));
    const forged = await deliver('cluster-forged', body, sign(body, 'not-the-secret'));
    expect(forged.status).toBe(400);
    expect(await recorded([...ids, 'cluster-forged'])).toEqual([...ids.map(() => true), false]);
  });

  it('replaces an HTTP process that dies, and keeps answering meanwhile', async () => {
    const [victim] = childrenOf(primary.pid as number);
    process.kill(victim as number, 'SIGKILL');
    const replaced = await until('a new HTTP process', () => {
      const now = childrenOf(primary.pid as number);
      return now.length === 2 && !now.includes(victim as number) ? now : undefined;
    });
    expect(replaced).toHaveLength(2);
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
    const body = JSON.stringify(loadEvent('pull_request.closed'));
    expect((await deliver('after-restart', body)).status).toBe(200);
    expect(await recorded(['after-restart'])).toEqual([true]);
  });

  it('stops on SIGTERM: the HTTP processes finish and everything exits', async () => {
    const children = childrenOf(primary.pid as number);
    const exited = new Promise<number | null>((resolve) => primary.once('exit', (code) => resolve(code)));
    primary.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of children) expect(() => process.kill(pid, 0)).toThrow();
  });
});
