/**
 * A marker-delimited section inside a user's file (AGENTS.md, CONVENTIONS.md…): replaced on every
 * run, everything outside the markers byte-identical, running twice changes nothing.
 */
import { InputError } from '../../core/errors.js';

export const START_MARKER =
  '<!-- memory-transfer:start (managed by the Memory Transfer action; edits inside are replaced) -->';
export const END_MARKER = '<!-- memory-transfer:end -->';
const START_PREFIX = '<!-- memory-transfer:start';
const END_PREFIX = '<!-- memory-transfer:end';

function indexesOf(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}

/** Does the text hold (any part of) a Memory Transfer section? */
export function hasMarkers(text: string): boolean {
  return text.includes(START_PREFIX) || text.includes(END_PREFIX);
}

/**
 * Returns the file's new text with the section holding `block` (possibly empty). `existing`
 * undefined means the file does not exist. Broken or duplicated markers throw an InputError and
 * nothing is changed: the user's text is never guessed at.
 */
export function upsertMarkedSection(existing: string | undefined, block: string, fileLabel: string): string {
  const crlf = existing !== undefined && existing.includes('\r\n') && !/[^\r]\n/.test(existing);
  const eol = crlf ? '\r\n' : '\n';
  const body = block === '' ? '' : `${block.replace(/\n*$/, '\n')}`.replace(/\r?\n/g, eol);
  const section = `${START_MARKER}${eol}${body}${END_MARKER}`;
  if (existing === undefined || existing === '') return `${section}${eol}`;

  const starts = indexesOf(existing, START_PREFIX);
  const ends = indexesOf(existing, END_PREFIX);
  if (starts.length === 0 && ends.length === 0) {
    const separator = existing.endsWith(eol) ? eol : `${eol}${eol}`;
    return `${existing}${separator}${section}${eol}`;
  }
  const start = starts[0];
  const end = ends[0];
  if (starts.length !== 1 || ends.length !== 1 || start === undefined || end === undefined || end < start) {
    throw new InputError(
      `${fileLabel}: broken Memory Transfer markers (${starts.length} start, ${ends.length} end${
        start !== undefined && end !== undefined && end < start ? ', end before start' : ''
      }); keep exactly one "${START_PREFIX} …-->" line followed by one "${END_MARKER}" line, or delete both. Nothing was changed.`,
      'broken-markers',
    );
  }
  const endClose = existing.indexOf('-->', end);
  if (endClose === -1) {
    throw new InputError(
      `${fileLabel}: the "${END_PREFIX}" marker is not closed with "-->". Nothing was changed.`,
      'broken-markers',
    );
  }
  return `${existing.slice(0, start)}${section}${existing.slice(endClose + 3)}`;
}
