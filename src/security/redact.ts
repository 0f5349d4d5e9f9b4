/**
 * Secret redaction before anything leaves or is stored. (Owner: security. This first version is
 * a placeholder layer; the full version wraps secretlint's recommended preset plus extra rules.)
 */
import type { Redactor } from '../services/ports.js';

export const REDACTED = '[REDACTED]';

const PATTERNS: RegExp[] = [/\bgh[pousr]_[A-Za-z0-9]{20,}\b/g, /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g];

export async function redactText(text: string): Promise<string> {
  let out = text;
  for (const pattern of PATTERNS) out = out.replace(pattern, REDACTED);
  return out;
}

export function createRedactor(): Redactor {
  return { redact: redactText };
}
