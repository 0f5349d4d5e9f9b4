/**
 * The pool file: a versioned JSON Lines export of a pool (docs/export-format.md). Line 1 is a
 * header, then one memory per line with every Memory field and no vectors. `memory-transfer
 * export` writes it, `import` and the Action's pool-file mode read it with this same code.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { z } from 'zod';
import { InputError } from './errors.js';
import { MEMORY_LEVELS, MEMORY_STATUSES, SOURCE_KINDS, VISIBILITIES } from './types.js';
import type { Memory, Provenance } from './types.js';
import { effectiveVisibility } from './visibility.js';

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
}

const text = z.string();
const isoDate = z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'must be an ISO 8601 date');
const count = z.number().int().nonnegative();

const headerSchema = z.object({
  format: z.literal(POOL_FORMAT, { error: `must be "${POOL_FORMAT}" (is this a Memory Transfer export?)` }),
  version: z.number().int().positive(),
  tenant: z.string().min(1),
  exportedAt: isoDate,
  count: count.optional(),
});

const provenanceSchema = z.object({
  tenant: z.string().min(1),
  repo: z.string().min(1),
  repoId: z.number().int().optional(),
  visibility: z.enum(VISIBILITIES),
  sourceKind: z.enum(SOURCE_KINDS),
  ref: z.string(),
  url: z.string().optional(),
  authors: z.array(text),
  date: text,
});

const bodySchema = z.discriminatedUnion('level', [
  z.object({
    level: z.literal('insight'),
    insight: z.object({ title: text, description: text, content: text }),
  }),
  z.object({ level: z.literal('workflow'), workflow: z.object({ goal: text, steps: z.array(text) }) }),
  z.object({
    level: z.literal('summary'),
    summary: z.object({ task_summary: text, experience_summary: text }),
  }),
  z.object({ level: z.literal('trajectory'), trajectory: z.object({ trace: text }) }),
]);

/** Every field of a Memory (src/core/types.ts); unknown fields are dropped. */
export const memorySchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a memory id (letters, digits, _ and -)'),
    tenant: z.string().min(1),
    level: z.enum(MEMORY_LEVELS),
    title: text,
    description: text,
    content: text,
    body: bodySchema,
    tags: z.array(text),
    evidence: z.array(text),
    provenance: z.array(provenanceSchema).min(1, 'needs at least one source'),
    visibility: z.enum(VISIBILITIES),
    sharedWiderBy: z.string().optional(),
    status: z.enum(MEMORY_STATUSES),
    votes: z.object({ up: count, down: count }),
    support: z.number().int().positive(),
    uses: count,
    outcomes: z.object({ success: count, failure: count }),
    model: text,
    createdAt: isoDate,
    updatedAt: isoDate,
    lastUsedAt: isoDate.optional(),
  })
  .refine((memory) => memory.body.level === memory.level, { message: 'must match level', path: ['body', 'level'] });

/**
 * The same schema compiled ahead of time (zod's `compile`: a generated fast path, falling back to
 * the runtime parser, and its error messages, for anything the fast path does not accept). About
 * twice as fast on a pool; built on first use, so code that never reads a pool does not pay.
 */
let compiledMemorySchema: typeof memorySchema | undefined;

// the schema and the domain type stay in step: a parsed line is a Memory
type Parsed = z.output<typeof memorySchema>;
const _inStep: (parsed: Parsed) => Memory = (parsed) => parsed;
void _inStep;

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

/** The whole file: header, then one memory per line, ending with a newline. */
/** gzip's magic bytes: a pool file that starts with them is compressed. */
const GZIP_MAGIC = [0x1f, 0x8b] as const;

/** A pool file's text from its bytes, gzip-compressed (`.jsonl.gz`) or plain. */
export function decodePoolBytes(bytes: Uint8Array): string {
  const gzipped = bytes.length >= 2 && bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];
  try {
    return Buffer.from(gzipped ? gunzipSync(bytes) : bytes).toString('utf8');
  } catch {
    throw new InputError('the pool file starts like gzip but does not decompress: export it again');
  }
}

/**
 * A pool file's bytes for a path: gzip-compressed when the name ends in `.gz` (a pool of a few
 * thousand insights is several MB of JSON Lines and a tenth of that compressed), else plain text.
 */
export function encodePoolBytes(text: string, path: string): Uint8Array {
  return path.toLowerCase().endsWith('.gz') ? gzipSync(text, { level: 9 }) : Buffer.from(text, 'utf8');
}

export function serializePool(header: { tenant: string; exportedAt: string }, memories: Memory[]): string {
  const lines = [poolHeaderLine({ ...header, count: memories.length }), ...memories.map(memoryLine)];
  return `${lines.join('\n')}\n`;
}

/**
 * Parses a pool file. Throws InputError naming the line and the field for a malformed line, a
 * file from a newer version, a memory of another tenant, a duplicate id or a cut file.
 */
export function parsePool(input: string): ParsedPool {
  const lines = input.replace(/^\uFEFF/, '').split(/\r?\n/);
  const first = lines.findIndex((line) => line.trim() !== '');
  if (first === -1) throw new InputError('the pool file is empty (expected a header line)');
  const header = parseHeader(lines[first] ?? '', first + 1);
  const memories: Memory[] = [];
  const ids = new Map<string, number>();
  for (let index = first + 1; index < lines.length; index++) {
    const raw = lines[index] ?? '';
    if (raw.trim() === '') continue;
    const lineNo = index + 1;
    const memory = parseLine(raw, lineNo, (compiledMemorySchema ??= z.compile(memorySchema)));
    if (memory.tenant !== header.tenant) {
      throw new InputError(`line ${lineNo}: tenant: "${memory.tenant}" differs from the header's "${header.tenant}"`);
    }
    const earlier = ids.get(memory.id);
    if (earlier !== undefined) throw new InputError(`line ${lineNo}: id: "${memory.id}" already on line ${earlier}`);
    ids.set(memory.id, lineNo);
    memories.push(memory);
  }
  if (header.count !== undefined && header.count !== memories.length) {
    throw new InputError(
      `the header announces ${header.count} memories but the file has ${memories.length} (cut file?)`,
    );
  }
  return { header, memories };
}

function parseHeader(raw: string, lineNo: number): PoolHeader {
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
  const header = validate(value, lineNo, headerSchema);
  return { ...header, format: POOL_FORMAT, tenant: header.tenant.toLowerCase() };
}

function parseLine<T>(raw: string, lineNo: number, schema: z.ZodType<T>): T {
  return validate(parseJson(raw, lineNo), lineNo, schema);
}

function parseJson(raw: string, lineNo: number): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new InputError(`line ${lineNo}: not valid JSON`);
  }
}

function validate<T>(value: unknown, lineNo: number, schema: z.ZodType<T>): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InputError(`line ${lineNo}: expected a JSON object`);
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.map(String).join('.') ?? '';
  throw new InputError(`line ${lineNo}: ${field ? `${field}: ` : ''}${issue?.message ?? 'invalid'}`);
}
