/**
 * Test harness for the App: a real temp SQLite pool, the offline abstractor, a Probot instance
 * with a generated key (Probot's own retries off: the durable queue retries), the durable worker
 * (drained by hand), and nock helpers for GitHub.
 */
import { generateKeyPairSync, createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import { pino } from 'pino';
import { Probot, ProbotOctokit } from 'probot';
import { createRulesAbstractor } from '../../src/abstraction/rules-abstractor.js';
import { createApp } from '../../src/app/index.js';
import type { AppDeps, AppSettings } from '../../src/app/deps.js';
import { createWorker, type Worker, type WorkerOptions } from '../../src/app/worker.js';
import { ConfigCache } from '../../src/app/interaction/config-cache.js';
import { createRedactor } from '../../src/security/redact.js';
import { silentLogger, type Clock, type Logger } from '../../src/ports/index.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';

let cachedKey: string | undefined;

/** An RSA key generated for the test run (never a real App key). */
export function testPrivateKey(): string {
  cachedKey ??= generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
  return cachedKey;
}

export const WEBHOOK_SECRET = 'test-webhook-secret';

/** Probot's Octokit without its own retries and throttling (the job queue retries). */
// (a function, so the options reach installation clients too: with an object, plugin-throttling stays on
// for them and spaces out comment POSTs by ~3 s across tests)
export const TestOctokit = ProbotOctokit.defaults((options: any) => ({
  ...options,
  retry: { enabled: false },
  throttle: { ...options?.throttle, enabled: false },
}));

export const silentPino = pino({ level: 'silent' });

export function loadEvent<T = any>(name: string): T {
  return JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'events', `${name}.json`), 'utf8')) as T;
}

export function sign(body: string, secret = WEBHOOK_SECRET): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export async function tempPool(): Promise<{ store: Store; dir: string; path: string; cleanup: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'mt-app-'));
  const path = join(dir, 'pool.db');
  const store = await openStore(path);
  return {
    store,
    dir,
    path,
    cleanup: async () => {
      await store.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const settings: AppSettings = {
  appSlug: 'memory-transfer',
  githubUrl: 'https://github.com',
  installBackfillLimit: 20,
};

export interface Harness {
  probot: Probot;
  store: Store;
  worker: Worker;
  deps: AppDeps;
  logs: { level: string; message: string; fields?: Record<string, unknown> }[];
  /**
   * moves the harness clock forward (without options.clock): a failed job is retried a minute
   * later, so a test advances the clock rather than sleeping, and one drain never re-runs a job
   * that just failed, however slow the machine
   */
  advance: (ms: number) => void;
  cleanup: () => Promise<void>;
}

export function recordingLogger(logs: Harness['logs']): Logger {
  return {
    debug: (message, fields) => logs.push({ level: 'debug', message, ...(fields ? { fields } : {}) }),
    info: (message, fields) => logs.push({ level: 'info', message, ...(fields ? { fields } : {}) }),
    warn: (message, fields) => logs.push({ level: 'warn', message, ...(fields ? { fields } : {}) }),
    error: (message, fields) => logs.push({ level: 'error', message, ...(fields ? { fields } : {}) }),
  };
}

export async function createHarness(
  options: {
    store?: Store;
    clock?: Clock;
    settings?: Partial<AppSettings>;
    /** the model side (default: the offline rules, no meter) */
    engine?: Partial<Pick<AppDeps, 'abstractor' | 'embedder' | 'meter' | 'taskReader'>>;
    worker?: Partial<Pick<WorkerOptions, 'leaseMs' | 'pollMs'>>;
    /** keep repositories' configuration between jobs, as `serve` does (default: read for every job) */
    configCache?: boolean;
  } = {},
): Promise<Harness> {
  const pool = options.store ? undefined : await tempPool();
  const store = options.store ?? pool!.store;
  const logs: Harness['logs'] = [];
  const logger = recordingLogger(logs);
  let skew = 0;
  const clock = options.clock ?? { now: () => new Date(Date.now() + skew) };
  const worker = createWorker({ store, logger, clock, backoffMs: 60_000, maxBackoffMs: 60_000, ...options.worker });
  const deps: AppDeps = {
    store,
    abstractor: createRulesAbstractor(),
    redactor: createRedactor(),
    logger,
    clock,
    queue: worker,
    settings: { ...settings, ...options.settings },
    ...options.engine,
    ...(options.configCache ? { configs: new ConfigCache(clock) } : {}),
  };
  const probot = new Probot({
    appId: 1,
    privateKey: testPrivateKey(),
    secret: WEBHOOK_SECRET,
    Octokit: TestOctokit,
    log: silentPino,
  });
  await probot.load(createApp(deps));
  return {
    probot,
    store,
    worker,
    deps,
    logs,
    advance: (ms) => {
      skew += ms;
    },
    cleanup: async () => pool?.cleanup(),
  };
}

/** nock scope of api.github.com with the installation token already answered. */
export function github(installationId = 1): nock.Scope {
  return nock('https://api.github.com')
    .post(`/app/installations/${installationId}/access_tokens`)
    .reply(201, { token: 'ghs_test', expires_at: '2099-01-01T00:00:00Z', permissions: {} });
}

/** The repository config files are absent: built-in defaults. */
export function noConfig(scope: nock.Scope, owner: string, repo: string): nock.Scope {
  return scope
    .get(`/repos/${owner}/${repo}/contents/${encodeURIComponent('.github/memory-transfer.yml')}`)
    .reply(404, { message: 'Not Found' })
    .get(`/repos/${owner}/.github/contents/${encodeURIComponent('.github/memory-transfer.yml')}`)
    .reply(404, { message: 'Not Found' });
}

export { silentLogger };
