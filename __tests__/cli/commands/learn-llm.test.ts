/**
 * `learn` and `reembed` with a model, against a local OpenAI-compatible server (a real socket):
 * fixes learned by fallback are counted and abstracted again by the next run, an API key refused
 * stops the run, the breaker spares a failing provider, calls run in parallel, tokens are reported,
 * and missing vectors are filled in.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/open-store.js';
import { goodAnswer } from '../../abstraction/llm-fixtures.js';
import {
  chatReply,
  embeddingsReply,
  errorReply,
  startFakeOpenAI,
  type FakeOpenAI,
} from '../../helpers/openai-server.js';
import { runCli, type CliRun } from '../../helpers/run-cli.js';

let tmp: string;
let db: string;
let server: FakeOpenAI;
beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'mt-cli-llm-'));
  db = join(tmp, 'pool.db');
  server = await startFakeOpenAI();
});
afterEach(async () => {
  const leftover = server.leftover();
  await server.close();
  await rm(tmp, { recursive: true, force: true });
  expect(leftover, 'every scripted reply was asked for, and nothing else').toEqual({ unused: 0, unexpected: 0 });
});

/** Fixes whose model answers are distinct (no merge between them). */
async function fixesFile(count: number): Promise<string> {
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      title: `Crash when the request body is empty (case ${i + 1})`,
      problem: 'Posting an empty body made the handler throw instead of answering 400.',
      change: '+  if (!body) return badRequest();',
      files: ['src/handler.ts', 'test/handler.test.ts'],
      repo: 'acme/api',
      ref: `#${i + 1}`,
      source_kind: 'pull_request',
    }),
  );
  const file = join(tmp, 'fixes.jsonl');
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

const online = (extra: Record<string, string> = {}) => ({
  OPENAI_API_KEY: 'sk-local',
  OPENAI_BASE_URL: server.baseURL,
  MEMORY_TRANSFER_LLM_RETRIES: '0',
  MEMORY_TRANSFER_EMBED_DIMENSIONS: '8',
  ...extra,
});

const cli = (args: string[], env: Record<string, string>): Promise<CliRun> => runCli([...args, '--db', db], tmp, env);

/** The model's answer for fix i: each its own lesson, so the fixes do not merge. */
const LESSONS = [
  {
    title: 'Answer an empty request body with a client error',
    description: 'Use this when a handler reads a request body that may be missing.',
    content: 'Send an empty body and assert a 400 answer instead of a crash.',
  },
  {
    title: 'Reject a body larger than the limit before parsing it',
    description: 'Use this when a service accepts uploads or large payloads.',
    content: 'Post a payload one byte over the limit and assert it is refused before any parsing starts.',
  },
  {
    title: 'Keep the time zone of timestamps read from headers',
    description: 'Use this when dates travel in HTTP headers between services.',
    content: 'Parse a header date in a non-UTC zone and assert the instant is unchanged after a round trip.',
  },
];
const answerFor = (i: number) => chatReply({ ...goodAnswer, insight: LESSONS[(i - 1) % LESSONS.length] });

async function fixState(ref: string) {
  const store = await openStore(db);
  try {
    const fix = await store.learnedFix('acme', 'acme/api', ref);
    const models = (await store.listMemories('acme')).filter((m) => m.provenance.some((p) => p.ref === ref));
    return { fix, models: [...new Set(models.map((m) => m.model))] };
  } finally {
    await store.close();
  }
}

describe('memory-transfer learn with a model', () => {
  it('counts fixes learned by rules because the model failed, and abstracts them again on the next run without --force', async () => {
    const file = await fixesFile(2);
    server.reply('chat', errorReply(500, 'overloaded'), errorReply(500, 'overloaded'));
    server.reply('embeddings', embeddingsReply(1, 8), embeddingsReply(1, 8));
    const first = await cli(['learn', '--fixes', file], online());
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^2 learned by rules because the model failed: HTTP 500: 500 overloaded \(2\); the next learn run with the model abstracts them again \(no --force needed\)$/m,
    );
    expect(await fixState('#1')).toEqual({ fix: { fallback: 'HTTP 500: 500 overloaded' }, models: ['rules@1'] });
    expect((await cli(['stats'], {})).stdout).toContain(
      'fixes     2 learned, 2 behind an insight; 2 learned by rules because the model failed: the next learn with a model retries them',
    );

    // an offline run leaves them alone: the rules would write the same thing again
    const offline = await cli(['learn', '--fixes', file, '--json'], {});
    expect(JSON.parse(offline.stdout)).toMatchObject({ fixes: 2, skipped: 2, retried: 0, fallbacks: 0 });
    expect((await fixState('#1')).fix).toEqual({ fallback: 'HTTP 500: 500 overloaded' });

    // the model is back: both fixes are abstracted again, without --force
    server.reply('chat', answerFor(1), answerFor(2));
    server.reply('embeddings', embeddingsReply(1, 8), embeddingsReply(1, 8));
    const second = await cli(['learn', '--fixes', file, '--json'], online());
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ fixes: 2, skipped: 0, retried: 2, fallbacks: 0 });
    expect(await fixState('#1')).toEqual({ fix: {}, models: ['gpt-5-mini'] });
    // the model's text replaces the rules' (nothing of the rules' template is glued on)
    const store = await openStore(db);
    try {
      const insights = await store.listMemories('acme', { level: ['insight'] });
      expect(insights.map((m) => m.content).sort()).toEqual([LESSONS[0]!.content, LESSONS[1]!.content].sort());
    } finally {
      await store.close();
    }

    // and then they are learned for good
    const third = await cli(['learn', '--fixes', file, '--json'], online());
    expect(JSON.parse(third.stdout)).toMatchObject({ fixes: 2, skipped: 2, retried: 0 });
  });

  it('stops with exit 1 and one clear line when the endpoint refuses the API key, learning nothing', async () => {
    const file = await fixesFile(3);
    server.reply('chat', errorReply(401, 'Incorrect API key provided: sk-local'));
    const run = await cli(['learn', '--fixes', file], online({ MEMORY_TRANSFER_LLM_CONCURRENCY: '1' }));
    expect(run.code).toBe(1);
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe(
      'memory-transfer: the model endpoint refused the API key (401): check OPENAI_API_KEY',
    );
    expect(run.stdout).toBe('');
    expect(await fixState('#1')).toEqual({ fix: undefined, models: [] });
    expect(server.requests).toHaveLength(1);
  });

  it('stops calling a hanging provider after the breaker opens, and says why each fix went to the rules', async () => {
    const file = await fixesFile(4);
    server.reply('chat', { hang: true }, { hang: true });
    // the first fix's embedding answers; once the breaker is open, no embedding is asked for either
    server.reply('embeddings', embeddingsReply(1, 8));
    const run = await cli(
      ['learn', '--fixes', file, '--json'],
      online({
        MEMORY_TRANSFER_LLM_TIMEOUT_MS: '200',
        MEMORY_TRANSFER_LLM_CONCURRENCY: '1',
        MEMORY_TRANSFER_LLM_BREAKER_FAILURES: '2',
      }),
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      fixes: 4,
      fallbacks: 4,
      fallbackReasons: { timeout: 2, 'circuit open': 2 },
    });
    expect(server.requests.filter((r) => r.endpoint === 'chat')).toHaveLength(2);
    expect(server.requests.filter((r) => r.endpoint === 'embeddings')).toHaveLength(1);
  });

  it('keeps several calls in flight, learns every fix, and reports the tokens used', async () => {
    const file = await fixesFile(3);
    server.holdUntil(3);
    server.reply('chat', answerFor(1), answerFor(2), answerFor(3));
    server.reply('embeddings', ...Array.from({ length: 3 }, () => embeddingsReply(1, 8)));
    // one at a time, the first call would wait for the other two forever (here: 20 s, then fall back)
    const run = await cli(
      ['learn', '--fixes', file, '--json'],
      online({ MEMORY_TRANSFER_LLM_CONCURRENCY: '3', MEMORY_TRANSFER_LLM_TIMEOUT_MS: '20000' }),
    );
    expect(server.maxInFlight()).toBe(3);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({ fixes: 3, created: 12, fallbacks: 0 });
    expect(summary.tokens).toMatchObject({ chatCalls: 3, promptTokens: 2700, completionTokens: 900 });
  });

  it('prints the token use and the fallbacks in the text summary', async () => {
    const file = await fixesFile(1);
    server.reply('chat', chatReply(goodAnswer, { prompt_tokens: 1234, completion_tokens: 56 }));
    server.reply('embeddings', embeddingsReply(1, 8, 7));
    const run = await cli(['learn', '--fixes', file], online());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('tokens: 1,234 prompt + 56 completion tokens in 1 call; 7 embedding tokens');
    expect(run.stdout).not.toContain('learned by rules');
  });
});

/** An endpoint that accepts every connection and request and never answers; counts the requests. */
async function startSilentEndpoint(): Promise<{ baseURL: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const silent = createServer((req) => void requests.push(req.url ?? ''));
  silent.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  return {
    baseURL: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`,
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    },
  };
}

describe('learn against an endpoint that accepts connections and never answers', () => {
  it('one breaker for completions and embeddings: 20 fixes pay the first few timeouts, then the rules learn them without vectors; reembed fills them in', async () => {
    const silent = await startSilentEndpoint();
    const file = await fixesFile(20);
    let run: CliRun;
    try {
      run = await cli(
        ['learn', '--fixes', file, '--json'],
        online({
          OPENAI_BASE_URL: silent.baseURL,
          MEMORY_TRANSFER_LLM_TIMEOUT_MS: '250',
          MEMORY_TRANSFER_LLM_RETRIES: '1',
          MEMORY_TRANSFER_LLM_CONCURRENCY: '4',
          MEMORY_TRANSFER_LLM_BREAKER_FAILURES: '3',
        }),
      );
    } finally {
      await silent.close();
    }
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({ fixes: 20, fallbacks: 20, failed: 0 });
    // the calls in flight when the endpoint stopped answering time out; every later fix goes
    // to the rules at once, its embedding not even asked for
    expect(summary.fallbackReasons['circuit open']).toBeGreaterThanOrEqual(16);
    const chat = silent.requests.filter((url) => url.endsWith('/chat/completions'));
    const embeddings = silent.requests.filter((url) => url.endsWith('/embeddings'));
    // at most the 4 calls in flight, each tried twice (one retry); at most one embedding call
    expect(chat.length).toBeLessThanOrEqual(4 * 2);
    expect(embeddings.length).toBeLessThanOrEqual(1 * 2);
    // the breaker opened once, and said so
    expect(run.stderr.match(/circuit breaker open/g)).toHaveLength(1);
    // every insight was stored, none with a vector, and the summary counts them
    const store = await openStore(db);
    let missing: string[];
    try {
      missing = await store.listIdsWithoutVector('acme', 'text-embedding-3-small', ['insight']);
    } finally {
      await store.close();
    }
    expect(missing.length).toBeGreaterThan(0);
    expect(summary.withoutVectors).toBe(missing.length);

    // the endpoint answers again: reembed fills the vectors in
    server.reply('embeddings', embeddingsReply(missing.length, 8));
    const reembed = await cli(['reembed', '--json'], online());
    expect(JSON.parse(reembed.stdout)).toMatchObject({ insights: missing.length, embedded: missing.length });
  });

  it('prints how many insights were stored without vectors and what fills them in', async () => {
    const file = await fixesFile(1);
    server.reply('chat', answerFor(1));
    server.reply('embeddings', errorReply(500, 'down'));
    const run = await cli(['learn', '--fixes', file], online());
    expect(run.stdout).toMatch(
      /^1 insight stored without vectors \(the embedding endpoint failed or its circuit breaker was open\); `memory-transfer reembed`, or the next learn run whose embeddings succeed, fills them in$/m,
    );
  });

  it('the next learn run whose embeddings succeed fills in the vectors an earlier run could not get', async () => {
    server.reply('chat', answerFor(1), answerFor(2));
    server.reply('embeddings', errorReply(500, 'down'), errorReply(500, 'down'));
    const first = await cli(['learn', '--fixes', await fixesFile(2), '--json'], online());
    expect(JSON.parse(first.stdout)).toMatchObject({ fixes: 2, withoutVectors: 2, vectorsFilled: 0 });
    // a third fix: its own embedding, then the two missing ones in one request
    server.reply('chat', answerFor(3));
    server.reply('embeddings', embeddingsReply(1, 8), embeddingsReply(2, 8));
    const second = await cli(['learn', '--fixes', await fixesFile(3), '--json'], online());
    expect(JSON.parse(second.stdout)).toMatchObject({ withoutVectors: 0, vectorsFilled: 2 });
    const store = await openStore(db);
    try {
      expect(await store.listIdsWithoutVector('acme', 'text-embedding-3-small', ['insight'])).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe('memory-transfer reembed', () => {
  it('fills in the vectors an embedding failure left out, then has nothing left to do', async () => {
    const file = await fixesFile(2);
    server.reply('chat', answerFor(1), answerFor(2));
    // wrong dimensions: the insights are stored without vectors
    server.reply('embeddings', embeddingsReply(1, 3), embeddingsReply(1, 3));
    const learned = await cli(['learn', '--fixes', file], online());
    expect(learned.code).toBe(0);
    expect(learned.stderr).toContain('embedding failed, stored without vectors');

    server.reply('embeddings', embeddingsReply(2, 8, 30));
    const run = await cli(['reembed'], online());
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'embedded 2 insights of acme (insights without a vector) with text-embedding-3-small\ntokens: 30 embedding tokens\n',
    );
    const store = await openStore(db);
    try {
      expect(await store.listIdsWithoutVector('acme', 'text-embedding-3-small', ['insight'])).toEqual([]);
    } finally {
      await store.close();
    }

    const again = await cli(['reembed', '--json'], online());
    expect(JSON.parse(again.stdout)).toMatchObject({ tenant: 'acme', insights: 0, embedded: 0 });

    // --all: every insight again (after a model change)
    server.reply('embeddings', embeddingsReply(2, 8));
    const all = await cli(['reembed', '--all', '--json'], online());
    expect(JSON.parse(all.stdout)).toMatchObject({ insights: 2, embedded: 2 });
  });

  it('refuses to run offline, saying what to set', async () => {
    const run = await cli(['reembed'], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^memory-transfer: reembed needs an embedding endpoint: set OPENAI_API_KEY/);
  });

  it('documents itself in --help', async () => {
    const run = await cli(['reembed', '--help'], {});
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('--all');
    expect(run.stdout).toContain('missing vectors');
  });
});
