/**
 * The App's settings from the environment (and `serve` flags), parsed with zod: a bad value is
 * one line naming the variable. Credentials may be absent (then `serve` offers Probot's manifest
 * set-up flow); a missing or default WEBHOOK_SECRET is refused unless in development mode.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { InputError } from '../core/errors.js';
import { defaultPoolLocation } from '../store/open-store.js';
import type { AppSettings } from './deps.js';

export interface ServeFlags {
  dev?: boolean;
  port?: number;
  host?: string;
  /** the pool location (--db) */
  db?: string;
  /** HTTP processes (--processes) */
  processes?: number;
}

export interface AppCredentials {
  appId: number;
  privateKey: string;
}

export interface ServeConfig {
  settings: AppSettings;
  /** absent: the App is not created yet (set-up mode) */
  credentials?: AppCredentials;
  webhookSecret: string;
  /** development mode: the default secret is accepted */
  dev: boolean;
  port: number;
  host: string;
  webhookPath: string;
  /** GitHub Enterprise Server API URL, e.g. https://ghe.example.com/api/v3 */
  baseUrl?: string;
  webhookProxyUrl?: string;
  poolLocation: string;
  logLevel: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';
  worker: { concurrency: number; leaseMs: number; maxAttempts: number };
  /**
   * HTTP processes sharing the port (src/app/cluster.ts); 1 runs everything in one process.
   * Default: `defaultProcesses(cores)`, and 1 in development, behind a webhook relay, or on an
   * in-memory pool.
   */
  processes: number;
}

/** Probot's well-known placeholder secret: never accepted outside development. */
export const DEVELOPMENT_SECRET = 'development';
export const WEBHOOK_PATH = '/api/github/webhooks';

const intFrom = (min: number, max: number) => z.coerce.number().int('must be a whole number').min(min).max(max);
const truthy = z
  .string()
  .optional()
  .transform((v) => v === '1' || v?.toLowerCase() === 'true');

const EnvSchema = z.object({
  APP_ID: intFrom(1, Number.MAX_SAFE_INTEGER).optional(),
  PRIVATE_KEY: z.string().min(1).optional(),
  PRIVATE_KEY_PATH: z.string().min(1).optional(),
  WEBHOOK_SECRET: z.string().optional(),
  PORT: intFrom(0, 65_535).default(3000),
  HOST: z.string().min(1).optional(),
  APP_SLUG: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,33}$/, 'must be the App slug in lower case, like "memory-transfer"')
    .default('memory-transfer'),
  GHE_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.-]+(:\d+)?$/, 'must be a host name like github.example.com')
    .optional(),
  GHE_PROTOCOL: z.enum(['https', 'http']).default('https'),
  INSTALL_BACKFILL_LIMIT: intFrom(0, 10_000).default(50),
  WORKER_CONCURRENCY: intFrom(1, 64).default(4),
  JOB_LEASE_SECONDS: intFrom(10, 24 * 3600).default(300),
  JOB_MAX_ATTEMPTS: intFrom(1, 50).default(6),
  MEMORY_TRANSFER_DEV: truthy,
  WEBHOOK_PROXY_URL: z.url().optional(),
  MEMORY_TRANSFER_PROCESSES: intFrom(1, 64).optional(),
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
});

/** Accepts a PEM with real or escaped (`\n`) new lines, or the PEM base64-encoded on one line. */
export function normalizePrivateKey(raw: string): string {
  const text = raw.trim().replace(/^"|"$/g, '');
  if (text.includes('-----BEGIN')) return `${text.replace(/\\n/g, '\n').trim()}\n`;
  const decoded = Buffer.from(text, 'base64').toString('utf8');
  if (decoded.includes('-----BEGIN')) return `${decoded.trim()}\n`;
  throw new InputError(
    'PRIVATE_KEY: is not a PEM private key (paste the .pem content, or set PRIVATE_KEY_PATH to the file)',
  );
}

function readKey(env: z.infer<typeof EnvSchema>): string | undefined {
  if (env.PRIVATE_KEY) return normalizePrivateKey(env.PRIVATE_KEY);
  if (env.PRIVATE_KEY_PATH) {
    let text: string;
    try {
      text = readFileSync(env.PRIVATE_KEY_PATH, 'utf8');
    } catch {
      throw new InputError(`PRIVATE_KEY_PATH: cannot read ${env.PRIVATE_KEY_PATH}`);
    }
    return normalizePrivateKey(text);
  }
  return undefined;
}

/**
 * Reads the environment. Throws InputError naming the variable for a bad value, and for a
 * missing or default WEBHOOK_SECRET outside development (`--dev` or MEMORY_TRANSFER_DEV=1).
 */
export function readServeConfig(rawEnv: Record<string, string | undefined>, flags: ServeFlags = {}): ServeConfig {
  const cleaned = Object.fromEntries(Object.entries(rawEnv).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InputError(`${String(issue?.path[0] ?? 'environment')}: ${issue?.message ?? 'invalid value'}`);
  }
  const env = parsed.data;
  const dev = flags.dev === true || env.MEMORY_TRANSFER_DEV;
  const secret = env.WEBHOOK_SECRET?.trim() ?? '';
  const setupMode = env.APP_ID === undefined && env.PRIVATE_KEY === undefined && env.PRIVATE_KEY_PATH === undefined;
  // set-up mode receives no webhooks: the secret comes with the App it creates
  if (!dev && !setupMode && (secret === '' || secret === DEVELOPMENT_SECRET)) {
    throw new InputError(
      `WEBHOOK_SECRET: ${secret ? 'is the default "development"' : 'is not set'}; set it to your GitHub App's webhook secret ` +
        '(docs/app-setup.md), or run `serve --dev` for local development only',
    );
  }
  const privateKey = readKey(env);
  if (env.APP_ID !== undefined && privateKey === undefined) {
    throw new InputError(
      'PRIVATE_KEY: is not set (APP_ID is): set PRIVATE_KEY or PRIVATE_KEY_PATH to the App private key (docs/app-setup.md)',
    );
  }
  if (privateKey !== undefined && env.APP_ID === undefined) {
    throw new InputError('APP_ID: is not set (a private key is): set it to the App ID shown on the App settings page');
  }
  const gheHost = env.GHE_HOST;
  const poolLocation = flags.db?.trim() || defaultPoolLocation(rawEnv);
  const processes = flags.processes ?? env.MEMORY_TRANSFER_PROCESSES;
  const single = dev || env.WEBHOOK_PROXY_URL !== undefined || poolLocation === ':memory:';
  if (processes !== undefined && processes > 1 && single) {
    throw new InputError(
      `MEMORY_TRANSFER_PROCESSES: must be 1 ${dev ? 'in development mode' : poolLocation === ':memory:' ? 'with an in-memory pool (each process would have its own)' : 'with WEBHOOK_PROXY_URL (each process would relay every delivery)'}`,
    );
  }
  return {
    settings: {
      appSlug: env.APP_SLUG,
      githubUrl: gheHost ? `${env.GHE_PROTOCOL}://${gheHost}` : 'https://github.com',
      installBackfillLimit: env.INSTALL_BACKFILL_LIMIT,
    },
    ...(env.APP_ID !== undefined && privateKey !== undefined ? { credentials: { appId: env.APP_ID, privateKey } } : {}),
    webhookSecret: secret || DEVELOPMENT_SECRET,
    dev,
    port: flags.port ?? env.PORT,
    host: flags.host ?? env.HOST ?? (dev ? 'localhost' : '0.0.0.0'),
    webhookPath: WEBHOOK_PATH,
    ...(gheHost ? { baseUrl: `${env.GHE_PROTOCOL}://${gheHost}/api/v3` } : {}),
    ...(env.WEBHOOK_PROXY_URL ? { webhookProxyUrl: env.WEBHOOK_PROXY_URL } : {}),
    poolLocation,
    processes: processes ?? (single ? 1 : defaultProcesses(availableParallelism())),
    logLevel: env.LOG_LEVEL,
    worker: {
      concurrency: env.WORKER_CONCURRENCY,
      leaseMs: env.JOB_LEASE_SECONDS * 1000,
      maxAttempts: env.JOB_MAX_ATTEMPTS,
    },
  };
}

/**
 * HTTP processes `serve` runs unless told: one per core beyond the one the primary (the pool's
 * writer and the job worker) needs, up to 4; on two cores or fewer, one process doing everything.
 * Measured on two cores (docs/quality.md): every child there shares a core with the primary and a
 * delivery waits for the hand-off of its connection, so one process acknowledges a burst sooner.
 */
export function defaultProcesses(cores: number): number {
  return cores <= 2 ? 1 : Math.min(4, cores - 1);
}
