/**
 * Secret redaction before anything leaves or is stored. Two layers over the same original text:
 * 1. secretlint's recommended preset (a maintained scanner: GitHub, AWS, GCP, Slack, npm, OpenAI,
 *    private keys, basic auth, connection strings, …);
 * 2. our own patterns for what it misses or only finds in context (every GitHub token prefix,
 *    JWTs, whole PEM blocks, URL credentials, cloud keys, Stripe/PyPI tokens, auth headers,
 *    high-entropy `password=`/`token:` assignments and long high-entropy blobs).
 * Every finding is replaced by `[REDACTED:<rule>]`. If the scanner fails, redaction throws: the
 * caller then sends nothing to the LLM and stores nothing.
 */
import { MemoryTransferError } from '../core/errors.js';
import type { Fix } from '../core/types.js';
import type { Logger, Redactor } from '../ports/index.js';

/** The prefix of every redaction marker: `[REDACTED:<rule>]`. */
export const REDACTED = '[REDACTED]';

export interface SecretFinding {
  /** short rule name, e.g. "github-token" or "slack" (secretlint's rule without its package prefix) */
  rule: string;
  start: number;
  end: number;
}

/** Finds secrets in text; the secretlint layer by default, replaceable in tests. */
export type SecretScanner = (text: string) => Promise<SecretFinding[]>;

export function redactionMarker(rule: string): string {
  return `[REDACTED:${rule}]`;
}

/** Shannon entropy of the string in bits per character (0 for the empty string). */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  const length = [...value].length;
  for (const count of counts.values()) {
    const p = count / length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

// ---------------------------------------------------------------------------------------------
// Layer 1: secretlint

/**
 * The recommended preset's rules, registered one by one so that its comment filter can be left out:
 * the text we redact is written by others, and a "secretlint-disable" comment in it must not switch
 * the scanner off. (secretlint ignores `disabled` on a rule inside a preset, hence not the preset.)
 */
async function loadSecretlint() {
  const [{ lintSource }, { secretLintProfiler }, { rules: recommendedRules }] = await Promise.all([
    import('@secretlint/core'),
    import('@secretlint/profiler'),
    import('@secretlint/secretlint-rule-preset-recommend'),
  ]);
  // secretlint's global profiler keeps every performance mark of every run and scans them all on each
  // new mark: a call slowed from ~0.5 ms to 200+ ms after a few thousand calls (and memory grew without
  // bound in the App). Nothing reads the profile, so marking is switched off.
  secretLintProfiler.mark = () => undefined;
  const config = {
    rules: recommendedRules
      .filter((rule) => rule.meta.id !== '@secretlint/secretlint-rule-filter-comments')
      .map((rule) => ({ id: rule.meta.id, rule })),
  };
  return { lintSource, config };
}

/** secretlint, imported on the first scan (the CLI's logger and commands that scan nothing never load it) */
let secretlint: ReturnType<typeof loadSecretlint> | undefined;

const SECRETLINT_PREFIX = /^@secretlint\/secretlint-rule-/;

export const secretlintScanner: SecretScanner = async (text) => {
  secretlint ??= loadSecretlint();
  const { lintSource, config } = await secretlint.catch((error: unknown) => {
    secretlint = undefined;
    throw error;
  });
  const result = await lintSource({
    source: { content: text, filePath: 'memory-transfer-input.txt', contentType: 'text' },
    options: { config, noPhysicFilePath: true },
  });
  return result.messages.map((message) => ({
    rule: message.ruleId.replace(SECRETLINT_PREFIX, ''),
    start: message.range[0],
    end: message.range[1],
  }));
};

// ---------------------------------------------------------------------------------------------
// Layer 2: our own patterns

interface Pattern {
  rule: string;
  regex: RegExp;
  /** index of the capture group that holds the secret (whole match when absent) */
  group?: number;
  /** extra check on the captured secret (the whole match is given for context) */
  accept?: (secret: string, match: string) => boolean;
}

/** Names of assignments whose value is a secret: DB_PASSWORD=, "apiKey":, client_secret:, _authToken= … */
const SECRET_KEY_NAME =
  '[A-Za-z0-9_.-]*(?:passw(?:or)?d|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|credentials?|auth[_-]?key|signing[_-]?key|encryption[_-]?key|session[_-]?key|account[_-]?key|passphrase|connection[_-]?string)[A-Za-z0-9_.-]*';

const PLACEHOLDER =
  /^(?:\$|%|<|\{\{|process\.env|os\.environ|env\.|secrets\.|vars\.|true$|false$|null$|none$|undefined$|x{4,}|\*{3,}|\[REDACTED)/i;

/**
 * A value after a secret-looking key: long enough and random enough to be a credential.
 * Passwords get a lower bar than tokens (people pick them, so they are less random).
 */
function isSecretValue(value: string, match: string): boolean {
  const password = /pass|pwd/i.test(match.slice(0, match.length - value.length));
  if (value.length < (password ? 6 : 8) || PLACEHOLDER.test(value)) return false;
  if (/^[a-z]+(?:[-_.][a-z]+)*$/i.test(value) && value.length < 20) return false; // a plain word or identifier
  if (/^[\w.]+\(/.test(value)) return false; // a function call
  return shannonEntropy(value) >= (password ? 2.5 : 3);
}

/** Hex (16+) or base64 (20+, with a digit) that is random enough to be key material, not a word. */
function isKeyMaterial(value: string): boolean {
  if (PLACEHOLDER.test(value)) return false;
  if (/^[0-9a-f]+$/i.test(value)) return value.length >= 16 && shannonEntropy(value) >= 3;
  return value.length >= 20 && /\d/.test(value) && shannonEntropy(value) >= 3.5;
}

const PATTERNS: Pattern[] = [
  // PEM private keys, the whole block; a key cut before its END line is redacted to the end of the text
  {
    rule: 'private-key',
    regex:
      /-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
  },
  { rule: 'github-token', regex: /\bgh[pousr]_[A-Za-z0-9]{30,255}\b/g },
  { rule: 'github-token', regex: /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g },
  { rule: 'github-token', regex: /\bv1\.[0-9a-f]{40}\b/g },
  // JWTs and any base64url JSON object ("eyJ" is `{"`), also when cut short by a log cap
  { rule: 'jwt', regex: /\beyJ[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]*){0,2}/g },
  // scheme://user:password@host: the credentials only; a token alone as the user name too
  { rule: 'url-credentials', regex: /\b[a-z][a-z0-9+.-]*:\/\/([^\s/?#@:'"`]*:[^\s/?#@'"`]+)@/gi, group: 1 },
  {
    rule: 'url-credentials',
    regex: /\b[a-z][a-z0-9+.-]*:\/\/([^\s/?#@:'"`]{16,})@/gi,
    group: 1,
    accept: (user) => shannonEntropy(user) >= 3 && /\d/.test(user),
  },
  { rule: 'aws-access-key', regex: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}\b/g },
  { rule: 'gcp-api-key', regex: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { rule: 'gcp-oauth', regex: /\bGOCSPX-[A-Za-z0-9_-]{20,}\b/g },
  { rule: 'gcp-oauth', regex: /\bya29\.[0-9A-Za-z_-]{20,}/g },
  { rule: 'azure-key', regex: /\b(?:AccountKey|SharedAccessKey|AccessKey)=([A-Za-z0-9+/=]{20,})/g, group: 1 },
  { rule: 'azure-key', regex: /[?&]sig=([A-Za-z0-9%+/=]{20,})/g, group: 1 },
  { rule: 'azure-key', regex: /\b[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}\b/g },
  { rule: 'slack-token', regex: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g },
  { rule: 'slack-webhook', regex: /https:\/\/hooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9/_-]+/g },
  { rule: 'stripe-key', regex: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g },
  { rule: 'stripe-key', regex: /\bwhsec_[A-Za-z0-9]{20,}\b/g },
  { rule: 'npm-token', regex: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { rule: 'pypi-token', regex: /\bpypi-[A-Za-z0-9_-]{50,}/g },
  { rule: 'openai-key', regex: /\bsk-(?:proj-|ant-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { rule: 'sendgrid-key', regex: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g },
  { rule: 'twilio-key', regex: /\bSK[0-9a-f]{32}\b/g },
  // prefixed hex keys: Mailgun's private API keys (key- + 32 hex)
  { rule: 'mailgun-key', regex: /\bkey-[0-9a-f]{32}\b/gi },
  { rule: 'gitlab-token', regex: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { rule: 'docker-token', regex: /\bdckr_pat_[A-Za-z0-9_-]{20,}/g },
  // Authorization: Bearer …, -H "Authorization: token …", Basic …
  {
    rule: 'auth-header',
    regex:
      /\b(?:authorization|proxy-authorization)\s*[:=]\s*["']?(?:bearer|token|basic|digest)\s+([A-Za-z0-9._~+/=-]{8,})/gi,
    group: 1,
  },
  { rule: 'auth-header', regex: /\bbearer\s+([A-Za-z0-9._~+/=-]{20,})/gi, group: 1 },
  // password=…, "api_key": "…", token = …, DB_PASSWORD: …, --password …
  {
    rule: 'secret-assignment',
    regex: new RegExp(`(?:${SECRET_KEY_NAME})["']?\\s*(?::=|=>|=|:)\\s*["'\`]?([^\\s"'\`,;)}\\]]+)`, 'gi'),
    group: 1,
    accept: isSecretValue,
  },
  {
    rule: 'secret-assignment',
    // a flag, not the end of a compound word ("an identity-token permission")
    regex: /(?<![\w-])--?(?:password|passwd|token|secret|api-key|apikey)[= ]["']?([^\s"']+)/gi,
    group: 1,
    accept: isSecretValue,
  },
  // hex or base64 values assigned to a name that says key: KEY=…, MAILGUN_KEY: …, "signing.key": …
  {
    rule: 'secret-assignment',
    regex:
      /\b(?:[A-Za-z0-9]+[_.-])*keys?(?:[_.-][A-Za-z0-9]+)*["']?\s*(?::=|=>|=|:)\s*["'`]?([A-Za-z0-9+/_-]{16,}={0,2})/gi,
    group: 1,
    accept: isKeyMaterial,
  },
  // long high-entropy blobs (base64 secrets, key material without its PEM header); hex never reaches 4.5 bits
  {
    rule: 'high-entropy',
    regex: /[A-Za-z0-9+/_-]{40,}={0,2}/g,
    accept: (blob) => shannonEntropy(blob) >= 4.5 && /\d/.test(blob) && /[A-Z]/.test(blob) && /[a-z]/.test(blob),
  },
];

/** The patterns compiled with match indices ("d"), so a capture group's position is exact. */
const COMPILED = PATTERNS.map((p) => ({
  ...p,
  regex: new RegExp(p.regex.source, `${p.regex.flags.replace('d', '')}d`),
}));

/**
 * Our own layer, synchronous: used by redaction and by the insight screen. Assignments may
 * overlap (`password-yaml: password: x` holds two), so after one the search restarts at its value.
 */
export function findSecretsByPattern(text: string): SecretFinding[] {
  const findings: SecretFinding[] = [];
  for (const { rule, regex, group, accept } of COMPILED) {
    regex.lastIndex = 0;
    for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
      const secret = group === undefined ? match[0] : match[group];
      const span: [number, number] | undefined =
        group === undefined ? [match.index, match.index + match[0].length] : match.indices?.[group];
      // a whole match is consumed; after a key = value match, the value may itself start the next one
      regex.lastIndex = Math.max(match.index + 1, group === undefined ? (span?.[1] ?? 0) : (span?.[0] ?? 0));
      if (secret === undefined || secret.length === 0 || span === undefined) continue;
      if (accept && !accept(secret, match[0])) continue;
      findings.push({ rule, start: span[0], end: span[1] });
    }
  }
  return findings;
}

/** Sorts and merges overlapping findings; the earliest finding names the merged range. */
function mergeFindings(findings: SecretFinding[]): SecretFinding[] {
  const sorted = [...findings].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: SecretFinding[] = [];
  for (const finding of sorted) {
    const last = merged[merged.length - 1];
    if (last && finding.start <= last.end) last.end = Math.max(last.end, finding.end);
    else merged.push({ ...finding });
  }
  return merged;
}

function applyFindings(text: string, findings: SecretFinding[]): string {
  let out = '';
  let cursor = 0;
  for (const { rule, start, end } of mergeFindings(findings)) {
    out += text.slice(cursor, start) + redactionMarker(rule);
    cursor = end;
  }
  return out + text.slice(cursor);
}

/**
 * Our own layer only, synchronously: for short texts written where no async redactor is at hand
 * (audit details, log fields). Text bound for the LLM or the memory rows uses the full redactor.
 */
export function redactKnownPatterns(text: string): string {
  return applyFindings(text, findSecretsByPattern(text));
}

export interface RedactorOptions {
  /** the maintained scanner layer (default: secretlint's recommended preset) */
  scanner?: SecretScanner;
}

/** Redacts with both layers. Throws MemoryTransferError('redaction-failed') when the scanner fails. */
export async function redactWith(text: string, scanner: SecretScanner): Promise<string> {
  if (text.length === 0) return text;
  let scanned: SecretFinding[];
  try {
    scanned = await scanner(text);
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new MemoryTransferError(`secret redaction failed, nothing was sent or stored: ${why}`, 'redaction-failed');
  }
  return applyFindings(text, [...scanned, ...findSecretsByPattern(text)]);
}

export async function redactText(text: string): Promise<string> {
  return redactWith(text, secretlintScanner);
}

export function createRedactor(options: RedactorOptions = {}): Redactor {
  const scanner = options.scanner ?? secretlintScanner;
  return { redact: (text) => redactWith(text, scanner) };
}

/**
 * A URL without its user-info (`https://user:password@host/…` → `https://host/…`), whatever the
 * user-info holds: done before any other redaction, so no credential survives in a link. Text that
 * does not parse as a URL loses everything between `//` and an `@` before the first `/`.
 */
export function dropUserInfo(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && parsed.password === '') return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^/?#\s]*@/, '//');
  }
}

/**
 * A fix reference (PR or issue number, commit sha, record ref) cleared of secrets with the pattern
 * layer, synchronously: it is part of the natural key (tenant, repo, ref) stored as learned, so
 * learn clears it once, before its first use, and every store of it agrees.
 */
export function redactRef(ref: string): string {
  return redactKnownPatterns(dropUserInfo(ref));
}

/** Every string inside a value (objects and arrays walked), mapped through `f`; other values unchanged. */
export function mapStrings<T>(value: T, f: (text: string) => string): T {
  if (typeof value === 'string') return f(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => mapStrings(item, f)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, f)])) as T;
  }
  return value;
}

/**
 * Redacts every text field of a fix (title, problem, change, signals' names and excerpts, files,
 * labels, and its provenance: url without its user-info, authors, ref) before it reaches the
 * abstractor or the store. Throws like the redactor.
 */
export async function redactFix(fix: Fix, redactor: Redactor): Promise<Fix> {
  const text = (value: string) => redactor.redact(value);
  const optional = async (value: string | undefined) => (value === undefined ? undefined : text(value));
  const [title, problem, change, url, files, labels, authors, signals] = await Promise.all([
    text(fix.title),
    text(fix.problem),
    text(fix.change),
    optional(fix.url === undefined ? undefined : dropUserInfo(fix.url)),
    fix.files.length === 0 ? Promise.resolve([]) : text(fix.files.join('\n')).then((joined) => joined.split('\n')),
    fix.labels === undefined ? Promise.resolve(undefined) : Promise.all(fix.labels.map(text)),
    Promise.all(fix.authors.map(text)),
    Promise.all(
      fix.signals.map(async (signal) => {
        const [name, excerpt] = await Promise.all([optional(signal.name), optional(signal.excerpt)]);
        return {
          ...signal,
          ...(name === undefined ? {} : { name }),
          ...(excerpt === undefined ? {} : { excerpt }),
        };
      }),
    ),
  ]);
  return {
    ...fix,
    title,
    problem,
    change,
    files,
    authors,
    ref: redactRef(fix.ref),
    signals,
    ...(url === undefined ? {} : { url }),
    ...(labels === undefined ? {} : { labels }),
  };
}

/**
 * A logger whose messages and fields are cleared of secrets with the pattern layer (an error
 * message from git or an HTTP client may quote a credential-bearing URL or a token).
 */
export function redactingLogger(logger: Logger): Logger {
  const clean = (message: string, fields?: Record<string, unknown>) =>
    [redactKnownPatterns(message), fields === undefined ? undefined : mapStrings(fields, redactKnownPatterns)] as const;
  return {
    debug: (message, fields) => logger.debug(...clean(message, fields)),
    info: (message, fields) => logger.info(...clean(message, fields)),
    warn: (message, fields) => logger.warn(...clean(message, fields)),
    error: (message, fields) => logger.error(...clean(message, fields)),
  };
}
