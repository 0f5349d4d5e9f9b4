/**
 * The load generators of the HTTP benchmarks, in a worker thread so the client's work neither
 * runs on the server's event loop nor is counted as the server's latency (on a two-core machine
 * the client still takes CPU the server could use: the figures are upper bounds).
 * - load(): `connections` keep-alive connections, each sending its next request as soon as the
 *   last one is answered (closed loop); latency from writing a request to the end of its answer.
 * - burst(): every request on a connection of its own, all at once (webhook senders).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { SENT_HEADER, timeRequests } from './server-times.js';

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

// The closed-loop generator: plain keep-alive sockets, each request's bytes built once, answers
// read by Content-Length (the API always sends it). A general-purpose client (fetch, autocannon)
// spends ~0.2 ms of its own per request; on two cores that alone put p95 near 30 ms against a
// server that answers at once. One thread for the whole run, so its code stays compiled.
const GENERATOR = `
const { parentPort } = require('node:worker_threads');
const net = require('node:net');
parentPort.on('message', ({ host, port, payloads, connections }) => {
  const latencies = [];
  const statuses = {};
  let next = 0;
  let errors = 0;
  const started = performance.now();
  const connection = () => new Promise((done) => {
    const socket = net.connect(port, host);
    socket.setNoDelay(true);
    let buffer = Buffer.alloc(0);
    let t0 = 0;
    const send = () => {
      if (next >= payloads.length) { socket.end(); return done(); }
      t0 = performance.now();
      socket.write(payloads[next++]);
    };
    socket.on('connect', send);
    socket.on('error', () => { errors += 1; done(); });
    socket.on('data', (chunk) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\\r\\n\\r\\n');
        if (end === -1) return;
        const head = buffer.toString('latin1', 0, end);
        const length = Number(/\\r\\ncontent-length: *(\\d+)/i.exec(head)?.[1] ?? NaN);
        let size;
        if (Number.isFinite(length)) size = end + 4 + length;
        else if (/\\r\\ntransfer-encoding: *chunked/i.test(head)) {
          const last = buffer.indexOf('\\r\\n0\\r\\n\\r\\n', end);
          size = last === -1 ? Infinity : last + 7;
        } else { errors += 1; socket.destroy(); return done(); }
        if (buffer.length < size) return;
        const status = Number(head.slice(9, 12));
        statuses[status] = (statuses[status] || 0) + 1;
        latencies.push(performance.now() - t0);
        buffer = buffer.subarray(size);
        send();
      }
    });
  });
  Promise.all(Array.from({ length: connections }, connection)).then(() => {
    parentPort.postMessage({ latencies: latencies.sort((a, b) => a - b), statuses, elapsed: performance.now() - started, errors });
  });
});
`;

const SENT_STAMP_WIDTH = 24;

/**
 * A request's bytes on the wire, built once before the clock starts. With `stamp`, the first
 * header is SENT_HEADER with room for the send time, written in place just before sending.
 */
function requestBytes(r: LoadRequest, host: string, port: string, close: boolean, stamp = false): Buffer {
  const body = Buffer.from(r.body ?? '');
  let head = `${r.method ?? 'POST'} ${r.path} HTTP/1.1\r\n`;
  if (stamp) head += `${SENT_HEADER}: ${' '.repeat(SENT_STAMP_WIDTH)}\r\n`;
  head += `host: ${host}:${port}\r\n`;
  if (close) head += 'connection: close\r\n';
  for (const [name, value] of Object.entries(r.headers)) head += `${name}: ${value}\r\n`;
  head += `content-length: ${body.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

let generator: Worker | undefined;
let queue: Promise<unknown> = Promise.resolve();

/** Sends `requests` to `origin` (http://host:port) with `connections` in flight; resolves with what each took. */
export function load(origin: string, requests: LoadRequest[], connections: number): Promise<LoadResult> {
  const { hostname, port } = new URL(origin);
  const run = queue.then(
    () =>
      new Promise<LoadResult>((resolve, reject) => {
        if (!generator) {
          generator = new Worker(GENERATOR, { eval: true });
          generator.unref();
        }
        const thread = generator;
        const onError = (error: Error) => {
          generator = undefined;
          reject(error);
        };
        thread.once('error', onError);
        thread.once('message', (message: LoadResult) => {
          thread.off('error', onError);
          resolve(message);
        });
        const payloads = requests.map((r) => requestBytes(r, hostname, port, false));
        thread.postMessage({ host: hostname, port: Number(port), payloads, connections });
      }),
  );
  queue = run.catch(() => undefined);
  return run;
}

const BURST = `
const { parentPort, workerData } = require('node:worker_threads');
const net = require('node:net');
const { host, port, payloads, stampPrefix, stampWidth } = workerData;
const started = performance.now();
Promise.all(payloads.map((bytes) => new Promise((resolve) => {
  const payload = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const t0 = performance.now();
  const socket = net.connect(port, host);
  socket.setNoDelay(true);
  const stampAt = payload.indexOf(stampPrefix) + stampPrefix.length;
  socket.once('connect', () => {
    payload.write(String(performance.timeOrigin + performance.now()).padEnd(stampWidth).slice(0, stampWidth), stampAt, 'latin1');
    socket.write(payload);
  });
  let first = '';
  socket.on('data', (chunk) => { if (first.length < 16) first += chunk.toString('latin1', 0, 16); });
  socket.on('error', () => resolve({ status: 0, ms: performance.now() - t0 }));
  socket.on('end', () => { resolve({ status: Number(first.slice(9, 12)) || 0, ms: performance.now() - t0 }); socket.destroy(); });
}))).then((results) => {
  const statuses = {};
  for (const r of results) statuses[r.status] = (statuses[r.status] || 0) + 1;
  parentPort.postMessage({ latencies: results.map((r) => r.ms).sort((a, b) => a - b), statuses, elapsed: performance.now() - started, errors: statuses[0] || 0 });
});
`;

/**
 * Opens one connection per request and sends them all at once (Connection: close, as a webhook
 * sender does); each latency runs from opening the connection to the end of the answer, so it
 * counts accepting the connection too. Each request carries the moment it was written
 * (SENT_HEADER), for the server to time it from there (server-times.ts). Plain sockets in a worker
 * thread: microseconds of client work per request.
 */
export function burst(origin: string, requests: LoadRequest[]): Promise<LoadResult> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const payloads = requests.map((r) => requestBytes(r, hostname, port, true, true));
    const workerData = {
      host: hostname,
      port: Number(port),
      payloads,
      stampPrefix: `\r\n${SENT_HEADER}: `,
      stampWidth: SENT_STAMP_WIDTH,
    };
    const worker = new Worker(BURST, { eval: true, workerData });
    worker.once('message', (message: LoadResult) => {
      void worker.terminate();
      resolve(message);
    });
    worker.once('error', reject);
  });
}

/** percentile p of an ascending list, as milliseconds with one decimal */
export const ms = (sorted: number[], p: number): string => percentile(sorted, p).toFixed(1);

/** The value at percentile p of an ascending list. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

/**
 * The floor of a figure on this machine: the same requests against a Node HTTP server (on this
 * thread) that reads each body and answers at once, with the same load generator. Resolves with
 * what `send` resolved with and the server-side times (server-times.ts), ascending.
 */
export async function againstNoopServer<T>(send: (origin: string) => Promise<T>): Promise<[T, number[]]> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 }).end('{}'));
  });
  const serverMs: number[] = [];
  timeRequests(server, serverMs);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const result = await send(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return [result, serverMs.sort((a, b) => a - b)];
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
