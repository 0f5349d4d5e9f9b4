/**
 * Strips hidden text (HTML comments, zero-width and bidi characters, image alt text, collapsed
 * <details> by non-maintainers) before abstraction. (Owner: security; placeholder version.)
 */
export interface SanitizeOptions {
  /** the text's author has write access */
  trustedAuthor: boolean;
}

export function stripHiddenText(text: string, _options: SanitizeOptions): string {
  return text.replace(/<!--[\s\S]*?-->/g, '').replace(/[\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]/g, '');
}
