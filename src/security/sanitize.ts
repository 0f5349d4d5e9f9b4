/**
 * Strips text a human reader of GitHub does not see but a model would read, before abstraction:
 * HTML comments, zero-width / bidi / tag / variation-selector characters, images (and their alt
 * text), link titles and reference definitions, script/style blocks, and — when the author has no
 * write access — collapsed `<details>` blocks. What stays is what a maintainer reviewing the issue
 * or PR actually saw.
 */
export interface SanitizeOptions {
  /** the text's author has write access */
  trustedAuthor: boolean;
}

/**
 * Invisible characters: zero-width (U+200B–U+200D, U+2060–U+2064, U+FEFF), direction marks and
 * bidi embeddings/overrides/isolates (U+200E–U+200F, U+061C, U+202A–U+202E, U+2066–U+2069), soft
 * hyphen, Mongolian vowel separator, invisible operators, variation selectors, and the Unicode
 * "tag" block (U+E0000–U+E007F) used to smuggle ASCII past human eyes.
 */
export const HIDDEN_CHARACTERS =
  // the class lists invisible code points on purpose (joiners, variation selectors)
  // eslint-disable-next-line no-misleading-character-class
  /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFE00-\uFE0F\uFEFF]|\uDB40[\uDC00-\uDC7F]|\uDB40[\uDD00-\uDDEF]/g;

/** HTML comments; an unclosed one hides everything after it on GitHub, so it is cut to the end. */
const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
/** ![alt](url "title") and ![alt][ref] */
const MARKDOWN_IMAGE = /!\[(?:[^\]\\]|\\.)*\](?:\([^)]*\)|\[[^\]]*\])?/g;
const HTML_IMAGE =
  /<(?:img|picture|svg|source|video|audio|object|embed|iframe)\b[^>]*>(?:[\s\S]*?<\/(?:picture|svg|video|audio|object|iframe)>)?/gi;
/** blocks GitHub never renders */
const INVISIBLE_BLOCKS = /<(script|style|template|noscript)\b[^>]*>[\s\S]*?(?:<\/\1\s*>|$)/gi;
/** [label]: url "title" — a link reference definition renders as nothing ([//]: # (hidden) is a known trick) */
const REFERENCE_DEFINITION = /^[ \t]{0,3}\[[^\]\n]+\]:[^\n]*(?:\n|$)/gm;
/** [text](url "title"): the title is only a tooltip */
const LINK_TITLE = /(\]\([^)\s]*)\s+(?:"[^"]*"|'[^']*'|\([^)]*\))\)/g;
/** an element GitHub hides: <span hidden>, <div aria-hidden="true"> … (the tag and its content) */
const HIDDEN_ELEMENT = /<(\w+)\b[^>]*\s(?:hidden|aria-hidden\s*=\s*["']?true["']?)[^>]*>[\s\S]*?<\/\1\s*>/gi;

/** Removes each `<details>…</details>`, innermost first, so nested blocks go too. */
function removeDetails(text: string): string {
  const innermost = /<details\b[^>]*>(?:(?!<details\b)[\s\S])*?<\/details\s*>/gi;
  let out = text;
  for (let previous = ''; previous !== out;) {
    previous = out;
    out = out.replace(innermost, '');
  }
  // an unclosed <details> collapses everything after it
  return out.replace(/<details\b[\s\S]*$/i, '');
}

export function stripHiddenText(text: string, options: SanitizeOptions): string {
  let out = text.replace(HIDDEN_CHARACTERS, '');
  out = out.replace(HTML_COMMENT, '');
  out = out.replace(INVISIBLE_BLOCKS, '');
  out = out.replace(HIDDEN_ELEMENT, '');
  if (!options.trustedAuthor) out = removeDetails(out);
  out = out.replace(MARKDOWN_IMAGE, '');
  out = out.replace(HTML_IMAGE, '');
  out = out.replace(REFERENCE_DEFINITION, '');
  out = out.replace(LINK_TITLE, '$1)');
  return out.replace(/\n{3,}/g, '\n\n');
}
