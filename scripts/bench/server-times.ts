/**
 * Server-side request times for the HTTP benchmarks. A request's time ends when its answer is
 * written and starts at the earliest moment the server can be held to:
 * - the moment the load generator wrote it, when it says so (SENT_HEADER, epoch ms: burst() stamps
 *   every request), so a delivery that waited in the kernel's accept queue, or in the cluster
 *   primary before it was handed to this process, counts that wait too;
 * - otherwise the moment its connection was accepted (the first request of a connection; later
 *   ones from their arrival).
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** The header burst() (load.ts) stamps with the moment each request is written: epoch ms. */
export const SENT_HEADER = 'x-bench-sent';

const accepted = new WeakMap<Socket, number>();

export function timeRequests(server: Server | undefined, into: number[]): void {
  server?.on('connection', (socket: Socket) => accepted.set(socket, performance.now()));
  server?.on('request', (req, res) => {
    const sent = Number(req.headers[SENT_HEADER]);
    const arrived = accepted.get(req.socket) ?? performance.now();
    accepted.delete(req.socket);
    // the same clock in every process of this machine: epoch ms, to the microsecond
    const started = Number.isFinite(sent) && sent > 0 ? Math.min(arrived, sent - performance.timeOrigin) : arrived;
    res.on('finish', () => into.push(performance.now() - started));
  });
}
