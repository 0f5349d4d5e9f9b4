/**
 * The App's HTTP server: Probot 14 with webhooks at /api/github/webhooks, /healthz, /metrics, the recall
 * API (/api/v1/*), /mcp, the dashboard (/dashboard, src/app/http/dashboard/) and the durable job worker.
 * Without App credentials it runs Probot's manifest set-up flow from app.yml instead.
 *
 * The webhook path is a thin intake (src/app/intake.ts): it verifies each delivery's signature
 * (400 when it does not match), records the raw delivery durably with group commit and answers;
 * the worker hands it to Probot (`probot.receive`), whose handlers validate and record the
 * durable jobs that do the slow work. The intake sits in front of Probot's request listener
 * (Probot's own webhook middleware at the same path is shadowed).
 */
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino, type Logger as PinoLogger } from 'pino';
import { Probot, ProbotOctokit, Server, run } from 'probot';
import { createEndpointBreaker } from '../config/circuit-breaker.js';
import { createAbstractor } from '../abstraction/create-abstractor.js';
import { createTaskReader } from '../abstraction/llm-task-reader.js';
import { llmConfigFromEnv } from '../config/llm.js';
import { createTokenMeter } from '../core/token-usage.js';
import { createEmbedder } from '../embedding/openai-embedder.js';
import { createRedactor } from '../security/redact.js';
import {
  systemClock,
  type Abstractor,
  type Clock,
  type Embedder,
  type Logger,
  type Redactor,
  type TaskReader,
} from '../ports/index.js';
import { openStore } from '../store/open-store.js';
import type { Store } from '../store/store.js';
import type { AppDeps } from './deps.js';
import { createApp, type HandledEvents } from './index.js';
import { createGroupCommit, createWebhookIntake, type EnqueueBatch } from './intake.js';
import type { ServeConfig } from './settings.js';
import { createWorker, type Worker, type WorkerOptions } from './worker.js';
import { redactingLogger } from '../security/redact.js';
import { ConfigCache } from './interaction/config-cache.js';
import { createApiHandler, createEndpointLimiter, createRunVerifier, type ApiOptions } from './http/api.js';
import { createGitHubInstallationDirectory } from './http/installation-directory.js';
import { createMcpHandler, type McpEndpointOptions, type VoteCheck } from './http/mcp-endpoint.js';
import { hasWriteAccess } from '../github/trust.js';
import { VERSION } from '../core/version.js';
import { createMetricsHandler } from './http/metrics.js';
import { createDashboardHandler, type DashboardOptions } from './http/dashboard/handler.js';

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

export interface StartServerOptions {
  config: ServeConfig;
  /** the environment for the LLM settings (default process.env) */
  env?: Record<string, string | undefined>;
  /** an open pool (tests); otherwise config.poolLocation is opened, and closed on stop */
  store?: Store;
  abstractor?: Abstractor;
  embedder?: Embedder;
  /** reads tasks for recall (default: the configured model's, none offline) */
  taskReader?: TaskReader;
  redactor?: Redactor;
  clock?: Clock;
  /** pino logger (default: pino at config.logLevel on stdout) */
  log?: PinoLogger;
  /** Octokit class for Probot (tests turn Probot's retries off) */
  Octokit?: typeof ProbotOctokit;
  /** options of the recall API and of /mcp (tests pass a local key set) */
  api?: Partial<ApiOptions> & Pick<McpEndpointOptions, 'mayVote'>;
  /** options of /dashboard (tests pass GitHub for the signed-in person); its OAuth settings come from `env` */
  dashboard?: Omit<DashboardOptions, 'env'>;
  /** start the job worker (default true); worker options override the settings */
  worker?: boolean | Partial<Omit<WorkerOptions, 'store' | 'logger' | 'clock'>>;
  /**
   * what this process does (default 'all'). In a clustered `serve` (src/app/cluster.ts) the
   * primary is 'jobs' (the worker and the periodic sweeps, no HTTP) and each child is 'http'
   * (webhook intake, /healthz, recall API: it records jobs and never runs them).
   */
  role?: ServerRole;
  /**
   * how the webhook intake records a batch of deliveries (default: into this process's store
   * through the worker). A clustered child sends them to the primary, the pool's one writer.
   */
  recordJobs?: EnqueueBatch;
}

export type ServerRole = 'all' | 'http' | 'jobs';

export interface RunningServer {
  port: number;
  url: string;
  /** true when running Probot's manifest set-up flow (no App credentials yet) */
  setup: boolean;
  deps?: AppDeps;
  worker?: Worker;
  /** the Node HTTP server (benchmarks time requests on it) */
  http?: HttpServer;
  /**
   * records a batch of jobs in this process's pool through one group commit shared by every
   * caller (the primary of a clustered serve records its children's webhook deliveries with it);
   * absent in set-up mode
   */
  recordJobs?: EnqueueBatch;
  /** stops the HTTP server, then the worker (graceful), then closes a pool it opened */
  stop(): Promise<void>;
}

/** The Logger port over pino (Probot's logger); messages and fields are cleared of secrets first. */
export function pinoLogger(log: PinoLogger): Logger {
  const logger = redactingLogger({
    debug: (message, fields) => log.debug(fields ?? {}, message),
    info: (message, fields) => log.info(fields ?? {}, message),
    warn: (message, fields) => log.warn(fields ?? {}, message),
    error: (message, fields) => log.error(fields ?? {}, message),
  });
  // a debug line (the intake writes one per delivery) is redacted only when debug lines are written
  return {
    ...logger,
    debug: (message, fields) => {
      if (log.isLevelEnabled('debug')) logger.debug(message, fields);
    },
  };
}

const healthz: NodeHandler = (req, res) => {
  const path = (req.url ?? '').split('?')[0];
  if (path !== '/healthz' || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok' }));
  return true;
};

/**
 * Puts `handlers` (tried in order) in front of Probot's request listener: the webhook intake, the
 * health check and the recall API answer their paths before Probot's per-request logging
 * (pino-http, a child logger per request) and routing run. Probot's own webhook middleware, at the
 * same path as the intake, never sees a delivery, so it cannot run handlers before the delivery
 * is recorded. Whatever none of them takes goes on to Probot (its static files, /ping, 404).
 */
function putInFront(http: HttpServer, handlers: NodeHandler[]): void {
  const others = http.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  http.removeAllListeners('request');
  const rest = (req: IncomingMessage, res: ServerResponse): void => {
    for (const listener of others) listener.call(http, req, res);
  };
  const tryFrom = (index: number, req: IncomingMessage, res: ServerResponse): void => {
    for (let i = index; i < handlers.length; i += 1) {
      const handled = (handlers[i] as NodeHandler)(req, res);
      if (handled === true) return;
      if (handled === false) continue;
      handled.then(
        (done) => {
          if (!done) tryFrom(i + 1, req, res);
        },
        () => {
          if (!res.headersSent) res.writeHead(500).end();
        },
      );
      return;
    }
    rest(req, res);
  };
  http.on('request', (req: IncomingMessage, res: ServerResponse) => tryFrom(0, req, res));
}

/** The folder of the installed package (where app.yml lives). */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i += 1) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'app.yml'))) return dir;
    dir = resolve(dir, '..');
  }
  return process.cwd();
}

/**
 * Probot's manifest flow: a page that creates the App from app.yml and writes .env. Probot reads
 * the manifest from the working folder only: when it has none, the package's is copied there for
 * the flow and removed when the flow stops (the folder keeps only the .env the flow writes).
 */
async function startSetup(config: ServeConfig, log: PinoLogger): Promise<RunningServer> {
  const manifest = join(process.cwd(), 'app.yml');
  let copied = false;
  if (!existsSync(manifest)) {
    const source = join(packageRoot(), 'app.yml');
    if (existsSync(source)) {
      copyFileSync(source, manifest);
      copied = true;
      log.info(`copied the App manifest to ${manifest} for the set-up flow; it is removed when the flow stops`);
    }
  }
  const removeCopy = () => {
    if (copied) rmSync(manifest, { force: true });
    copied = false;
  };
  log.info('No APP_ID / PRIVATE_KEY: starting the GitHub App set-up flow (docs/app-setup.md explains each step).');
  // Probot would otherwise fetch and run smee-client to open a relay channel: only on request
  if (!config.webhookProxyUrl) process.env.NO_SMEE_SETUP ??= 'true';
  let server: Awaited<ReturnType<typeof run>>;
  try {
    server = await run(() => undefined, {
      env: {
        PORT: String(config.port),
        HOST: config.host,
        WEBHOOK_SECRET: config.webhookSecret,
        NO_SMEE_SETUP: 'true',
      },
      log,
    } as Parameters<typeof run>[1]);
  } catch (error) {
    removeCopy();
    throw error;
  }
  const port = server.port;
  log.info(`Open http://localhost:${port} to create the App on GitHub, then restart \`memory-transfer serve\`.`);
  return {
    port,
    url: `http://localhost:${port}`,
    setup: true,
    stop: async () => {
      try {
        await server.stop();
      } finally {
        removeCopy();
      }
    },
  };
}

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { config } = options;
  const log = options.log ?? pino({ level: config.logLevel, name: 'memory-transfer' });
  if (!config.credentials) return startSetup(config, log);
  const logger = pinoLogger(log);
  const clock = options.clock ?? systemClock;
  const env = options.env ?? process.env;
  const ownsStore = !options.store;
  const store = options.store ?? (await openStore(config.poolLocation, logger));
  const llm = llmConfigFromEnv(env);
  const role = options.role ?? 'all';
  const workerOptions = typeof options.worker === 'object' ? options.worker : {};
  const worker = createWorker({
    store,
    logger,
    clock,
    concurrency: config.worker.concurrency,
    leaseMs: config.worker.leaseMs,
    maxAttempts: config.worker.maxAttempts,
    ...workerOptions,
  });
  const meter = createTokenMeter();
  // one breaker for the model endpoint: a hanging one stops both the completions and the embeddings
  const breaker = createEndpointBreaker(llm, logger);
  const embedder = options.embedder ?? createEmbedder(llm, meter, breaker);
  const redactor = options.redactor ?? createRedactor();
  const taskReader = options.taskReader ?? createTaskReader(llm, logger, { meter, breaker, redactor });
  const deps: AppDeps = {
    store,
    abstractor: options.abstractor ?? createAbstractor(llm, logger, meter, breaker),
    ...(embedder ? { embedder } : {}),
    ...(taskReader ? { taskReader } : {}),
    redactor,
    logger,
    clock,
    queue: worker,
    meter,
    // each repository's configuration is read once per short while; a push that changes it drops it
    configs: new ConfigCache(clock),
    // the periodic sweeps are scheduled by one process only
    settings: role === 'http' ? { ...config.settings, sweeps: false } : config.settings,
  };
  const probotOptions = {
    appId: config.credentials.appId,
    privateKey: config.credentials.privateKey,
    secret: config.webhookSecret,
    ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
    ...(options.Octokit ? { Octokit: options.Octokit } : {}),
  };
  const runWorker = role !== 'http' && options.worker !== false;
  const localCommit = createGroupCommit((jobs) => worker.enqueueMany(jobs));
  const recordJobs: EnqueueBatch = (jobs) => Promise.all(jobs.map((job) => localCommit.add(job)));
  const stopAll = async (stopHttp: () => Promise<void>) => {
    await stopHttp();
    await worker.stop();
    if (ownsStore) await store.close();
  };
  if (role === 'jobs') {
    // no HTTP: Probot only to run the recorded deliveries through the handlers
    const probot = new Probot({ ...probotOptions, log });
    await probot.load(createApp(deps));
    if (runWorker) worker.start();
    logger.info('memory-transfer job worker is running');
    let stopped = false;
    return {
      port: 0,
      url: '',
      setup: false,
      deps,
      worker,
      recordJobs,
      async stop() {
        if (stopped) return;
        stopped = true;
        await stopAll(async () => undefined);
      },
    };
  }
  const server = new Server({
    Probot: Probot.defaults(probotOptions),
    webhookPath: config.webhookPath,
    // Probot reads a port of 0 as "unset" (3000); the string "0" asks the system for a free port
    port: config.port === 0 ? ('0' as unknown as number) : config.port,
    host: config.host,
    log,
    // development relay (smee.io)
    ...(config.webhookProxyUrl ? { webhookProxy: config.webhookProxyUrl } : {}),
  });
  let probot: Probot | undefined;
  let handled: HandledEvents | undefined;
  await server.load((app) => {
    probot = app;
    createApp(deps, (events) => (handled = events))(app);
  });
  const intake = createWebhookIntake({
    path: config.webhookPath,
    secret: config.webhookSecret,
    handles: (name, action) => handled?.handles(name, action) ?? false,
    commit: options.recordJobs ? createGroupCommit(options.recordJobs) : localCommit,
    logger,
  });
  const auth = (installationId?: number) => (probot as Probot).auth(installationId);
  const audience = env.MEMORY_TRANSFER_AUDIENCE?.trim();
  // one directory of installations (and its caches) for the recall API and /mcp
  const directory = options.api?.directory ?? createGitHubInstallationDirectory(auth, deps.clock);
  const verifierOptions = { auth, ...(audience ? { audience } : {}), ...options.api, directory };
  // one verifier (issuer, key set, audience, installations) and one set of budgets (per token,
  // repository and installation) for the recall API and /mcp
  const apiOptions = {
    ...verifierOptions,
    verify: createRunVerifier(deps, verifierOptions),
    limiter: createEndpointLimiter(deps, verifierOptions),
  };
  const api = createApiHandler(deps, apiOptions);
  // an agent's report counts only from a run whose actor has write access to the repository
  const mayVote: VoteCheck = async (run, actor) => {
    if (!actor) return 'the token names no actor';
    const gh = await (probot as Probot).auth(run.repo.installationId);
    const [owner = '', repo = ''] = run.repo.fullName.split('/');
    return (await hasWriteAccess(deps, gh, { owner, repo }, actor))
      ? undefined
      : `${actor} has no write access to ${run.repo.fullName}`;
  };
  const mcp = createMcpHandler(deps, { mayVote, version: VERSION, ...apiOptions });
  const dashboard = createDashboardHandler(deps, { env, ...options.dashboard });
  const http = await server.start();
  putInFront(http, [intake, healthz, createMetricsHandler(store), api, mcp, dashboard]);
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  if (runWorker) worker.start();
  logger.info('memory-transfer App is listening', { port, webhooks: config.webhookPath });
  let stopped = false;
  return {
    port,
    url: `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`,
    setup: false,
    deps,
    worker,
    http,
    recordJobs,
    async stop() {
      if (stopped) return;
      stopped = true;
      await stopAll(() => server.stop());
    },
  };
}
