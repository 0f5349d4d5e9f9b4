/**
 * The dashboard's settings from the environment, parsed with zod: the App's OAuth client id and
 * secret (the names Probot's set-up flow writes to .env), an optional session secret and the
 * session's lifetime. Without a client id and secret the dashboard only explains how to set it up.
 */
import { z } from 'zod';
import { InputError } from '../../../core/errors.js';

export interface DashboardConfig {
  clientId: string;
  clientSecret: string;
  /** the secret the cookies are sealed with (default: derived from the client secret) */
  sessionSecret: string;
  sessionSeconds: number;
}

const EnvSchema = z.object({
  GITHUB_CLIENT_ID: z
    .string()
    .regex(/^[A-Za-z0-9._-]{8,64}$/, 'must be the App\'s client ID, like "Iv23liAbCdEf12345678"')
    .optional(),
  GITHUB_CLIENT_SECRET: z.string().min(20, 'must be a client secret generated on the App settings page').optional(),
  DASHBOARD_SESSION_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters, e.g. `openssl rand -hex 32`')
    .optional(),
  DASHBOARD_SESSION_MINUTES: z.coerce
    .number()
    .int('must be a whole number of minutes')
    .min(5, 'must be at least 5')
    .max(720, 'must be at most 720 (12 hours), e.g. 60')
    .default(60),
});

/** undefined when OAuth is not configured; InputError naming the variable for a bad or half-set value. */
export function readDashboardConfig(rawEnv: Record<string, string | undefined>): DashboardConfig | undefined {
  const cleaned = Object.fromEntries(
    Object.entries(rawEnv).filter(([k, v]) => k in EnvSchema.shape && v !== undefined && v.trim() !== ''),
  );
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InputError(`${String(issue?.path[0] ?? 'environment')}: ${issue?.message ?? 'invalid value'}`);
  }
  const env = parsed.data;
  if (env.GITHUB_CLIENT_ID === undefined && env.GITHUB_CLIENT_SECRET === undefined) return undefined;
  if (env.GITHUB_CLIENT_ID === undefined) {
    throw new InputError(
      'GITHUB_CLIENT_ID: is not set (GITHUB_CLIENT_SECRET is): copy the Client ID from the App settings page',
    );
  }
  if (env.GITHUB_CLIENT_SECRET === undefined) {
    throw new InputError(
      'GITHUB_CLIENT_SECRET: is not set (GITHUB_CLIENT_ID is): generate a client secret on the App settings page',
    );
  }
  return {
    clientId: env.GITHUB_CLIENT_ID,
    clientSecret: env.GITHUB_CLIENT_SECRET,
    sessionSecret: env.DASHBOARD_SESSION_SECRET ?? `client-secret:${env.GITHUB_CLIENT_SECRET}`,
    sessionSeconds: env.DASHBOARD_SESSION_MINUTES * 60,
  };
}

/** The REST API root for a GitHub web host: api.github.com, or <host>/api/v3 for GitHub Enterprise Server. */
export function apiUrlOf(githubUrl: string): string {
  const url = githubUrl.replace(/\/+$/, '');
  return url === 'https://github.com' ? 'https://api.github.com' : `${url}/api/v3`;
}
