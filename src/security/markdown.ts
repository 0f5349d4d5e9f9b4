/**
 * Markdown safety for everything the App and the Action write: user and memory text is escaped
 * so it renders as the same plain text — no raw HTML, no images, no links, no headings, lists,
 * tables or code fences, no @-mention that pings, no #123 cross-reference, no autolinked URL —
 * and links only ever point to the one GitHub host the App talks to.
 */
import { HIDDEN_CHARACTERS } from './sanitize.js';

/** a zero-width space as an HTML entity: breaks mentions, references and autolinks, renders as nothing */
const BREAK = '&#8203;';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/**
 * Escapes text for one line of GitHub Markdown. Newlines become spaces (the caller decides the
 * structure); HTML special characters become entities; every Markdown punctuation is
 * backslash-escaped; `@user` no longer pings; `#12`, `GH-12` no longer cross-reference; URLs,
 * `www.` hosts and e-mail addresses no longer autolink.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(HIDDEN_CHARACTERS, '')
    .replace(CONTROL, '')
    .replace(/\r\n?|\n|\u2028|\u2029/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_{}[\]()#+\-.!|~"]/g, (c) => `\\${c}`)
    .replace(/@(?=[A-Za-z0-9])/g, `@${BREAK}`)
    .replace(/\\#(?=\d)/g, `\\#${BREAK}`)
    .replace(/\b(GH\\-)(?=\d)/gi, `$1${BREAK}`)
    .replace(/:\/\//g, `:${BREAK}//`)
    .replace(/\b(www)\\\./gi, `$1${BREAK}\\.`);
}

/** The host of an allowed-host setting: "https://github.com", "github.com" or "https://ghe.acme.com/". */
function parseAllowed(allowedHost: string): { protocol: string; host: string } | undefined {
  try {
    const url = new URL(/^[a-z]+:\/\//i.test(allowedHost) ? allowedHost : `https://${allowedHost}`);
    return { protocol: url.protocol, host: url.host.toLowerCase() };
  } catch {
    return undefined;
  }
}

/**
 * The URL, normalized and safe to put in `[text](…)`, when it points to exactly the allowed host
 * (same scheme, https unless the setting says http; no credentials); otherwise undefined.
 */
export function safeLink(url: string, allowedHost: string): string | undefined {
  const allowed = parseAllowed(allowedHost);
  if (!allowed) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  if (parsed.protocol !== allowed.protocol || !['https:', 'http:'].includes(parsed.protocol)) return undefined;
  if (parsed.host.toLowerCase() !== allowed.host || parsed.username || parsed.password) return undefined;
  return parsed.href.replace(
    /[()<>"' `\\[\]]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/** `[text](url)` when the URL is safe, else the escaped text alone. */
export function markdownLink(text: string, url: string, allowedHost: string): string {
  const href = safeLink(url, allowedHost);
  return href === undefined ? escapeMarkdown(text) : `[${escapeMarkdown(text)}](${href})`;
}
