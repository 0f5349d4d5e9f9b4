/**
 * Server-side request times for the HTTP benchmarks: a request's time runs from the moment its
 * connection was accepted (the first request of a connection; later ones from their arrival) to
 * the end of its answer, so a delivery that waited in the kernel while the event loop was busy
 * with others counts that wait too.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

const accepted = new WeakMap<Socket, number>();

export function timeRequests(server: Server | undefined, into: number[]): void {
  server?.on('connection', (socket: Socket) => accepted.set(socket, performance.now()));
  server?.on('request', (req, res) => {
    const started = accepted.get(req.socket) ?? performance.now();
    accepted.delete(req.socket);
    res.on('finish', () => into.push(performance.now() - started));
  });
}
