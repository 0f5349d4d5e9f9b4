import { describe, expect, it } from 'vitest';
import { readDashboardConfig } from '../../../src/app/http/dashboard/config.js';
import { cookie, createSealer, sessionSchema } from '../../../src/app/http/dashboard/session.js';

const session = { login: 'mel', token: 'tok-mel', csrf: 'a-csrf-token-of-enough-length' };

describe('the dashboard session cookie', () => {
  const sealer = createSealer('a-session-secret-of-at-least-32-chars!!', 'session');

  it('opens what it sealed until it expires', () => {
    const sealed = sealer.seal(session, 2_000);
    expect(sealer.open(sealed, sessionSchema, 1_999)).toEqual(session);
    expect(sealer.open(sealed, sessionSchema, 2_000)).toBeUndefined();
  });

  it('keeps the token secret and refuses a changed byte, another purpose or another secret', () => {
    const sealed = sealer.seal(session, 2_000);
    expect(Buffer.from(sealed, 'base64url').toString('latin1')).not.toContain('tok-mel');
    const raw = Buffer.from(sealed, 'base64url');
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1;
    expect(sealer.open(raw.toString('base64url'), sessionSchema, 0)).toBeUndefined();
    expect(
      createSealer('a-session-secret-of-at-least-32-chars!!', 'oauth-state').open(sealed, sessionSchema, 0),
    ).toBeUndefined();
    expect(
      createSealer('another-secret-of-at-least-32-characters', 'session').open(sealed, sessionSchema, 0),
    ).toBeUndefined();
    expect(sealer.open('not a cookie', sessionSchema, 0)).toBeUndefined();
  });

  it('is HttpOnly, SameSite=Lax and scoped to /dashboard; Secure only behind TLS', () => {
    expect(cookie('mt_session', 'v', 3600, true)).toBe(
      'mt_session=v; Path=/dashboard; Max-Age=3600; HttpOnly; SameSite=Lax; Secure',
    );
    expect(cookie('mt_session', 'v', 3600, false)).not.toContain('Secure');
  });
});

describe('the dashboard settings', () => {
  it('are absent without OAuth credentials, and default to a one-hour session', () => {
    expect(readDashboardConfig({})).toBeUndefined();
    const config = readDashboardConfig({
      GITHUB_CLIENT_ID: 'Iv23liTestClient01',
      GITHUB_CLIENT_SECRET: 'x'.repeat(40),
    });
    expect(config?.sessionSeconds).toBe(3600);
  });

  it('name the variable of a half-set or bad value, with the allowed form', () => {
    expect(() => readDashboardConfig({ GITHUB_CLIENT_ID: 'Iv23liTestClient01' })).toThrow(
      /^GITHUB_CLIENT_SECRET: is not set/,
    );
    expect(() => readDashboardConfig({ GITHUB_CLIENT_SECRET: 'x'.repeat(40) })).toThrow(
      /^GITHUB_CLIENT_ID: is not set/,
    );
    expect(() =>
      readDashboardConfig({
        GITHUB_CLIENT_ID: 'Iv23liTestClient01',
        GITHUB_CLIENT_SECRET: 'x'.repeat(40),
        DASHBOARD_SESSION_MINUTES: '2',
      }),
    ).toThrow('DASHBOARD_SESSION_MINUTES: must be at least 5');
    expect(() =>
      readDashboardConfig({
        GITHUB_CLIENT_ID: 'Iv23liTestClient01',
        GITHUB_CLIENT_SECRET: 'x'.repeat(40),
        DASHBOARD_SESSION_SECRET: 'short',
      }),
    ).toThrow('DASHBOARD_SESSION_SECRET: must be at least 32 characters, e.g. `openssl rand -hex 32`');
  });
});
