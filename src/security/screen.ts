/**
 * Rejects a would-be insight that reads like an instruction to the agent rather than a
 * validation routine (prompt injection, curl | sh, exfiltration, credentials, foreign URLs).
 * (Owner: security; placeholder version.)
 */
export interface ScreenResult {
  ok: boolean;
  /** why it was rejected, naming the rule */
  reason?: string;
}

export function screenInsightText(text: string): ScreenResult {
  if (/ignore (all |any )?(previous|prior|above) instructions/i.test(text)) {
    return { ok: false, reason: 'prompt-injection: asks to ignore instructions' };
  }
  if (/\b(curl|wget)\b[^|\n]*\|\s*(ba|z)?sh\b/i.test(text)) return { ok: false, reason: 'remote-script: pipes a download to a shell' };
  return { ok: true };
}
