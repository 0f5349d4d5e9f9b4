/** The recall API on a plain node http server (port 0) over a real SQLite pool file. */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createApiHandler, type ApiOptions } from '../../../src/app/http/api.js';
import type { AppDeps } from '../../../src/app/deps.js';
import { createRedactor } from '../../../src/security/redact.js';
import { silentLogger, systemClock, type Clock } from '../../../src/ports/index.js';
import { SqliteStore } from '../../../src/store/sqlite-store.js';

export interface ApiHarness {
  url: string;
  deps: AppDeps;
  store: SqliteStore;
  post(
    pathname: string,
    body: unknown,
    init?: { token?: string; headers?: Record<string, string>; raw?: string },
  ): Promise<{ status: number; headers: Headers; json: any; text: string }>;
  close(): Promise<void>;
}

export async function startApi(
  options: ApiOptions,
  clock: Clock = systemClock,
  githubUrl = 'https://github.com',
): Promise<ApiHarness> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mt-api-'));
  const store = await SqliteStore.open(path.join(dir, 'pool.db'));
  await store.migrate();
  const deps: AppDeps = {
    store,
    abstractor: { abstract: async () => ({ memories: [], model: 'none', writer: 'model' }) },
    redactor: createRedactor(),
    logger: silentLogger,
    clock,
    queue: { enqueue: async () => true, register: () => undefined },
    settings: { appSlug: 'memory-transfer', githubUrl, installBackfillLimit: 0 },
  };
  const handler = createApiHandler(deps, options);
  const server: Server = createServer((req, res) => {
    handler(req, res).then(
      (handled) => {
        if (!handled) res.writeHead(404, { 'content-type': 'text/plain' }).end('not mine');
      },
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    deps,
    store,
    async post(pathname, body, init = {}) {
      const response = await fetch(`${url}${pathname}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
          ...init.headers,
        },
        body: init.raw ?? JSON.stringify(body),
      });
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, json, text };
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
