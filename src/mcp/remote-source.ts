/**
 * The MCP tools answered by the App: `memory-transfer mcp --server URL` in a workflow forwards
 * each call to the App's /mcp endpoint with the run's OIDC token, so the App's verification,
 * visibility and tenant rules decide everything (no new way in). Answers are parsed with the
 * tools' own output schemas; a tool error of the App comes back as the same tool error.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { decodeJwt } from 'jose';
import { z } from 'zod';
import { AuthError, InputError, UpstreamError, describeError } from '../core/errors.js';
import type { InsightSource } from './insight-source.js';
import {
  MCP_PATH,
  MCP_SERVER_NAME,
  TOP_RESOURCE_URI,
  recallAnswerSchema,
  reportOutcomeOutputSchema,
  shownInsightSchema,
  topResourceSchema,
} from './tools.js';

export interface RemoteSourceOptions {
  /** the App's URL, e.g. https://memory.acme.dev (its /mcp endpoint is called) */
  serverUrl: string;
  /** the run's OIDC token (asked again when the last one is about to expire) */
  getToken: () => Promise<string>;
  version: string;
  fetch?: typeof globalThis.fetch;
}

/** Keeps a token until one minute before its expiry. */
function tokenCache(getToken: () => Promise<string>): () => Promise<string> {
  let token: string | undefined;
  let expiresAt = 0;
  return async () => {
    if (token && Date.now() < expiresAt - 60_000) return token;
    token = await getToken();
    let exp: number | undefined;
    try {
      exp = decodeJwt(token).exp;
    } catch {
      exp = undefined;
    }
    expiresAt = exp ? exp * 1000 : 0;
    return token;
  };
}

const apiErrorBody = z.object({ error: z.object({ message: z.string() }) });

/** The App's refusal as one line: its own message and status (401: the token; 403: the run; 429: slow down). */
function failure(endpoint: URL, error: unknown): Error {
  // the SDK's StreamableHTTPError, recognised by shape (the SDK ships two builds: a class check can miss)
  const status = (error as { code?: unknown } | null)?.code;
  if (error instanceof Error && typeof status === 'number' && status >= 400 && status < 600) {
    let reason = describeError(error);
    const json = /\{.*\}\s*$/s.exec(error.message)?.[0];
    if (json) {
      try {
        const parsed = apiErrorBody.safeParse(JSON.parse(json));
        if (parsed.success) reason = parsed.data.error.message;
      } catch {
        // keep the SDK's message
      }
    }
    const refused = `the Memory Transfer App at ${endpoint.origin} refused the request (HTTP ${status}): ${reason}`;
    if (status === 401 || status === 403) return new AuthError(refused, status);
    return new UpstreamError(refused, status === 429 || status >= 500);
  }
  if (error instanceof AuthError || error instanceof InputError) return error;
  return new UpstreamError(
    `the Memory Transfer App at ${endpoint.origin} did not answer: ${describeError(error)}`,
    true,
  );
}

export function endpointOf(serverUrl: string): URL {
  const base = new URL(serverUrl);
  return new URL(`${base.pathname.replace(/\/+$/, '')}${MCP_PATH}`, base);
}

export function createRemoteSource(options: RemoteSourceOptions): InsightSource & { close(): Promise<void> } {
  const endpoint = endpointOf(options.serverUrl);
  const token = tokenCache(options.getToken);
  const baseFetch = options.fetch ?? globalThis.fetch;
  let connected: Promise<Client> | undefined;

  function connect(): Promise<Client> {
    connected ??= (async () => {
      const transport = new StreamableHTTPClientTransport(endpoint, {
        fetch: async (url, init) => {
          const headers = new Headers(init?.headers);
          headers.set('authorization', `Bearer ${await token()}`);
          return baseFetch(url, { ...init, headers });
        },
      });
      const client = new Client({ name: `${MCP_SERVER_NAME}-proxy`, version: options.version });
      try {
        await client.connect(transport);
      } catch (error) {
        connected = undefined;
        throw failure(endpoint, error);
      }
      return client;
    })();
    return connected;
  }

  async function call<T>(name: string, args: Record<string, unknown>, schema: z.ZodType<T>): Promise<T> {
    const client = await connect();
    let result: CallToolResult;
    try {
      result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    } catch (error) {
      throw failure(endpoint, error);
    }
    if (result.isError) {
      const text = result.content.find((c) => c.type === 'text')?.text ?? 'refused';
      // the App's message already says what to change; strip its "tool: " prefix, ours is added again
      throw new InputError(text.replace(new RegExp(`^${name}: `), ''));
    }
    const parsed = schema.safeParse(result.structuredContent);
    if (!parsed.success)
      throw new UpstreamError(`the Memory Transfer App answered ${name} in an unexpected form`, false);
    return parsed.data;
  }

  const showAnswer = z.object({ insight: shownInsightSchema });

  return {
    label: `the Memory Transfer App at ${endpoint.origin}`,
    async recall(query) {
      return call('recall', { ...query }, recallAnswerSchema);
    },
    async show(id) {
      return (await call('show', { id }, showAnswer)).insight;
    },
    async reportOutcome(query) {
      return call('report_outcome', { ...query }, reportOutcomeOutputSchema);
    },
    async top() {
      const client = await connect();
      const result = await client.readResource({ uri: TOP_RESOURCE_URI });
      const json = result.contents.find((c) => c.mimeType === 'application/json' && 'text' in c);
      let body: unknown;
      try {
        body = JSON.parse(json && 'text' in json ? String(json.text) : '');
      } catch {
        body = undefined;
      }
      const parsed = topResourceSchema.safeParse(body);
      if (!parsed.success)
        throw new UpstreamError('the Memory Transfer App answered the top insights in an unexpected form', false);
      return parsed.data.insights;
    },
    async close() {
      if (connected) await (await connected.catch(() => undefined))?.close();
    },
  };
}
