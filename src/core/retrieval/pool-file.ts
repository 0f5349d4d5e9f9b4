/**
 * The pool file: a versioned JSON Lines export of a pool (docs/export-format.md). Line 1 is a
 * header, then one memory per line with every Memory field and no vectors. `memory-transfer
 * export` writes it; every reader (`import`, `mcp --pool`, the Action's pool-file mode and its MCP
 * server) reads its bytes, plain or gzip-compressed, with parsePoolBytes or parsePoolEntries.
 */
import { isAscii } from 'node:buffer';
import { crc32, gunzipSync, gzipSync } from 'node:zlib';
import { InputError } from '../errors.js';
import { sha256Hex } from '../sha256.js';
import { lexicalCounts, type IndexEntry, type LexicalStats, type TermCounts } from './memory-index.js';
import { TERMS_VERSION } from '../text.js';
import { checkHeader, checkMemory, PoolFieldError } from './pool-check.js';
import { MEMORY_LEVELS, MEMORY_STATUSES, type Memory, type Provenance } from '../types.js';
import { effectiveVisibility } from '../visibility.js';

export const POOL_FORMAT = 'memory-transfer-pool';
export const POOL_VERSION = 1;

export interface PoolHeader {
  format: typeof POOL_FORMAT;
  version: number;
  /** the pool's organization, lower-case */
  tenant: string;
  /** ISO 8601 */
  exportedAt: string;
  /** how many memory lines follow (a cut file is detected) */
  count?: number;
}

export interface ParsedPool {
  header: PoolHeader;
  memories: Memory[];
  /**
   * The memories' lexical statistics from the header's `terms`, when the file carries them, they
   * were counted by this version's tokenizer and its memory lines are those they were counted on
   * (their digest matches); a MemoryIndex over `memories` then needs no tokenizing.
   */
  terms?: LexicalStats;
  /** why the header's `terms` are not used (the file's lines changed since, another tokenizer version) */
  termsUnused?: string;
}

/**
 * The header's `terms` (written by `export --for-action`): every memory's terms counted ahead, so
 * the Action ranks a pool of thousands of insights without tokenizing all of their texts at
 * every start. Numbers are base 36.
 */
export interface PoolTerms {
  /** TERMS_VERSION of the tokenizer that counted them */
  version: number;
  /** SHA-256 (hex) of the memory lines as stored: every byte after the header line's newline */
  digest: string;
  /** each memory's number of terms, in line order, comma-separated */
  lengths: string;
  /**
   * term → the memories containing it: comma-separated entries, each the distance from the
   * previous memory's position (from -1 for the first), then `.` and the term's count in it when
   * above 1 ("0,3.2": the first memory once, the fourth twice)
   */
  postings: Record<string, string>;
  /**
   * CRC-32 (8 hex digits) of the same bytes as `digest` (optional: exports before it lack it): what
   * the Action checks the lines against when it indexes the file by `ids` and `kinds` (a SHA-256 of
   * 5 MB was a fifth of a start's instructions; CRC-32 catches an edited line as surely, and neither
   * stops a hand that counts it again)
   */
  crc32?: string;
  /**
   * Each memory's id, in line order, comma-separated (optional: exports before it lack it). With
   * `kinds`, what the Action indexes a line by, so it need not parse every line at start.
   */
  ids?: string;
  /**
   * Each memory's level and status, two digits a memory in line order: the level's position in
   * MEMORY_LEVELS (trajectory, workflow, summary, insight), then the status's in MEMORY_STATUSES
   * (proposed, active, rejected, archived): an active insight is "31".
   */
  kinds?: string;
}

// the checks of every line: src/core/retrieval/pool-check.ts
/** The header line (no newline). */
export function poolHeaderLine(header: Omit<PoolHeader, 'format' | 'version'>): string {
  const full: PoolHeader = { format: POOL_FORMAT, version: POOL_VERSION, ...header };
  return JSON.stringify(full);
}

/** One memory line (no newline); fields in a stable order, optional ones only when set. */
export function memoryLine(memory: Memory): string {
  return JSON.stringify(memory);
}

/** The most sources an insight of an Action pool file keeps (its `support` still counts every fix). */
export const ACTION_SOURCES = 12;

/**
 * An insight as the Action's pool file carries it: its sources cut to a bounded representative
 * list, so a file stays sized for a repository however many fixes taught an insight (an insight
 * merged from 1,878 fixes carried 367 KB of provenance). What the Action decides with is kept:
 * - `visibility` becomes the most private of the field and every source (so no dropped source can
 *   widen who may see it);
 * - a source of another organization is kept (it forbids serving the insight in any repository);
 * - the first source (the origin an injection names), then one source per repository and
 *   visibility (the newest), newest first, up to ACTION_SOURCES;
 * - `support` (how many fixes taught it) is unchanged.
 * Other levels keep every source: they are served only where every one of their sources is.
 */
export function forActionFile(memory: Memory): Memory {
  const [origin, ...rest] = memory.provenance;
  if (memory.level !== 'insight' || !origin || rest.length === 0) return memory;
  const keyOf = (source: Provenance) =>
    `${source.tenant.toLowerCase()}\u0000${source.repo.toLowerCase()}\u0000${source.visibility}`;
  const newest = new Map<string, Provenance>();
  for (const source of rest) {
    const key = keyOf(source);
    if (key === keyOf(origin)) continue;
    const known = newest.get(key);
    if (!known || source.date > known.date) newest.set(key, source);
  }
  const tenant = memory.tenant.toLowerCase();
  const foreign = (source: Provenance) => (source.tenant.toLowerCase() === tenant ? 1 : 0);
  const others = [...newest.values()].sort(
    (a, b) => foreign(a) - foreign(b) || (a.date < b.date ? 1 : a.date > b.date ? -1 : 0),
  );
  return {
    ...memory,
    visibility: effectiveVisibility(memory),
    provenance: [origin, ...others].slice(0, ACTION_SOURCES),
  };
}

/** gzip's magic bytes: a pool file that starts with them is compressed. */
const GZIP_MAGIC = [0x1f, 0x8b] as const;

/** A pool file's text from its bytes, gzip-compressed (`.jsonl.gz`) or plain. */
export function decodePoolBytes(bytes: Uint8Array): string {
  return textOf(poolBuffer(bytes));
}

/** The largest uncompressed size read into one buffer at once (a pool file is a few MB). */
const MAX_ONE_CHUNK = 256 * 1024 * 1024;

/** The uncompressed bytes of a pool file (not copied when they are plain). */
function poolBuffer(bytes: Uint8Array): Buffer {
  const gzipped = bytes.length >= 2 && bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];
  if (!gzipped) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // gzip's last four bytes hold the uncompressed size (mod 2^32): one output buffer of that
  // size, not 16 KB chunks copied together at the end (a wrong size only costs the chunking)
  const size =
    bytes.length >= 18
      ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).readUInt32LE(bytes.length - 4)
      : 0;
  try {
    return gunzipSync(bytes, size > 0 && size <= MAX_ONE_CHUNK ? { chunkSize: Math.max(size + 1, 64) } : {});
  } catch {
    throw new InputError('the pool file starts like gzip but does not decompress: export it again');
  }
}

/** UTF-8 text. */
function textOf(buffer: Buffer): string {
  return buffer.toString('utf8');
}

/** The lines of a file, as `text.split(/\r?\n/)` cuts them. */
function linesOf(text: string): string[] {
  return text.replace(/^\uFEFF/, '').split(/\r?\n/);
}

/**
 * The lines of pure ASCII bytes (the Action's file, written so), as linesOf cuts them: each line
 * decoded when it is read, with no string of the whole file and no pattern to split it. `start`
 * and `stop` are the bytes of the line last read.
 */
class AsciiLines implements Iterable<string> {
  start = 0;
  stop = 0;

  constructor(private readonly buffer: Buffer) {}

  *[Symbol.iterator](): Iterator<string> {
    const { buffer } = this;
    for (let start = 0; start <= buffer.length;) {
      let end = buffer.indexOf(0x0a, start);
      if (end === -1) end = buffer.length;
      const stop = end > start && buffer[end - 1] === 0x0d ? end - 1 : end;
      this.start = start;
      this.stop = stop;
      yield buffer.toString('latin1', start, stop);
      start = end + 1;
    }
  }
}

/**
 * Parses a pool file's bytes (plain or gzip-compressed): parsePool, and the header's `terms`
 * checked against the digest of the memory lines' very bytes.
 */
export function parsePoolBytes(bytes: Uint8Array): ParsedPool {
  const buffer = poolBuffer(bytes);
  const lines = isAscii(buffer) ? new AsciiLines(buffer) : linesOf(textOf(buffer));
  const memories: Memory[] = [];
  const read = readPoolLines(lines, bodyDigestOf(buffer), (memory) => memories.push(memory));
  return { ...read, memories };
}

/** A pool file read for ranking: every line checked, each memory kept as an entry (PoolEntry). */
export interface PoolEntries extends Omit<ParsedPool, 'memories'> {
  entries: PoolEntry[];
}

/**
 * A memory line as an index entry: what search filters on, and the memory, parsed again from its
 * line when it is first asked for (the Action ranks thousands of lines and reads a few dozen).
 */
export type PoolEntry = IndexEntry;

/**
 * Parses a pool file's bytes like parsePoolBytes (every line is parsed and checked: a bad line
 * fails the file, naming it), but keeps of each memory only its entry: of a pure ASCII file (the
 * Action's) the line's place in the bytes, read again on demand, so thousands of parsed memories
 * do not stay in memory to be copied around by the GC at every start.
 */
export function parsePoolEntries(bytes: Uint8Array): PoolEntries {
  const buffer = poolBuffer(bytes);
  const entries: PoolEntry[] = [];
  const bodyDigest = bodyDigestOf(buffer);
  if (!isAscii(buffer)) {
    const read = readPoolLines(linesOf(textOf(buffer)), bodyDigest, (memory) =>
      entries.push(entryOf(memory, () => memory)),
    );
    return { ...read, entries };
  }
  const indexed = indexedEntries(buffer, bodyDigest);
  if (indexed) return indexed;
  const lines = new AsciiLines(buffer);
  const read = readPoolLines(lines, bodyDigest, (memory) => {
    const { start, stop } = lines;
    let again: Memory | undefined;
    // the same line, checked the same way: the same memory
    entries.push(entryOf(memory, () => (again ??= checkMemory(JSON.parse(buffer.toString('latin1', start, stop))))));
  });
  return { ...read, entries };
}

function entryOf(memory: Memory, read: () => Memory): PoolEntry {
  return { id: memory.id, tenant: memory.tenant, level: memory.level, status: memory.status, memory: read };
}

/** The digest of the memory lines, computed once. */
function bodyDigestOf(buffer: Buffer): () => string {
  let digest: string | undefined;
  return () => (digest ??= sha256Hex(buffer.subarray(buffer.indexOf(0x0a) + 1)));
}

/** A memory line read on demand does not hold what the header's index says of it, or is malformed. */
export class PoolLineError extends InputError {}

/**
 * The entries of an Action file whose memory lines are exactly those its `terms` were counted on
 * (their CRC-32, or without one their digest, matches) and whose `terms` index every line (`ids`, `kinds`): each line's place is
 * found by its newline, and a line is parsed and checked only when recall reads its memory (a
 * malformed one then fails the run with a PoolLineError naming the line, and the memory must be
 * the one the index announced). Undefined for any other file, or when anything in it does not
 * agree (a blank line, a count or an id that differs, a duplicate id): the caller then reads every
 * line as before, which names the first problem. The digest covers every byte of the lines, so
 * a line damaged or edited since the export is always read at start.
 */
function indexedEntries(buffer: Buffer, bodyDigest: () => string): PoolEntries | undefined {
  const headerEnd = buffer.indexOf(0x0a);
  if (headerEnd <= 0 || buffer[headerEnd - 1] === 0x0d) return undefined;
  const first = buffer.toString('latin1', 0, headerEnd);
  if (first.trim() === '') return undefined;
  // a bad header fails here as it would fail on the line-by-line read: line 1, the same message
  const { header, terms } = parseHeader(first, 1);
  if (!terms || terms.version !== TERMS_VERSION || typeof terms.ids !== 'string' || typeof terms.kinds !== 'string')
    return undefined;
  // the lines as counted: their CRC-32 where the export wrote one, else their SHA-256
  const lines = buffer.subarray(headerEnd + 1);
  const unchanged =
    typeof terms.crc32 === 'string' && /^[0-9a-f]{8}$/.test(terms.crc32)
      ? crc32Hex(lines) === terms.crc32
      : bodyDigest() === terms.digest;
  if (!unchanged) return undefined;
  const ids = terms.ids === '' ? [] : terms.ids.split(',');
  const count = ids.length;
  if (terms.kinds.length !== 2 * count || (header.count !== undefined && header.count !== count)) return undefined;
  if (new Set(ids).size !== count) return undefined;
  const entries: PoolEntry[] = [];
  let start = headerEnd + 1;
  for (let i = 0; i < count; i += 1) {
    const end = buffer.indexOf(0x0a, start);
    // every line ends with a newline, none is blank, no carriage return (as the export writes them)
    if (end <= start || buffer[end - 1] === 0x0d) return undefined;
    const level = MEMORY_LEVELS[terms.kinds.charCodeAt(2 * i) - 48];
    const status = MEMORY_STATUSES[terms.kinds.charCodeAt(2 * i + 1) - 48];
    if (level === undefined || status === undefined) return undefined;
    const id = ids[i] as string;
    const lineNo = i + 2;
    const stop = end;
    const lineStart = start;
    let memory: Memory | undefined;
    entries.push({
      id,
      tenant: header.tenant,
      level,
      status,
      memory: () =>
        (memory ??= indexedLine(buffer.toString('latin1', lineStart, stop), lineNo, header.tenant, id, level, status)),
    });
    start = end + 1;
  }
  if (start !== buffer.length) return undefined;
  return { header, terms: decodeTerms(terms, count, 1), entries };
}

/** A line of an indexed file, read when its memory is first asked for: checked as at start, and against the index. */
function indexedLine(raw: string, lineNo: number, tenant: string, id: string, level: string, status: string): Memory {
  let memory: Memory;
  try {
    memory = validate(parseJson(raw, lineNo), lineNo, checkMemory);
  } catch (error) {
    throw new PoolLineError(error instanceof Error ? error.message : String(error));
  }
  if (memory.tenant !== tenant)
    throw new PoolLineError(`line ${lineNo}: tenant: "${memory.tenant}" differs from the header's "${tenant}"`);
  for (const [field, expected, got] of [
    ['id', id, memory.id],
    ['level', level, memory.level],
    ['status', status, memory.status],
  ] as const) {
    if (got !== expected)
      throw new PoolLineError(
        `line ${lineNo}: ${field}: "${got}" differs from the header's terms ("${expected}"; export the file again)`,
      );
  }
  return memory;
}

/**
 * A pool file's bytes for a path: gzip-compressed when the name ends in `.gz` (a pool of a few
 * thousand insights is several MB of JSON Lines and a tenth of that compressed), else plain text.
 */
export function encodePoolBytes(text: string, path: string): Uint8Array {
  return path.toLowerCase().endsWith('.gz') ? gzipSync(text, { level: 9 }) : Buffer.from(text, 'utf8');
}

/**
 * The whole file: header, then one memory per line, ending with a newline. `forAction` (the
 * Action's file): the header carries the memories' terms counted ahead (PoolTerms), and the text
 * is pure ASCII, every other character written as a JSON `\u` escape (the same values, read
 * faster: the reader decodes the bytes as they are and JSON.parse scans one-byte strings).
 */
export function serializePool(
  header: { tenant: string; exportedAt: string },
  memories: Memory[],
  options: { forAction?: boolean } = {},
): string {
  const escape = options.forAction ? asciiJson : (line: string) => line;
  const body = memories.map((memory) => `${escape(memoryLine(memory))}\n`).join('');
  const full: PoolHeader & { terms?: PoolTerms } = {
    format: POOL_FORMAT,
    version: POOL_VERSION,
    ...header,
    count: memories.length,
    ...(options.forAction ? { terms: poolTerms(memories, body) } : {}),
  };
  return `${escape(JSON.stringify(full))}\n${body}`;
}

/** JSON text with every non-ASCII character as a `\u` escape (the same JSON value). */
function asciiJson(json: string): string {
  return json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function crc32Hex(data: string | Uint8Array): string {
  return crc32(data).toString(16).padStart(8, '0');
}

/** The header's `terms` for these memories, serialized as `body`. */
export function poolTerms(memories: readonly Memory[], body: string): PoolTerms {
  const { lengths, terms } = lexicalCounts(memories);
  const postings: [string, string][] = [];
  for (const [term, { docs, tfs }] of terms) {
    const entries: string[] = [];
    let previous = -1;
    for (let i = 0; i < docs.length; i += 1) {
      const doc = docs[i] as number;
      const tf = tfs[i] as number;
      entries.push(tf === 1 ? (doc - previous).toString(36) : `${(doc - previous).toString(36)}.${tf.toString(36)}`);
      previous = doc;
    }
    postings.push([term, entries.join(',')]);
  }
  return {
    version: TERMS_VERSION,
    digest: sha256Hex(body),
    crc32: crc32Hex(body),
    lengths: lengths.map((length) => length.toString(36)).join(','),
    // (fromEntries defines each key as its own property, whatever the term)
    postings: Object.fromEntries(postings),
    ids: memories.map((memory) => memory.id).join(','),
    kinds: memories
      .map((memory) => `${MEMORY_LEVELS.indexOf(memory.level)}${MEMORY_STATUSES.indexOf(memory.status)}`)
      .join(''),
  };
}

const BASE36 = /^[0-9a-z]+$/;

function base36(text: string): number {
  return BASE36.test(text) ? parseInt(text, 36) : Number.NaN;
}

/** The header's `terms`, checked for shape (a damaged one fails the file: export it again). */
function termsOf(raw: unknown, lineNo: number): PoolTerms | undefined {
  if (raw === undefined) return undefined;
  const bad = (field: string, what: string) => new InputError(`line ${lineNo}: terms${field}: ${what}`);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw bad('', 'expected an object');
  const value = raw as Record<string, unknown>;
  if (!Number.isInteger(value.version)) throw bad('.version', 'expected a whole number');
  if (typeof value.digest !== 'string' || !/^[0-9a-f]{64}$/.test(value.digest))
    throw bad('.digest', 'expected a SHA-256 in hex');
  if (typeof value.lengths !== 'string') throw bad('.lengths', 'expected a string');
  const postings = value.postings;
  if (typeof postings !== 'object' || postings === null || Array.isArray(postings))
    throw bad('.postings', 'expected an object');
  return value as unknown as PoolTerms;
}

/**
 * The statistics of the header's `terms` over `count` memories: lengths decoded now, a term's
 * postings on first use (a recall looks up a few dozen terms of thousands).
 */
function decodeTerms(terms: PoolTerms, count: number, lineNo: number): LexicalStats {
  const parts = terms.lengths === '' ? [] : terms.lengths.split(',');
  if (parts.length !== count)
    throw new InputError(`line ${lineNo}: terms.lengths: ${parts.length} lengths for ${count} memories`);
  const lengths = new Int32Array(count);
  for (let i = 0; i < count; i += 1) {
    const length = base36(parts[i] as string);
    if (!(length >= 0)) throw new InputError(`line ${lineNo}: terms.lengths: entry ${i + 1} is not a number`);
    lengths[i] = length;
  }
  const { postings } = terms;
  return {
    lengths,
    counts(term) {
      if (!Object.hasOwn(postings, term)) return undefined;
      const encoded = postings[term];
      const damaged = () =>
        new InputError(`line ${lineNo}: terms.postings.${term}: not a list of postings (export the file again)`);
      if (typeof encoded !== 'string' || encoded === '') throw damaged();
      const entries = encoded.split(',');
      const docs = new Int32Array(entries.length);
      const tfs = new Int32Array(entries.length);
      let doc = -1;
      for (let i = 0; i < entries.length; i += 1) {
        const entry = entries[i] as string;
        const dot = entry.indexOf('.');
        const step = base36(dot === -1 ? entry : entry.slice(0, dot));
        const tf = dot === -1 ? 1 : base36(entry.slice(dot + 1));
        if (!(step >= 1) || !(tf >= 1)) throw damaged();
        doc += step;
        if (doc >= count) throw damaged();
        docs[i] = doc;
        tfs[i] = tf;
      }
      return { docs, tfs } satisfies TermCounts;
    },
  };
}

/**
 * Parses a pool file. Throws InputError naming the line and the field for a malformed line, a
 * file from a newer version, a memory of another tenant, a duplicate id or a cut file.
 */
export function parsePool(input: string): ParsedPool {
  const memories: Memory[] = [];
  const read = readPoolLines(
    linesOf(input),
    () => sha256Hex(input.slice(input.indexOf('\n') + 1)),
    (memory) => memories.push(memory),
  );
  return { ...read, memories };
}

/**
 * Reads a file's lines: the header, then each memory checked and handed to `keep`; with the digest
 * of every byte after the file's first newline (the memory lines) to check the header's `terms`.
 */
function readPoolLines(
  lines: Iterable<string>,
  bodyDigest: () => string,
  keep: (memory: Memory) => void,
): Omit<ParsedPool, 'memories'> {
  let lineNo = 0;
  let parsedHeader: ReturnType<typeof parseHeader> | undefined;
  let count = 0;
  const ids = new Map<string, number>();
  // line by line: a line's text is not kept once its memory is read (it would only weigh on the GC)
  for (const raw of lines) {
    lineNo += 1;
    if (raw.trim() === '') continue;
    if (!parsedHeader) {
      parsedHeader = parseHeader(raw, lineNo);
      continue;
    }
    const { header } = parsedHeader;
    const memory = validate(parseJson(raw, lineNo), lineNo, checkMemory);
    if (memory.tenant !== header.tenant) {
      throw new InputError(`line ${lineNo}: tenant: "${memory.tenant}" differs from the header's "${header.tenant}"`);
    }
    const earlier = ids.get(memory.id);
    if (earlier !== undefined) throw new InputError(`line ${lineNo}: id: "${memory.id}" already on line ${earlier}`);
    ids.set(memory.id, lineNo);
    keep(memory);
    count += 1;
  }
  if (!parsedHeader) throw new InputError('the pool file is empty (expected a header line)');
  const { header, terms, lineNo: headerLine } = parsedHeader;
  if (header.count !== undefined && header.count !== count) {
    throw new InputError(`the header announces ${header.count} memories but the file has ${count} (cut file?)`);
  }
  if (!terms) return { header };
  // counted by another tokenizer, or on other lines (edited since): the reader counts them itself
  if (terms.version !== TERMS_VERSION)
    return { header, termsUnused: `its terms were counted by tokenizer version ${terms.version}` };
  if (bodyDigest() !== terms.digest)
    return { header, termsUnused: 'its memory lines changed since their terms were counted' };
  return { header, terms: decodeTerms(terms, count, headerLine) };
}

function parseHeader(raw: string, lineNo: number): { header: PoolHeader; terms?: PoolTerms; lineNo: number } {
  const value = parseJson(raw, lineNo);
  const format = (value as { format?: unknown } | null)?.format;
  if (format === POOL_FORMAT) {
    const version = (value as { version?: unknown }).version;
    if (typeof version === 'number' && version > POOL_VERSION) {
      throw new InputError(
        `line ${lineNo}: version: the file is format version ${version}, newer than this memory-transfer reads (${POOL_VERSION}); upgrade memory-transfer`,
      );
    }
  }
  const header = validate(value, lineNo, checkHeader(POOL_FORMAT));
  const terms = termsOf((value as { terms?: unknown }).terms, lineNo);
  return {
    header: { ...header, format: POOL_FORMAT, tenant: header.tenant.toLowerCase() },
    ...(terms ? { terms } : {}),
    lineNo,
  };
}

function parseJson(raw: string, lineNo: number): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new InputError(`line ${lineNo}: not valid JSON`);
  }
}

function validate<T>(value: unknown, lineNo: number, check: (value: object) => T): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InputError(`line ${lineNo}: expected a JSON object`);
  }
  try {
    return check(value);
  } catch (error) {
    if (!(error instanceof PoolFieldError)) throw error;
    throw new InputError(`line ${lineNo}: ${error.path ? `${error.path}: ` : ''}${error.message}`);
  }
}
