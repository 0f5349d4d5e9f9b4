/**
 * GitHub for the dashboard, as the signed-in person: the OAuth web flow with the App's client id
 * and secret (`OAuthApp` of Octokit), then membership and repository access asked with the user's
 * own token, so the page shows exactly what GitHub lets that person read. Answers are cached for
 * a few minutes per person and organization (a revoked access stops working within minutes).
 */
import { OAuthApp } from '@octokit/oauth-app';
import { Octokit } from 'octokit';
import { UpstreamError } from '../../../core/errors.js';
import type { MemberAccess } from '../../../core/rendering/viewer.js';
import type { Clock } from '../../../ports/index.js';
import { httpStatus } from '../../../github/client.js';

export interface DashboardGitHub {
  /** the URL that sends the person to GitHub to sign in */
  authorizationUrl(state: string): string;
  /** trades the code GitHub sent back for the person's token and login */
  signIn(code: string, state: string): Promise<{ token: string; login: string }>;
  /** the person's access in the organization, or undefined when they are not an active member */
  access(token: string, login: string, org: string): Promise<MemberAccess | undefined>;
}

export const ACCESS_TTL_MS = 5 * 60_000;

export interface DashboardGitHubOptions {
  clientId: string;
  clientSecret: string;
  /** the API root, e.g. https://api.github.com or https://ghe.example.com/api/v3 */
  apiUrl: string;
  clock: Clock;
}

function apiError(what: string, error: unknown): UpstreamError {
  const status = httpStatus(error);
  return new UpstreamError(
    `GitHub did not answer ${what} (${status ?? 'no status'})`,
    status === undefined || status >= 500,
  );
}

export function createDashboardGitHub(options: DashboardGitHubOptions): DashboardGitHub {
  const UserOctokit = Octokit.defaults({
    baseUrl: options.apiUrl,
    // a person waits for the page: one attempt, the error page says to try again
    throttle: { enabled: false },
    retry: { enabled: false },
  });
  const oauth = new OAuthApp({
    clientType: 'github-app',
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    baseUrl: options.apiUrl,
    Octokit: UserOctokit,
  });
  const cache = new Map<string, { at: number; access: MemberAccess | undefined }>();
  const user = (token: string) => new UserOctokit({ auth: token });

  return {
    authorizationUrl(state) {
      return oauth.getWebFlowAuthorizationUrl({ state }).url;
    },

    async signIn(code, state) {
      let token: string;
      try {
        const { authentication } = await oauth.createToken({ code, state });
        token = authentication.token;
      } catch (error) {
        throw apiError('the sign-in', error);
      }
      try {
        const { data } = await user(token).request('GET /user');
        return { token, login: data.login };
      } catch (error) {
        throw apiError('who signed in', error);
      }
    },

    async access(token, login, org) {
      const key = `${login.toLowerCase()}\n${org.toLowerCase()}`;
      const now = options.clock.now().getTime();
      const cached = cache.get(key);
      if (cached && now - cached.at < ACCESS_TTL_MS) return cached.access;
      const octokit = user(token);
      let member = false;
      try {
        const { data } = await octokit.request('GET /user/memberships/orgs/{org}', { org });
        member = data.state === 'active';
      } catch (error) {
        const status = httpStatus(error);
        if (status !== 404 && status !== 403) throw apiError('the membership check', error);
      }
      let access: MemberAccess | undefined;
      if (member) {
        let repos: {
          full_name: string;
          owner: { login: string };
          permissions?: { push?: boolean; admin?: boolean; maintain?: boolean };
        }[];
        try {
          repos = await octokit.paginate('GET /user/repos', { per_page: 100 });
        } catch (error) {
          throw apiError('the repository list', error);
        }
        const own = repos.filter((r) => r.owner.login.toLowerCase() === org.toLowerCase());
        access = {
          login,
          readable: own.map((r) => r.full_name),
          writable: own
            .filter((r) => r.permissions?.push || r.permissions?.maintain || r.permissions?.admin)
            .map((r) => r.full_name),
        };
      }
      cache.set(key, { at: now, access });
      if (cache.size > 5_000) cache.delete(cache.keys().next().value as string);
      return access;
    },
  };
}
