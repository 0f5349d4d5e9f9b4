/**
 * A local OpenAI-compatible HTTP server for the LLM path's fault tests: a real socket on
 * 127.0.0.1 (a random port), not an HTTP mock. Each endpoint answers from a queue of scripted
 * replies, in order; a request with no reply left gets a 500 and is counted as unexpected.
 * `holdUntil(n)` keeps answers back until n requests wait at once (proves calls run in parallel,
 * without timing). `close()` ends hanging requests too; `leftover()` counts replies never asked
 * for and requests that found none.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Endpoint = 'chat' | 'embeddings';

export type Reply =
  /** a JSON body (status 200 unless given) */
  | { status?: number; json: unknown; headers?: Record<string, string> }
  /** raw bytes as the body (e.g. not JSON at all) */
  | { status?: number; text: string; headers?: Record<string, string> }
  /** never answers: the client's timeout has to end it */
  | { hang: true };

export interface RecordedRequest {
  endpoint: Endpoint;
  authorization: string | undefined;
  body: Record<string, unknown>;
}

export interface FakeOpenAI {
  /** the base URL to give as OPENAI_BASE_URL (ends with /v1) */
  baseURL: string;
  requests: RecordedRequest[];
  /** queues replies for an endpoint, answered in order */
  reply(endpoint: Endpoint, ...replies: Reply[]): void;
  /** answers of this endpoint wait until this many of its requests are waiting at once (then all go) */
  holdUntil(waiting: number, endpoint?: Endpoint): void;
  /** the most requests that were waiting for an answer at once */
  maxInFlight(): number;
  /** replies queued but never asked for, and requests that found no reply */
  leftover(): { unused: number; unexpected: number };
  close(): Promise<void>;
}

const PATHS: Record<string, Endpoint> = { '/v1/chat/completions': 'chat', '/v1/embeddings': 'embeddings' };

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const queues: Record<Endpoint, Reply[]> = { chat: [], embeddings: [] };
  const requests: RecordedRequest[] = [];
  let unexpected = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const hold: Record<Endpoint, number> = { chat: 0, embeddings: 0 };
  const held: Record<Endpoint, (() => void)[]> = { chat: [], embeddings: [] };

  const answer = (res: ServerResponse, reply: Reply) => {
    if ('hang' in reply) return;
    const body = 'json' in reply ? JSON.stringify(reply.json) : reply.text;
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers }).end(body);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const endpoint = PATHS[(req.url ?? '').split('?')[0] ?? ''];
      const reply = endpoint ? queues[endpoint].shift() : undefined;
      if (!endpoint || !reply) {
        unexpected += 1;
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"unexpected request"}}');
        return;
      }
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        // recorded as an empty body
      }
      requests.push({ endpoint, authorization: req.headers.authorization, body });
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      res.on('close', () => (inFlight -= 1));
      held[endpoint].push(() => answer(res, reply));
      if (held[endpoint].length >= hold[endpoint]) for (const release of held[endpoint].splice(0)) release();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    reply(endpoint, ...replies) {
      queues[endpoint].push(...replies);
    },
    holdUntil(waiting, endpoint = 'chat') {
      hold[endpoint] = waiting;
    },
    maxInFlight: () => maxInFlight,
    leftover: () => ({ unused: queues.chat.length + queues.embeddings.length, unexpected }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A chat completion whose message content is `content` (a string, or JSON of an object), with token usage. */
export function chatReply(content: unknown, usage = { prompt_tokens: 900, completion_tokens: 300 }): Reply {
  return {
    json: {
      id: 'chatcmpl-local',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-5-mini',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: typeof content === 'string' ? content : JSON.stringify(content),
            refusal: null,
          },
          finish_reason: 'stop',
        },
      ],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    },
  };
}

let embeddingSeed = 0;
/** A pseudo-random component in [-1, 1): each reply's vectors differ (no accidental near-duplicates). */
const noise = (x: number) => {
  const v = Math.sin(x) * 43758.5453;
  return (v - Math.floor(v)) * 2 - 1;
};

/** An embeddings answer: one vector of `dimensions` per input (different for every reply), with token usage. */
export function embeddingsReply(inputs: number, dimensions: number, tokens = 50): Reply {
  const seed = (embeddingSeed += 1);
  return {
    json: {
      object: 'list',
      model: 'text-embedding-3-small',
      data: Array.from({ length: inputs }, (_, index) => ({
        object: 'embedding',
        index,
        embedding: Array.from({ length: dimensions }, (_, k) => noise(seed * 12.9898 + index * 78.233 + k * 37.719)),
      })),
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    },
  };
}

/** An OpenAI-style error answer. */
export function errorReply(status: number, message: string, headers: Record<string, string> = {}): Reply {
  return { status, json: { error: { message, type: 'error', code: null } }, headers };
}
