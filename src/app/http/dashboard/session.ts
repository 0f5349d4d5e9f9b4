/**
 * The dashboard's cookies: sealed with AES-256-GCM (so they are both secret and signed: a changed
 * byte fails the tag), carrying their own expiry. The session holds the GitHub login, the user's
 * token (never readable by the page: HttpOnly) and the CSRF token of the forms. Nothing is stored
 * on the server, so every process of a clustered `serve` reads the same cookie.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';

export const SESSION_COOKIE = 'mt_session';
export const STATE_COOKIE = 'mt_oauth';

/** A sealer for one purpose ("session", "oauth-state"): a key derived from the secret with HKDF. */
export interface Sealer {
  seal(value: unknown, expiresAt: number): string;
  /** the value, or undefined when the cookie is missing, altered, sealed for another purpose or expired */
  open<T>(text: string | undefined, schema: z.ZodType<T>, now: number): T | undefined;
}

export function createSealer(secret: string, purpose: string): Sealer {
  const key = Buffer.from(hkdfSync('sha256', secret, 'memory-transfer dashboard', purpose, 32));
  return {
    seal(value, expiresAt) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const plain = Buffer.from(JSON.stringify({ v: value, exp: expiresAt }), 'utf8');
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(text, schema, now) {
      if (!text || text.length > 4096) return undefined;
      try {
        const raw = Buffer.from(text, 'base64url');
        if (raw.length < 29) return undefined;
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
        const parsed = z.object({ v: schema, exp: z.number() }).safeParse(JSON.parse(plain));
        if (!parsed.success || parsed.data.exp <= now) return undefined;
        return parsed.data.v;
      } catch {
        return undefined;
      }
    },
  };
}

export const sessionSchema = z.object({
  login: z.string().min(1),
  token: z.string().min(1),
  csrf: z.string().min(16),
});
export type Session = z.infer<typeof sessionSchema>;

export const oauthStateSchema = z.object({ state: z.string().min(16), returnTo: z.string() });

export function randomToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Constant-time comparison of two tokens. */
export function sameToken(a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function readCookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

/** Behind TLS (the socket, or a proxy that says so): cookies are then marked Secure. */
export function behindTls(req: IncomingMessage): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  const proto = req.headers['x-forwarded-proto'];
  return (Array.isArray(proto) ? proto[0] : proto)?.split(',')[0]?.trim().toLowerCase() === 'https';
}

/** A Set-Cookie value: HttpOnly, SameSite=Lax, path /dashboard, Secure behind TLS; maxAge 0 clears it. */
export function cookie(name: string, value: string, maxAgeSeconds: number, secure: boolean): string {
  return [
    `${name}=${value}`,
    'Path=/dashboard',
    `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}
