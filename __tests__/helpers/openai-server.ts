/**
 * A local OpenAI-compatible HTTP server for the LLM path's fault tests: a server process of its own
 * (openai-server-child.mjs, forked) listening on a real socket on 127.0.0.1 (a random port), not an
 * HTTP mock. The child accepts each request and asks this process, over IPC, what to answer: each
 * endpoint answers from a queue of scripted replies, in order; a request with no reply left gets a
 * 500 and is counted as unexpected. So the tests script replies synchronously while the client
 * talks to another process. `holdUntil(n)` keeps answers back until n requests wait at once
 * (proves calls run in parallel, without timing). `close()` ends the process and its hanging
 * requests; `leftover()` counts replies never asked for and requests that found none.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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
  /** the server process's id (not this process) */
  pid: number;
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
const CHILD = fileURLToPath(new URL('./openai-server-child.mjs', import.meta.url));

type FromChild =
  | { type: 'listening'; port: number }
  | { type: 'request'; id: number; url: string; authorization: string | null; body: string }
  | { type: 'closed'; id: number };

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const queues: Record<Endpoint, Reply[]> = { chat: [], embeddings: [] };
  const requests: RecordedRequest[] = [];
  let unexpected = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const open = new Set<number>();
  const hold: Record<Endpoint, number> = { chat: 0, embeddings: 0 };
  const held: Record<Endpoint, (() => void)[]> = { chat: [], embeddings: [] };

  const child = fork(CHILD, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const send = (id: number, status: number, body: string, headers: Record<string, string> = {}) =>
    child.connected &&
    child.send({ type: 'answer', id, status, body, headers: { 'content-type': 'application/json', ...headers } });
  const answer = (id: number, reply: Reply) => {
    if ('hang' in reply) return;
    send(id, reply.status ?? 200, 'json' in reply ? JSON.stringify(reply.json) : reply.text, reply.headers);
  };

  const onRequest = ({ id, url, authorization, body: raw }: Extract<FromChild, { type: 'request' }>) => {
    const endpoint = PATHS[url.split('?')[0] ?? ''];
    const reply = endpoint ? queues[endpoint].shift() : undefined;
    if (!endpoint || !reply) {
      unexpected += 1;
      send(id, 500, '{"error":{"message":"unexpected request"}}');
      return;
    }
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      // recorded as an empty body
    }
    requests.push({ endpoint, authorization: authorization ?? undefined, body });
    inFlight += 1;
    open.add(id);
    maxInFlight = Math.max(maxInFlight, inFlight);
    held[endpoint].push(() => answer(id, reply));
    if (held[endpoint].length >= hold[endpoint]) for (const release of held[endpoint].splice(0)) release();
  };

  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (message: FromChild) => {
      if (message.type === 'listening') resolve(message.port);
      else if (message.type === 'request') onRequest(message);
      else if (message.type === 'closed' && open.delete(message.id)) inFlight -= 1;
    });
  });

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    pid: child.pid ?? 0,
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
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        if (child.connected) child.send({ type: 'close' });
        else child.kill();
      }),
  };
}

/** A chat completion whose message content is `content` (a string, or JSON of an object), with token usage. */
export function chatReply(content: unknown, usage = { prompt_tokens: 900, completion_tokens: 300 }): Reply {
  return { json: chatCompletion(content, usage) };
}

/** The body of a chat completion whose message content is `content` (for a nock reply too). */
export function chatCompletion(content: unknown, usage = { prompt_tokens: 900, completion_tokens: 300 }) {
  return {
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
