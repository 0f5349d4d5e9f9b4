/**
 * Talks to the App's recall API with the workflow's OIDC token. Every call is bounded by a
 * timeout; failures become typed errors the pipeline turns into a warning (or a failure with
 * `fail-on-error`).
 */
import { AuthError, InputError, UpstreamError } from '../core/errors.js';
import {
  RECALL_PATH,
  USAGE_PATH,
  apiErrorSchema,
  recallResponseSchema,
  usageResponseSchema,
  type RecallRequest,
  type RecallResponse,
  type UsageRequest,
} from '../core/recall-api.js';

export interface ServerClientOptions {
  serverUrl: string;
  audience: string;
  timeoutMs: number;
  /** `core.getIDToken` in production */
  getIdToken: (audience: string) => Promise<string>;
  fetch?: typeof globalThis.fetch;
}

export interface RecallClient {
  /** the insights, and (for a repository less private than some sources) what was withheld */
  recall(request: RecallRequest): Promise<RecallResponse>;
  reportUsage(request: UsageRequest): Promise<number>;
}

export function createServerClient(options: ServerClientOptions): RecallClient {
  const doFetch = options.fetch ?? globalThis.fetch;
  let token: Promise<string> | undefined;

  async function idToken(): Promise<string> {
    token ??= options.getIdToken(options.audience).catch((error: unknown) => {
      token = undefined;
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new AuthError(
        `could not get the workflow's OIDC token (${reason}); give the job "permissions: id-token: write"`,
        401,
      );
    });
    return token;
  }

  async function post(path: string, body: unknown): Promise<unknown> {
    const url = new URL(path, options.serverUrl.replace(/\/?$/, '/')).toString();
    const bearer = await idToken();
    let response: Response;
    try {
      response = await doFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}`, accept: 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      const name = error instanceof Error ? error.name : '';
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new UpstreamError(`${url} did not answer within ${options.timeoutMs} ms`, true);
      }
      throw new UpstreamError(
        `${url} is unreachable (${error instanceof Error ? error.message : String(error)})`,
        true,
      );
    }
    let text: string;
    try {
      text = await response.text();
    } catch {
      throw new UpstreamError(`${url} did not answer within ${options.timeoutMs} ms`, true);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!response.ok) {
      const parsed = apiErrorSchema.safeParse(json);
      const message = parsed.success ? parsed.data.error.message : `HTTP ${response.status}`;
      if (response.status === 401 || response.status === 403) {
        throw new AuthError(`${url} refused the run: ${message}`, response.status);
      }
      if (response.status === 400) throw new InputError(`${url} rejected the request: ${message}`);
      throw new UpstreamError(
        `${url} answered ${response.status}: ${message}`,
        response.status >= 500 || response.status === 429,
      );
    }
    if (json === undefined) throw new UpstreamError(`${url} answered with something that is not JSON`, false);
    return json;
  }

  return {
    async recall(request) {
      const parsed = recallResponseSchema.safeParse(await post(RECALL_PATH, request));
      if (!parsed.success) throw new UpstreamError('the recall API answered in an unexpected shape', false);
      return parsed.data;
    },
    async reportUsage(request) {
      const parsed = usageResponseSchema.safeParse(await post(USAGE_PATH, request));
      if (!parsed.success) throw new UpstreamError('the usage API answered in an unexpected shape', false);
      return parsed.data.recorded;
    },
  };
}
