/**
 * The webhook intake: a thin path at /api/github/webhooks that answers GitHub within
 * milliseconds, even with hundreds of deliveries in flight.
 *
 * For each delivery it checks the headers, verifies the HMAC-SHA256 signature over the exact bytes
 * received (constant-time), checks that the body is a JSON object (400 and nothing recorded when it
 * is not) and reads its action, and records
 * the raw delivery as one durable job keyed by the delivery id (a redelivery is recorded once).
 * Recording uses group commit: the deliveries that arrive while one write is in progress are
 * written together in ONE store transaction (`Store.enqueueJobs`), and each request is
 * acknowledged only after its batch committed. The worker then hands the delivery to Probot
 * (`probot.receive`), so the event handlers run unchanged (src/app/index.ts registers that job).
 *
 * Forged or missing signatures get 400 and nothing is recorded; events the App has no handler
 * for are acknowledged and not recorded.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { describeError } from '../core/errors.js';
import type { Logger } from '../ports/index.js';

/** The job kind of a recorded webhook delivery. */
export const WEBHOOK_JOB = 'webhook-delivery';

/**
 * The payload of a WEBHOOK_JOB: which delivery it is. The body, verified at intake, is the job's
 * raw bytes (`Job.body`), stored exactly as GitHub sent them: no parse, no escape, no
 * compression on the acknowledgement's path (deflating or JSON-escaping a 30 KB body costs
 * ~0.17 ms each, which was most of a burst's intake time).
 */
export interface WebhookDelivery {
  id: string;
  name: string;
  encoding: 'job-body';
}

/** The JSON body of a delivery recorded by an earlier version (raw DEFLATE, base64, in the payload). */
export function unpackLegacyBody(body: string): string {
  return inflateRawSync(Buffer.from(body, 'base64'), { maxOutputLength: MAX_BODY_BYTES }).toString('utf8');
}

/** GitHub caps webhook payloads at 25 MB. */
export const MAX_BODY_BYTES = 25 * 1024 * 1024;

export function webhookJobKey(deliveryId: string): string {
  return `webhook:${deliveryId}`;
}

export interface EnqueueRequest {
  key: string;
  kind: string;
  payload: unknown;
  body?: Uint8Array;
}

/** Records a batch of jobs in one write; for each, whether it was new. */
export type EnqueueBatch = (jobs: EnqueueRequest[]) => Promise<boolean[]>;

export interface GroupCommit {
  /** resolves once the job's batch committed: true when it was new */
  add(job: EnqueueRequest): Promise<boolean>;
}

/**
 * Group commit over `write`: one write at a time; the jobs added while a write is in progress
 * (or within `windowMs` of the first one) go together in the next write.
 */
export function createGroupCommit(
  write: EnqueueBatch,
  options: { windowMs?: number; maxBatch?: number } = {},
): GroupCommit {
  const windowMs = options.windowMs ?? 1;
  const maxBatch = options.maxBatch ?? 1_000;
  let waiting: { job: EnqueueRequest; resolve: (added: boolean) => void; reject: (error: unknown) => void }[] = [];
  let writing: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;

  async function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    while (waiting.length > 0) {
      const batch = waiting.slice(0, maxBatch);
      waiting = waiting.slice(batch.length);
      try {
        const added = await write(batch.map((w) => w.job));
        batch.forEach((w, i) => w.resolve(added[i] === true));
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
  }

  function schedule(): void {
    if (writing || timer) return;
    const start = (): void => {
      writing = flush().finally(() => {
        writing = undefined;
        // arrivals during the last write's final round are picked up by that loop; any left: go again
        if (waiting.length > 0) schedule();
      });
    };
    if (waiting.length >= maxBatch || windowMs <= 0) start();
    else timer = setTimeout(start, windowMs);
  }

  return {
    add(job) {
      return new Promise<boolean>((resolve, reject) => {
        waiting.push({ job, resolve, reject });
        schedule();
      });
    },
  };
}

export interface IntakeOptions {
  /** the public webhook path, e.g. /api/github/webhooks */
  path: string;
  secret: string;
  /** does the App handle this event (name, action)? Others are acknowledged without recording */
  handles: (name: string, action: string | undefined) => boolean;
  commit: GroupCommit;
  logger: Logger;
  /** default MAX_BODY_BYTES */
  maxBodyBytes?: number;
}

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

const JSON_TYPE = /^\s*application\/json\s*(?:;|$)/i;

function reply(res: ServerResponse, status: number, body: string): true {
  res.writeHead(status, { 'content-type': status === 200 ? 'text/plain' : 'application/json' }).end(body);
  return true;
}

function error(res: ServerResponse, status: number, message: string): true {
  return reply(res, status, JSON.stringify({ error: message }));
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** Reads the body up to `max` bytes; undefined when it is larger (the rest is discarded). */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? undefined : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
    req.on('error', reject);
    // a sender that hangs up mid-body: nothing to record, nobody to answer
    req.on('close', () => {
      if (!req.complete) reject(new Error('the sender closed the connection before the body ended'));
    });
  });
}

/**
 * The action of a payload; undefined for events without one. `ok` is false for a body that is not
 * a JSON object (cut mid-object, an array, a string): it is refused with 400 and never recorded,
 * so the sender learns of it instead of a worker failing on it later. The whole body is parsed
 * (~40 µs for a 30 KB delivery): a valid prefix such as `{"action":"opened",` proves nothing.
 */
export function actionOf(body: string): { ok: boolean; action?: string } {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { ok: false };
    const action = (parsed as { action?: unknown }).action;
    return typeof action === 'string' ? { ok: true, action } : { ok: true };
  } catch {
    return { ok: false };
  }
}

/**
 * Does `signature` (`sha256=<hex>`) match the HMAC-SHA256 of the exact bytes received? Constant-time.
 * Over the raw bytes, not a decoded string: no copy of the body, and bytes that are not UTF-8 are
 * checked as GitHub signed them.
 */
export function signatureMatches(secret: string | KeyObject, raw: Buffer, signature: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * The intake as a Node request handler: false (synchronously) for any other path, so it can sit
 * in front of Probot's own request listener at no cost to the other routes.
 */
export function createWebhookIntake(options: IntakeOptions): NodeHandler {
  const path = options.path.replace(/\/+$/, '') || '/';
  const max = options.maxBodyBytes ?? MAX_BODY_BYTES;
  // the secret as a key object once, not imported again for every delivery
  const secret = createSecretKey(Buffer.from(options.secret, 'utf8'));
  return (req, res) => {
    const url = req.url ?? '';
    const query = url.indexOf('?');
    const pathname = (query === -1 ? url : url.slice(0, query)).replace(/\/+$/, '') || '/';
    if (pathname !== path) return false;
    return receive(req, res, pathname);
  };

  async function receive(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<true> {
    if (req.method !== 'POST') return error(res, 404, `Unknown route: ${req.method ?? ''} ${pathname}`);
    if (!JSON_TYPE.test(req.headers['content-type'] ?? ''))
      return error(res, 415, 'Unsupported "Content-Type" header value. Must be "application/json"');
    const name = header(req, 'x-github-event');
    const id = header(req, 'x-github-delivery');
    const signature = header(req, 'x-hub-signature-256');
    if (!name || !id || !signature) {
      const missing = [
        ...(signature ? [] : ['x-hub-signature-256']),
        ...(name ? [] : ['x-github-event']),
        ...(id ? [] : ['x-github-delivery']),
      ];
      req.resume();
      return error(res, 400, `Required headers missing: ${missing.join(', ')}`);
    }
    const raw = await readBody(req, max);
    if (!raw) return error(res, 413, `payload larger than ${max} bytes`);
    if (raw.length === 0 || !signatureMatches(secret, raw, signature)) {
      options.logger.warn('webhook refused: signature does not match', { delivery: id, event: name });
      return error(res, 400, 'signature does not match event payload and secret');
    }
    const parsed = actionOf(raw.toString('utf8'));
    if (!parsed.ok) return error(res, 400, 'the payload is not a JSON object');
    if (!options.handles(name, parsed.action)) return reply(res, 200, 'ok\n');
    try {
      const delivery: WebhookDelivery = { id, name, encoding: 'job-body' };
      const added = await options.commit.add({
        key: webhookJobKey(id),
        kind: WEBHOOK_JOB,
        payload: delivery,
        body: raw,
      });
      options.logger.debug(added ? 'webhook recorded' : 'webhook redelivery ignored', { delivery: id, event: name });
      return reply(res, 200, 'ok\n');
    } catch (failure) {
      // not recorded: GitHub marks the delivery failed and it can be redelivered
      options.logger.error('could not record a webhook delivery', { delivery: id, error: describeError(failure) });
      return error(res, 503, 'could not record the delivery; retry later');
    }
  }
}
