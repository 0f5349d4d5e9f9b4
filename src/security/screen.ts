/**
 * Rejects a would-be insight that reads like an instruction to the agent rather than a validation
 * routine. An insight is injected into coding agents across the whole organization, so anything
 * that tells an agent to obey someone, run a remote script, send data out, handle credentials,
 * follow a foreign link, decode a blob or switch checks off is refused, naming the rule.
 */
import { findSecretsByPattern } from './redact.js';
import { HIDDEN_CHARACTERS } from './sanitize.js';

export interface ScreenResult {
  ok: boolean;
  /** why it was rejected, naming the rule */
  reason?: string;
}

export interface ScreenOptions {
  /** hosts links may point to (a host also allows its subdomains); default DEFAULT_ALLOWED_HOSTS */
  allowedHosts?: string[];
}

export const DEFAULT_ALLOWED_HOSTS = ['github.com'];

interface Rule {
  name: string;
  why: string;
  pattern: RegExp;
  /** a negation just before the match ("never use --no-verify") makes it advice, not an instruction */
  negatable?: boolean;
}

const RULES: Rule[] = [
  {
    name: 'prompt-injection',
    why: 'asks to ignore or replace instructions',
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass|skip)\b[^.\n]{0,40}\b(?:previous|prior|above|earlier|preceding|system|original|all|any|your|other)\b[^.\n]{0,20}\b(?:instructions?|prompts?|rules|directions|guidelines|context|messages?|policies)\b/i,
  },
  {
    name: 'prompt-injection',
    why: 'addresses the agent as a new authority',
    pattern:
      /\b(?:new|updated|real|actual|hidden|secret) (?:instructions?|task|orders|directives?)\s*[:-]|\bfrom now on\b|\bdo not (?:tell|inform|mention (?:this )?to) the (?:user|human|maintainers?)\b|\b(?:attention|note to|message for|dear) (?:ai|agents?|llms?|assistants?|copilot|claude|chatgpt|coding agents?)\b|\bif you are an? (?:ai|llm|language model|agent|assistant)\b|\b(?:ai|llm) agents? (?:reading|that reads?|processing) this\b/i,
  },
  {
    name: 'role-play',
    why: 'role-play or system-prompt talk',
    pattern:
      /\b(?:you are now|act as (?:an?|the) |pretend (?:to be|you are)|role-?play|system prompt|developer mode|jailbreak|DAN mode|as an ai language model)\b|<\|im_start\|>|<\|system\|>|\[\/?INST\]|<<SYS>>|^\s*#{1,3}\s*(?:system|assistant)\s*:?\s*$|^\s*(?:system|assistant)\s*:/im,
  },
  {
    name: 'remote-script',
    why: 'pipes a download into an interpreter',
    pattern:
      /\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod|fetch)\b[^\n|]*\|\s*(?:sudo\s+)?(?:ba|z|k|da|fi)?sh\b|\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n|]*\|\s*(?:sudo\s+)?(?:python\d?|node|perl|ruby|php|iex|invoke-expression)\b|(?:ba|z)?sh\s+<\(\s*(?:curl|wget)|\$\(\s*(?:curl|wget)\b|\beval\s+["']?\$\(|\biex\s*\(/i,
  },
  {
    name: 'exfiltration',
    why: 'sends data out of the repository',
    pattern:
      /\b(?:send|post|upload|exfiltrate|forward|transmit|leak|email|e-mail|mail|beacon|pipe|copy|push|report)\b[^.\n]{0,60}\b(?:to|into|at|via)\b[^.\n]{0,40}(?:https?:\/\/|\bwebhooks?\b|\b(?:remote|external|our|my|attacker'?s?|third-party|outside|public|personal) (?:servers?|endpoints?|hosts?|urls?|address|buckets?|machines?)\b|\bpastebin\b|\bngrok\b|\brequestbin\b|\binteractsh\b|\bburp\w*\b|\b\d{1,3}(?:\.\d{1,3}){3}\b|\b[\w.+-]+@[\w-]+\.[\w.]+\b|\battacker\b)/i,
  },
  {
    name: 'exfiltration',
    why: 'uploads data with a network tool',
    pattern:
      /\bcurl\b[^\n]*\s(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form|-T|--upload-file)\b|\b(?:nc|ncat|netcat|socat)\s+(?:-\w+\s+)*[\w.-]+\s+\d{2,5}\b|\/dev\/(?:tcp|udp)\/|\bscp\s+\S+\s+\S+@|\b(?:dig|nslookup)\s+\S*\$/i,
  },
  {
    name: 'credentials',
    why: 'reads or reveals credentials',
    pattern:
      /\b(?:print|echo|cat|dump|reveal|output|expose|display|paste|share|collect|upload|send|leak|exfiltrate|base64)\s+(?:out\s+)?(?:the |all |your |any |every |its |their |of the )*(?:\w+ ){0,2}\w*(?:tokens?|secrets?|passwords?|credentials?|api[ _-]?keys?|private keys?|ssh keys?|env(?:ironment)?(?: var(?:iable)?s?)?|cookies?|session ids?)\b|\$\{?\w*(?:TOKEN|SECRET|KEY|PASSWORD|PASS)\b|\bprintenv\b|\benv\s*\||\bset\s*\|\s*(?:curl|nc|base64)|~\/\.(?:ssh|aws|npmrc|netrc|docker|kube|gnupg|git-credentials|pypirc)\b|\/etc\/(?:passwd|shadow)\b|\bsecrets\.[A-Z_]+\b|\bprocess\.env\b(?!\.[A-Z_]+)|\[REDACTED(?::[a-z0-9-]+)?\]/i,
    negatable: true,
  },
  {
    name: 'destructive-command',
    why: 'runs a destructive or permission-widening command',
    pattern:
      /\brm\s+-(?:[a-z]*r[a-z]*f|[a-z]*f[a-z]*r)[a-z]*\b|\bchmod\s+(?:-R\s+)?(?:0?777|a\+rwx|\+s|u\+s)\b|\bchown\s+-R\s+root\b|\bmkfs(?:\.\w+)?\b|\bdd\s+if=|:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:|\bgit\s+push\s+(?:--force|-f)\b[^\n]*\b(?:main|master)\b|\bsudo\s+su\b|\bsetenforce\s+0\b|\bcrontab\s+-r\b/i,
  },
  {
    name: 'disables-checks',
    why: 'tells the agent to switch checks off',
    pattern:
      /--no-verify\b|\bHUSKY=0\b|\bcore\.hooksPath\b|\[(?:skip ci|ci skip|no ci|skip actions|actions skip)\]|\bNODE_TLS_REJECT_UNAUTHORIZED\s*=\s*["']?0|\bGIT_SSL_NO_VERIFY\b|--no-check-certificate\b|\bcurl\b[^\n]*\s(?:-k|--insecure)\b|\bcontinue-on-error:\s*true\b|\|\|\s*true\b|\bset\s+\+e\b|-DskipTests\b|--skip-?tests?\b|--passWithNoTests\b|\b(?:disable|skip|delete|remove|comment out|turn off|switch off|bypass|mute|silence)\b(?!\s+(?:or|and)\b)[^.\n]{0,30}\b(?:the |all |any |failing |flaky )*(?:tests?|test suites?|(?<!\b(?:path|traversal|bounds|range|length|null)\s)checks?|ci|workflows?|linters?|lint(?:ing)?|type[- ]?checks?|hooks?|pre-commit|branch protection|code ?owners|review)\b|\b(?:it|test|describe)\.skip\b|\bxit\(|@pytest\.mark\.skip\b|@(?:Ignore|Disabled)\b|eslint-disable\b|@ts-(?:ignore|nocheck)\b|#\s*type:\s*ignore\b|#\s*noqa\b/i,
    negatable: true,
  },
];

const NEGATION =
  /\b(?:never|avoid(?:ing)?|don't|do not|must not|mustn't|should not|shouldn't|cannot|can't|no|not|without|instead of|rather than|refuse to|prevents?|forbid|flag|reject|rejects|detect|detects|catch(?:es)?)\b(?!\s+(?:forget|hesitate|miss|fail|wait))/i;

/** Is the match introduced by a negation in the same clause ("never use --no-verify")? */
function negated(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - 60), index);
  const clause = before.split(/[.!?;:,\n]/).pop() ?? before;
  return NEGATION.test(clause.slice(-40));
}

const URL_LIKE =
  /\b(?:[a-z][a-z0-9+.-]*:\/\/[^\s<>"'`)\]]+|www\.[^\s<>"'`)\]]+|(?:data|javascript|vbscript|file):[^\s<>"'`)\]]+)/gi;
const IP_ADDRESS = /\b(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\b/g;

function hostAllowed(host: string, allowed: string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return allowed.some((a) => {
    const allow = a
      .toLowerCase()
      .replace(/^https?:\/\//, '')
      .replace(/\/.*$/, '');
    return h === allow || h.endsWith(`.${allow}`);
  });
}

function foreignUrl(text: string, allowed: string[]): string | undefined {
  for (const match of text.matchAll(URL_LIKE)) {
    const raw = match[0];
    if (/^(?:data|javascript|vbscript|file):/i.test(raw)) return raw;
    let url: URL;
    try {
      url = new URL(/^www\./i.test(raw) ? `https://${raw}` : raw);
    } catch {
      return raw;
    }
    if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password) return raw;
    if (!hostAllowed(url.hostname, allowed)) return raw;
  }
  for (const match of text.matchAll(IP_ADDRESS)) {
    const octets = match.slice(1, 5).map(Number);
    const loopback = octets[0] === 127 || octets.every((o) => o === 0);
    if (!loopback && octets.every((o) => o <= 255)) return match[0];
  }
  return undefined;
}

/** base64 (≥ 32 chars, or ≥ 20 with padding), long hex (≥ 64), \x / %xx / \u escape runs: content a reader cannot check */
function encodedBlob(text: string): string | undefined {
  const base64 = /[A-Za-z0-9+/]{20,}={1,2}|[A-Za-z0-9+/]{32,}|[A-Za-z0-9_-]{40,}/.exec(text);
  if (base64 && /\d/.test(base64[0]) && /[A-Z]/.test(base64[0]) && /[a-z]/.test(base64[0])) return base64[0];
  const other =
    /\b[0-9a-f]{64,}\b|(?:\\x[0-9a-f]{2}){6,}|(?:%[0-9a-f]{2}){6,}|(?:\\u[0-9a-f]{4}){4,}|(?:&#x?[0-9a-f]+;){6,}/i.exec(
      text,
    );
  return other?.[0];
}

/** Cyrillic and Greek letters drawn like Latin ones. */
const LOOK_ALIKES: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  һ: 'h',
  ӏ: 'l',
  ԛ: 'q',
  ԝ: 'w',
  ɡ: 'g',
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  У: 'Y',
  Х: 'X',
  І: 'I',
  Ј: 'J',
  Ѕ: 'S',
  α: 'a',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
};
const LOOK_ALIKE_PATTERN = new RegExp(`[${Object.keys(LOOK_ALIKES).join('')}]`, 'g');
const MIXED_SCRIPT_WORD =
  /(?:[A-Za-z][\u0370-\u03FF\u0400-\u04FF\u0500-\u052F\u0261]|[\u0370-\u03FF\u0400-\u04FF\u0500-\u052F\u0261][A-Za-z])/;

export function screenInsightText(text: string, options: ScreenOptions = {}): ScreenResult {
  HIDDEN_CHARACTERS.lastIndex = 0;
  if (HIDDEN_CHARACTERS.test(text)) return { ok: false, reason: 'hidden-characters: contains invisible characters' };
  // a word mixing Latin with Cyrillic or Greek letters is a disguise ("ignоre" with a Cyrillic о)
  if (MIXED_SCRIPT_WORD.test(text))
    return { ok: false, reason: 'homoglyphs: mixes look-alike letters of other scripts' };
  // fold look-alikes (full-width letters, ligatures, Cyrillic/Greek twins) so "ｉｇｎｏｒｅ" reads as "ignore"
  const normalized = text.normalize('NFKC').replace(LOOK_ALIKE_PATTERN, (c) => LOOK_ALIKES[c] ?? c);

  for (const rule of RULES) {
    const match = rule.pattern.exec(normalized);
    if (!match) continue;
    if (rule.negatable && negated(normalized, match.index)) {
      // a negated mention is fine only if no other mention of the same rule stands alone
      const global = new RegExp(rule.pattern.source, `${rule.pattern.flags.replace('g', '')}g`);
      const standalone = [...normalized.matchAll(global)].some((m) => !negated(normalized, m.index ?? 0));
      if (!standalone) continue;
    }
    return { ok: false, reason: `${rule.name}: ${rule.why}` };
  }

  const secrets = findSecretsByPattern(normalized);
  if (secrets.length > 0) return { ok: false, reason: `credentials: contains a ${secrets[0]?.rule ?? 'secret'}` };

  const url = foreignUrl(normalized, options.allowedHosts ?? DEFAULT_ALLOWED_HOSTS);
  if (url !== undefined)
    return { ok: false, reason: `foreign-url: links outside the allow-list (${url.slice(0, 60)})` };

  const blob = encodedBlob(normalized);
  if (blob !== undefined) return { ok: false, reason: 'encoded-blob: contains an encoded blob a reader cannot check' };

  return { ok: true };
}

/**
 * Screens every text of a memory (title, description, content, and its level's body). For
 * memories that did not come through learn: imported pool files, the Action's pool-file mode,
 * `mcp --pool` (services/pool-screen.ts adds the check that an insight is abstract).
 */
export function screenMemory(
  memory: { level?: string; title: string; description: string; content: string; body?: unknown },
  options: ScreenOptions = {},
): ScreenResult {
  return screenInsightText(memoryTexts(memory).join('\n'), options);
}

/** Every text of a memory: title, description, content and its level's body. */
export function memoryTexts(memory: { title: string; description: string; content: string; body?: unknown }): string[] {
  return [memory.title, memory.description, memory.content, ...stringsOf(memory.body)];
}

/** Every string inside a memory body, as written (not JSON-escaped: a line break stays one). */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}
