/**
 * /dashboard: the report's pages served by the App to members of an organization that installed
 * it (docs/dashboard.md). GitHub sign-in with the App's OAuth credentials; membership and
 * repository access asked with the person's own token; every figure filtered for that person
 * (core/rendering/viewer.ts); people with write access to a repository an insight was learned in can
 * approve, reject, edit and forget it, through the same audited governance service as the
 * `/memory` commands. Forms carry a CSRF token bound to the session; every page has a strict
 * Content-Security-Policy with a fresh nonce. Without OAuth configured it explains the set-up.
 *
 *   GET  /dashboard                                      the person's organizations (or set-up)
 *   GET  /dashboard/login?return=…                       → GitHub sign-in
 *   GET  /dashboard/callback?code&state                  ← GitHub; sets the session cookie
 *   POST /dashboard/logout                               clears it
 *   GET  /dashboard/orgs/<org>                           the report of <org>'s pool, for this person
 *   POST /dashboard/orgs/<org>/insights/<id>/<action>    approve | reject | edit | forget
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { InputError, NotFoundError, UpstreamError, describeError } from '../../../core/errors.js';
import { renderMessagePage, renderOrgListPage, renderSetupPage } from '../../../core/rendering/dashboard-pages.js';
import { renderReportPage, servedPolicy, type PageChrome } from '../../../core/rendering/report-html.js';
import { viewerMayChange, type MemberAccess, type Viewer } from '../../../core/rendering/viewer.js';
import { approve, edit, forget, reject } from '../../../services/governance.js';
import { loadReport } from '../../../services/report.js';
import type { AppDeps } from '../../deps.js';
import { REVIEW_SYNC_JOB, type ReviewSyncRequest } from '../../interaction/review-sync.js';
import { apiUrlOf, readDashboardConfig, type DashboardConfig } from './config.js';
import { createDashboardGitHub, type DashboardGitHub } from './github-user.js';
import {
  SESSION_COOKIE,
  STATE_COOKIE,
  behindTls,
  cookie,
  createSealer,
  oauthStateSchema,
  randomToken,
  readCookie,
  sameToken,
  sessionSchema,
  type Session,
} from './session.js';

export type DashboardHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

export interface DashboardOptions {
  /** the environment holding GITHUB_CLIENT_ID / GITHUB_CLIENT_SECRET (default process.env) */
  env?: Record<string, string | undefined>;
  /** GitHub as the signed-in person (default: Octokit against the App's GitHub host) */
  github?: DashboardGitHub;
}

const PREFIX = '/dashboard';
const ORG = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const ID = /^[A-Za-z0-9_-]{1,64}$/;
const ACTIONS = ['approve', 'reject', 'edit', 'forget'] as const;
type Action = (typeof ACTIONS)[number];
const MAX_FORM_BYTES = 16 * 1024;
const STATE_SECONDS = 10 * 60;

const formSchema = z.object({
  csrf: z.string().optional(),
  title: z.string().max(300, 'title: at most 300 characters').optional(),
  description: z.string().max(2000, 'description: at most 2,000 characters').optional(),
  content: z.string().max(4000, 'content: at most 4,000 characters').optional(),
  confirm: z.literal('yes').optional(),
});

const DONE: Record<Action, string> = {
  approve: 'Approved',
  reject: 'Rejected',
  edit: 'Saved the edit of',
  forget: 'Forgot',
};

class PageError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    message: string,
  ) {
    super(message);
  }
}

function send(
  res: ServerResponse,
  status: number,
  html: string,
  nonce: string,
  headers: Record<string, string | string[]> = {},
): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'content-security-policy': servedPolicy(nonce),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    // same-origin: the browser still sends the Origin of the page's own forms (checked on every change)
    'referrer-policy': 'same-origin',
    ...headers,
  });
  res.end(html);
}

function redirect(res: ServerResponse, status: 302 | 303, location: string, cookies: string[] = []): void {
  res.writeHead(status, {
    location,
    'cache-control': 'no-store',
    ...(cookies.length ? { 'set-cookie': cookies } : {}),
  });
  res.end();
}

/** A local path under /dashboard to come back to after sign-in (anything else goes to /dashboard). */
function safeReturn(value: string | null): string {
  if (value && /^\/dashboard(\/[A-Za-z0-9._~/-]*)?$/.test(value) && !value.includes('//')) return value;
  return PREFIX;
}

async function readForm(req: IncomingMessage): Promise<z.infer<typeof formSchema>> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) {
    throw new PageError(415, 'Not a form', 'send the form as application/x-www-form-urlencoded, as the page does');
  }
  const raw = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_FORM_BYTES) {
        req.removeAllListeners('data');
        reject(new PageError(413, 'Too large', `the form is larger than ${MAX_FORM_BYTES} bytes`));
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
  const parsed = formSchema.safeParse(Object.fromEntries(new URLSearchParams(raw)));
  if (!parsed.success) throw new InputError(parsed.error.issues[0]?.message ?? 'the form is not valid');
  return parsed.data;
}

/** A form posted from another site: its Origin (sent by browsers with every POST) names another host. */
function crossSite(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== req.headers.host;
  } catch {
    return true;
  }
}

export function createDashboardHandler(deps: AppDeps, options: DashboardOptions = {}): DashboardHandler {
  const config: DashboardConfig | undefined = readDashboardConfig(options.env ?? process.env);
  const github =
    config &&
    (options.github ??
      createDashboardGitHub({
        clientId: config.clientId,
        clientSecret: config.clientSecret,
        apiUrl: apiUrlOf(deps.settings.githubUrl),
        clock: deps.clock,
      }));
  const sessions = config && createSealer(config.sessionSecret, 'session');
  const states = config && createSealer(config.sessionSecret, 'oauth-state');
  const now = () => deps.clock.now().getTime();

  function sessionOf(req: IncomingMessage): Session | undefined {
    return sessions?.open(readCookie(req, SESSION_COOKIE), sessionSchema, now());
  }

  function chromeFor(nonce: string, session?: Session): PageChrome {
    return {
      nonce,
      ...(session
        ? { account: { login: session.login, signOutPath: `${PREFIX}/logout`, csrfToken: session.csrf } }
        : {}),
    };
  }

  function signIn(res: ServerResponse, path: string): void {
    redirect(res, 302, `${PREFIX}/login?return=${encodeURIComponent(path)}`);
  }

  async function access(session: Session, org: string): Promise<MemberAccess> {
    const found = await (github as DashboardGitHub).access(session.token, session.login, org);
    if (!found) {
      throw new PageError(
        403,
        'Nothing to show',
        `${session.login} is not a member of ${org} (or GitHub does not let this App see it), so there is nothing to show.`,
      );
    }
    return found;
  }

  async function orgPage(res: ServerResponse, org: string, url: URL, session: Session, nonce: string) {
    const member = await access(session, org);
    const viewer: Viewer = { tenant: org.toLowerCase(), member };
    const model = await loadReport(deps.store, deps.clock, { viewer });
    // the notice names the insight from the pool (never text from the URL): a crafted link shows no message of its own
    const done = url.searchParams.get('done');
    const id = url.searchParams.get('id') ?? '';
    const known = model.insights.find((i) => i.id === id);
    const notice =
      done && (ACTIONS as readonly string[]).includes(done) && ID.test(id)
        ? { text: `${DONE[done as Action]} ${known ? `“${known.title}”` : `the insight ${id}`}.` }
        : undefined;
    const html = renderReportPage(model, {
      ...chromeFor(nonce, session),
      ...(notice ? { notice } : {}),
      forms: { basePath: `${PREFIX}/orgs/${org}`, csrfToken: session.csrf },
    });
    send(res, 200, html, nonce);
  }

  async function change(req: IncomingMessage, res: ServerResponse, org: string, id: string, action: Action) {
    const session = sessionOf(req);
    if (!session)
      throw new PageError(401, 'Signed out', 'Your session has ended: sign in again, then repeat the change.');
    if (crossSite(req))
      throw new PageError(403, 'Refused', 'This form was sent from another site; nothing was changed.');
    const form = await readForm(req);
    if (!sameToken(form.csrf, session.csrf)) {
      throw new PageError(
        403,
        'Refused',
        'The form is missing its security token (or it is from an old page); nothing was changed.',
      );
    }
    const member = await access(session, org);
    const tenant = org.toLowerCase();
    const memory = await deps.store.getMemory(tenant, id);
    const viewer: Viewer = { tenant, member };
    if (!memory || memory.level !== 'insight' || !viewerMayChange(memory, viewer)) {
      throw new PageError(
        403,
        'Not allowed',
        'Only people with write access to a repository an insight was learned in can change it; nothing was changed.',
      );
    }
    const by = { actor: session.login, detail: 'dashboard', now: deps.clock.now() };
    if (action === 'approve') await approve(deps.store, tenant, id, by);
    else if (action === 'reject') await reject(deps.store, tenant, id, by);
    else if (action === 'forget') {
      if (form.confirm !== 'yes') throw new InputError('confirm: tick "Delete this insight for good" to forget it');
      await forget(deps.store, tenant, id, by);
    } else {
      await edit(
        deps.store,
        tenant,
        id,
        {
          ...(form.title !== undefined ? { title: form.title } : {}),
          ...(form.description !== undefined ? { description: form.description } : {}),
          ...(form.content !== undefined ? { content: form.content } : {}),
        },
        by,
      );
    }
    deps.logger.info('dashboard change', { tenant, id, action, actor: session.login });
    // the review issues listing it are re-rendered by the worker, so the issue and the page agree
    const sync: ReviewSyncRequest = { tenant, memoryId: id };
    await deps.queue.enqueue(`review-sync:${tenant}:${id}:${randomToken()}`, REVIEW_SYNC_JOB, sync);
    const anchor = action === 'forget' ? 'insights' : `insight-${id}`;
    redirect(res, 303, `${PREFIX}/orgs/${org}?done=${action}&id=${id}#${anchor}`);
  }

  async function route(req: IncomingMessage, res: ServerResponse, url: URL, nonce: string): Promise<void> {
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';
    if (!config || !github || !states || !sessions) {
      if (method !== 'GET' && method !== 'HEAD') throw new PageError(404, 'Not set up', 'The dashboard is not set up.');
      const host = req.headers.host ?? 'your-host';
      const callback = `${behindTls(req) ? 'https' : 'http'}://${host}${PREFIX}/callback`;
      return send(res, 200, renderSetupPage(callback, { nonce }), nonce);
    }
    const secure = behindTls(req);
    const parts = path.split('/').slice(2); // after "/dashboard"
    if (parts.length === 0) {
      if (method !== 'GET') throw new PageError(405, 'Not allowed', 'use GET');
      const session = sessionOf(req);
      if (!session) return signIn(res, PREFIX);
      const orgs: string[] = [];
      for (const tenant of await deps.store.listTenants()) {
        if (ORG.test(tenant) && (await github.access(session.token, session.login, tenant))) orgs.push(tenant);
      }
      if (orgs.length === 1) return redirect(res, 302, `${PREFIX}/orgs/${orgs[0]}`);
      return send(res, 200, renderOrgListPage(orgs, chromeFor(nonce, session)), nonce);
    }
    if (parts[0] === 'login' && parts.length === 1 && method === 'GET') {
      const state = randomToken();
      const returnTo = safeReturn(url.searchParams.get('return'));
      const sealed = states.seal({ state, returnTo }, now() + STATE_SECONDS * 1000);
      return redirect(res, 302, github.authorizationUrl(state), [cookie(STATE_COOKIE, sealed, STATE_SECONDS, secure)]);
    }
    if (parts[0] === 'callback' && parts.length === 1 && method === 'GET') {
      const expected = states.open(readCookie(req, STATE_COOKIE), oauthStateSchema, now());
      const code = url.searchParams.get('code');
      const state = url.searchParams.get('state');
      if (!expected || !code || !state || !sameToken(state, expected.state)) {
        throw new PageError(
          400,
          'Sign-in failed',
          'The sign-in could not be verified (it expired or did not start here). Sign in again.',
        );
      }
      const { token, login } = await github.signIn(code, state);
      const session: Session = { login, token, csrf: randomToken() };
      const sealed = sessions.seal(session, now() + config.sessionSeconds * 1000);
      return redirect(res, 302, expected.returnTo, [
        cookie(SESSION_COOKIE, sealed, config.sessionSeconds, secure),
        cookie(STATE_COOKIE, '', 0, secure),
      ]);
    }
    if (parts[0] === 'logout' && parts.length === 1 && method === 'POST') {
      const session = sessionOf(req);
      const form = await readForm(req);
      if (session && !sameToken(form.csrf, session.csrf)) {
        throw new PageError(403, 'Refused', 'The form is missing its security token; you are still signed in.');
      }
      return send(
        res,
        200,
        renderMessagePage(
          'Signed out',
          'You are signed out of the dashboard.',
          { nonce },
          { href: PREFIX, label: 'Sign in again' },
        ),
        nonce,
        {
          'set-cookie': cookie(SESSION_COOKIE, '', 0, secure),
        },
      );
    }
    const org = parts[1];
    if (parts[0] === 'orgs' && org && ORG.test(org)) {
      if (parts.length === 2 && (method === 'GET' || method === 'HEAD')) {
        const session = sessionOf(req);
        if (!session) return signIn(res, `${PREFIX}/orgs/${org}`);
        return orgPage(res, org, url, session, nonce);
      }
      const [, , insights, id, action] = parts;
      if (
        parts.length === 5 &&
        insights === 'insights' &&
        id &&
        ID.test(id) &&
        (ACTIONS as readonly string[]).includes(action ?? '')
      ) {
        if (method !== 'POST') throw new PageError(405, 'Not allowed', 'changes are sent with the page’s forms (POST)');
        return change(req, res, org, id, action as Action);
      }
    }
    throw new PageError(404, 'Not found', 'There is no such dashboard page.');
  }

  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== PREFIX && !url.pathname.startsWith(`${PREFIX}/`)) return false;
    const nonce = randomBytes(16).toString('base64');
    try {
      await route(req, res, url, nonce);
    } catch (error) {
      req.resume();
      const [status, title, text] =
        error instanceof PageError
          ? [error.status, error.title, error.message]
          : error instanceof InputError
            ? [400, 'Not changed', describeError(error)]
            : error instanceof NotFoundError
              ? [404, 'Not found', describeError(error)]
              : error instanceof UpstreamError
                ? [503, 'GitHub did not answer', `${describeError(error)}; try again in a minute.`]
                : [500, 'Something went wrong', 'The dashboard failed; the error is in the App’s log.'];
      if (status >= 500)
        deps.logger.error('dashboard request failed', { path: url.pathname, error: describeError(error) });
      if (!res.headersSent) {
        const back = url.pathname.startsWith(`${PREFIX}/orgs/`)
          ? url.pathname.split('/').slice(0, 4).join('/')
          : PREFIX;
        send(
          res,
          status,
          renderMessagePage(title, text, { nonce }, { href: back, label: 'Back to the dashboard' }),
          nonce,
        );
      }
    }
    return true;
  };
}
