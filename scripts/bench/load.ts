/**
 * The load generator of the HTTP benchmarks: autocannon (pre-built requests on raw keep-alive
 * sockets, a few microseconds of client work per request) in a worker thread, so the client's own
 * work neither runs on the server's event loop nor is counted as the server's latency. On a
 * two-core machine the client still takes CPU the server could use: the figures are upper bounds.
 *
 * Each request is sent as given, in order; `connections` requests are in flight at any moment
 * (closed loop). Latency is autocannon's: from writing the request to the end of its response.
 */
import { Worker } from 'node:worker_threads';

export interface LoadRequest {
  method?: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  /** per request, in ms, sorted ascending */
  latencies: number[];
  /** how many answers had each status */
  statuses: Record<number, number>;
  /** wall time of the whole run, ms */
  elapsed: number;
  errors: number;
}

const GENERATOR = `
const { parentPort, workerData } = require('node:worker_threads');
const autocannon = require('autocannon');
const { origin, requests, connections } = workerData;
let next = 0;
const latencies = [];
const statuses = {};
const started = performance.now();
const instance = autocannon({
  url: origin,
  connections,
  amount: requests.length,
  timeout: 30,
  requests: [{
    setupRequest: (request) => {
      const r = requests[next++ % requests.length];
      return { ...request, method: r.method || 'POST', path: r.path, headers: r.headers, body: r.body };
    },
  }],
}, (error, result) => {
  if (error) parentPort.postMessage({ error: String(error) });
  else parentPort.postMessage({ latencies: latencies.sort((a, b) => a - b), statuses, elapsed: performance.now() - started, errors: result.errors + result.timeouts });
});
instance.on('response', (_client, status, _bytes, ms) => {
  latencies.push(ms);
  statuses[status] = (statuses[status] || 0) + 1;
});
`;

/** Sends `requests` to `origin` (http://host:port) with `connections` in flight; resolves with what each took. */
export function load(origin: string, requests: LoadRequest[], connections: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(GENERATOR, { eval: true, workerData: { origin, requests, connections } });
    worker.once('message', (message: LoadResult & { error?: string }) => {
      void worker.terminate();
      if (message.error) reject(new Error(message.error));
      else resolve(message);
    });
    worker.once('error', reject);
  });
}

/** The value at percentile p of an ascending list. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}
