/**
 * The checks of a pool file's lines (src/core/retrieval/pool-file.ts, docs/export-format.md), written out
 * by hand: a memory line is accepted exactly when the format's schema accepts it, and comes out
 * as it went in, unknown fields dropped. They replace zod here: the Action reads thousands of
 * lines at every start, and zod cost it half a `node -e 0` to load before a single line was read.
 * __tests__/core/retrieval/pool-check.test.ts compares them with the zod schemas they replace.
 */
import { legacyIdentity, type FullIdentity } from '../knowledge/identity.js';
import { MEMORY_LEVELS, MEMORY_STATUSES, MEMORY_WRITERS, SOURCE_KINDS, VISIBILITIES, type Memory } from '../types.js';

/** The header's fields, as checked (format is the expected one). */
export interface PoolHeaderFields {
  format: string;
  version: number;
  tenant: string;
  exportedAt: string;
  count?: number;
}

/**
 * A field that fails its check: its dotted path ("provenance.0.sourceKind") and why. The path is
 * built on the way out, key by key (a line that passes costs no path strings).
 */
export class PoolFieldError extends Error {
  constructor(
    public path: string,
    message: string,
  ) {
    super(message);
    this.name = 'PoolFieldError';
  }
}

/** Checks a value; returns it, or a copy without unknown fields. */
type Check<T> = (value: unknown) => T;

function fail(message: string, path = ''): never {
  throw new PoolFieldError(path, message);
}

/** Runs a check of the field at `key`, prefixing the path of a failure with it. */
function within<T>(key: string | number, check: Check<T>, value: unknown): T {
  try {
    return check(value);
  } catch (error) {
    if (error instanceof PoolFieldError) error.path = error.path === '' ? String(key) : `${key}.${error.path}`;
    throw error;
  }
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value;
}

const string: Check<string> = (value) =>
  typeof value === 'string' ? value : fail(`expected a string, got ${kind(value)}`);

const nonEmpty: Check<string> = (value) => (string(value) === '' ? fail('must not be empty') : (value as string));

const isoDate: Check<string> = (value) =>
  Number.isNaN(Date.parse(string(value))) ? fail('must be an ISO 8601 date') : (value as string);

function wholeNumber(min?: number): Check<number> {
  return (value) => {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) fail(`expected a whole number, got ${kind(value)}`);
    return min !== undefined && value < min ? fail(`must be ${min} or more`) : value;
  };
}

const count = wholeNumber(0);

function oneOf<T extends string>(values: readonly T[]): Check<T> {
  return (value) =>
    values.includes(value as T)
      ? (value as T)
      : fail(`must be one of ${values.join(', ')}; got ${JSON.stringify(value) ?? kind(value)}`);
}

function pattern(regex: RegExp, message: string): Check<string> {
  return (value) => (regex.test(string(value)) ? (value as string) : fail(message));
}

/** A value the check accepts, or null. */
function orNull<T>(check: Check<T>): Check<T | null> {
  return (value) => (value === null ? null : check(value));
}

function list<T>(item: Check<T>, min = 0, tooShort = ''): Check<T[]> {
  return (value) => {
    if (!Array.isArray(value)) fail(`expected an array, got ${kind(value)}`);
    if (value.length < min) fail(tooShort);
    let out: unknown[] = value;
    for (let i = 0; i < value.length; i += 1) {
      const checked = within(i, item, value[i]);
      if (checked !== value[i]) {
        if (out === value) out = value.slice();
        out[i] = checked;
      }
    }
    return out as T[];
  };
}

/** An object of these fields (`optional` ones may be absent); unknown fields are dropped. */
function object<T>(shape: Record<string, Check<unknown>>, optional: readonly string[] = []): Check<T> {
  const keys = Object.keys(shape);
  const checks = keys.map((key) => shape[key] as Check<unknown>);
  const optionalAt = keys.map((key) => optional.includes(key));
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      fail(`expected an object, got ${kind(value)}`);
    const input = value as Record<string, unknown>;
    let out = input;
    let known = 0;
    for (let i = 0; i < keys.length; i += 1) {
      const key = keys[i] as string;
      const field = Object.hasOwn(input, key) ? input[key] : undefined;
      if (field === undefined) {
        if (optionalAt[i]) continue;
        fail('required', key);
      }
      known += 1;
      const checked = within(key, checks[i] as Check<unknown>, field);
      if (checked !== field) {
        if (out === input) out = { ...input };
        out[key] = checked;
      }
    }
    let fields = 0;
    // (a JSON object has no inherited enumerable fields: this counts its own, without an array)
    for (const _ in input) fields += 1;
    if (fields !== known) {
      const kept: Record<string, unknown> = {};
      for (const key of keys) if (Object.hasOwn(out, key)) kept[key] = out[key];
      out = kept;
    }
    return out as T;
  };
}

const provenance = object(
  {
    tenant: nonEmpty,
    repo: nonEmpty,
    repoId: wholeNumber(),
    visibility: oneOf(VISIBILITIES),
    sourceKind: oneOf(SOURCE_KINDS),
    ref: string,
    url: string,
    authors: list(string),
    date: string,
  },
  ['repoId', 'url'],
);

const bodies: Record<string, Check<unknown>> = {
  insight: object({ level: string, insight: object({ title: string, description: string, content: string }) }),
  workflow: object({ level: string, workflow: object({ goal: string, steps: list(string) }) }),
  summary: object({ level: string, summary: object({ task_summary: string, experience_summary: string }) }),
  trajectory: object({ level: string, trajectory: object({ trace: string }) }),
};

/** The level's structured shape, chosen by its own `level`. */
const body: Check<unknown> = (value) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(`expected an object, got ${kind(value)}`);
  const level = (value as { level?: unknown }).level;
  const check = typeof level === 'string' && Object.hasOwn(bodies, level) ? bodies[level] : undefined;
  if (!check) return fail(`must be one of ${Object.keys(bodies).join(', ')}`, 'level');
  return check(value);
};

/** The identity fields: optional in a line (files written before them lack them). */
const IDENTITY_FIELDS = ['writer', 'lesson', 'routines', 'facet', 'examples'] as const satisfies (keyof FullIdentity)[];

const memoryFields = object<Memory>(
  {
    id: pattern(/^[A-Za-z0-9_-]{1,64}$/, 'must be a memory id (letters, digits, _ and -)'),
    tenant: nonEmpty,
    level: oneOf(MEMORY_LEVELS),
    title: string,
    description: string,
    content: string,
    body,
    tags: list(string),
    evidence: list(string),
    provenance: list(provenance, 1, 'needs at least one source'),
    visibility: oneOf(VISIBILITIES),
    sharedWiderBy: string,
    status: oneOf(MEMORY_STATUSES),
    votes: object({ up: count, down: count }),
    support: wholeNumber(1),
    uses: count,
    outcomes: object({ success: count, failure: count }),
    model: string,
    writer: oneOf(MEMORY_WRITERS),
    lesson: orNull(string),
    routines: list(nonEmpty),
    facet: orNull(pattern(/^[^/]+\/./, 'must be "<kind>/<facet>" or null')),
    examples: list(string),
    createdAt: isoDate,
    updatedAt: isoDate,
    lastUsedAt: isoDate,
  },
  ['sharedWiderBy', 'lastUsedAt', ...IDENTITY_FIELDS],
);

/**
 * A memory line's object: every field of a Memory checked; throws PoolFieldError. A line written
 * before the identity fields (or without some of them) gets those it lacks from its tags, content
 * and model, as the code of that time read them (legacyIdentity).
 */
export function checkMemory(value: object): Memory {
  const memory = memoryFields(value);
  if (memory.body.level !== memory.level) fail('must match level', 'body.level');
  if (IDENTITY_FIELDS.every((field) => memory[field] !== undefined)) return memory;
  const derived = legacyIdentity(memory);
  const filled: Record<string, unknown> = { ...memory };
  for (const field of IDENTITY_FIELDS) if (memory[field] === undefined) filled[field] = derived[field];
  return filled as unknown as Memory;
}

const headerFields = object<PoolHeaderFields>(
  {
    format: string,
    version: wholeNumber(1),
    tenant: nonEmpty,
    exportedAt: isoDate,
    count,
  },
  ['count'],
);

/** The header line's object (its `terms` are checked apart); throws PoolFieldError. */
export function checkHeader(format: string): (value: object) => PoolHeaderFields {
  return (value) => {
    if ((value as { format?: unknown }).format !== format)
      fail(`must be "${format}" (is this a Memory Transfer export?)`, 'format');
    return headerFields(value);
  };
}
