/**
 * The webhook intake: acknowledges a GitHub delivery in about a millisecond. It checks the
 * signature (HMAC-SHA256 of the raw body with the webhook secret, compared in constant time),
 * records the raw delivery as a durable job keyed by its delivery id, and answers 200. The worker
 * then hands the delivery to Probot (`probot.receive`), whose handlers validate it and record
 * the real work. Probot's own webhook middleware builds a Context and an Octokit per delivery
 * before answering, which costs milliseconds each and adds up under a burst of deliveries.
 *
 * Unsigned or forged deliveries get 400 and nothing is recorded; events the App does not
 * subscribe to get 200 and nothing is recorded.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Probot } from 'probot';
import { z } from 'zod';
import type { Logger } from '../services/ports.js';
import type { JobQueue } from './deps.js';

export const WEBHOOK_JOB = 'webhook';

/** The events the App subscribes to (app.yml), plus the installation events every App gets. */
export const SUBSCRIBED_EVENTS = new Set([
  'pull_request',
  'issues',
  'issue_comment',
  'check_suite',
  'workflow_run',
  'repository',
  'installation',
  'installation_repositories',
]);

/** GitHub caps payloads at 25 MB. */
const MAX_BODY_BYTES = 25 * 1024 * 1024;

export interface IntakeOptions {
  secret: string;
  path: string;
  queue: JobQueue;
  logger: Logger;
}

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

function reply(res: ServerResponse, status: number, body: string): true {
  res.writeHead(status, { 'content-type': status === 200 ? 'text/plain' : 'application/json' }).end(body);
  return true;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** True when `signature` is `sha256=<hex>` of the body with the secret. */
export function verifySignature(secret: string, body: Buffer, signature: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function createWebhookIntake(options: IntakeOptions): NodeHandler {
  return async (req, res) => {
    const path = (req.url ?? '').split('?')[0]?.replace(/\/+$/, '');
    if (path !== options.path) return false;
    if (req.method !== 'POST')
      return reply(res, 404, JSON.stringify({ error: `Unknown route: ${req.method} ${path}` }));
    if (!/^\s*application\/json\s*(;|$)/i.test(header(req, 'content-type') ?? '')) {
      return reply(
        res,
        415,
        JSON.stringify({ error: 'Unsupported "Content-Type" header value. Must be "application/json"' }),
      );
    }
    const name = header(req, 'x-github-event');
    const id = header(req, 'x-github-delivery');
    const signature = header(req, 'x-hub-signature-256');
    const missing = [!name && 'x-github-event', !signature && 'x-hub-signature-256', !id && 'x-github-delivery'].filter(
      Boolean,
    );
    if (missing.length > 0)
      return reply(res, 400, JSON.stringify({ error: `Required headers missing: ${missing.join(', ')}` }));
    const body = await readBody(req);
    if (!body) return reply(res, 413, JSON.stringify({ error: 'payload too large' }));
    if (!verifySignature(options.secret, body, signature as string)) {
      options.logger.warn('webhook refused: signature does not match', { event: name, delivery: id });
      return reply(res, 400, JSON.stringify({ error: 'signature does not match event payload and secret' }));
    }
    if (!SUBSCRIBED_EVENTS.has(name as string)) return reply(res, 200, 'ok\n');
    const added = await options.queue.enqueue(`webhook:${id}`, WEBHOOK_JOB, { id, name, body: body.toString('utf8') });
    if (!added) options.logger.debug('redelivery ignored', { event: name, delivery: id });
    return reply(res, 200, 'ok\n');
  };
}

const WebhookJob = z.object({ id: z.string().min(1), name: z.string().min(1), body: z.string() });

/** The worker side: hands a recorded delivery to Probot's handlers. */
export function registerWebhookJob(queue: JobQueue, probot: Probot, logger: Logger): void {
  queue.register(WEBHOOK_JOB, async (raw) => {
    const job = WebhookJob.parse(raw);
    let payload: unknown;
    try {
      payload = JSON.parse(job.body);
    } catch {
      logger.warn('webhook ignored: the body is not JSON', { event: job.name, delivery: job.id });
      return;
    }
    await probot.receive({ id: job.id, name: job.name, payload } as Parameters<Probot['receive']>[0]);
  });
}
