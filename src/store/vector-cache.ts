/**
 * The in-memory vector indexes of a store, one per tenant+model, loaded lazily from the store on
 * the first search and kept in step by the store's writes. Shared by both stores.
 *
 * An index holds int8 codes of the vectors (core/retrieval/vector-index.ts); a search takes the best
 * `rescoredCandidates(limit)` rows by their codes, reads those rows' stored Float32 vectors and
 * returns the best `limit` by exact cosine, with exact scores.
 */
import { InputError } from '../core/errors.js';
import { MEMORY_LEVELS, MEMORY_STATUSES } from '../core/types.js';
import type { MemoryLevel, MemoryStatus } from '../core/types.js';
import { codeLength, exactCosine, SEGMENT_ROWS, unitVector, VectorIndex } from '../core/retrieval/vector-index.js';
import type { VectorHit } from '../core/retrieval/vector-index.js';
import type { ScoredId, SearchOptions } from './store.js';

/** One stored vector as a loader reads it: its bytes (little-endian Float32), encoded into the index without a vector object. */
export interface StoredVector {
  id: string;
  level: MemoryLevel;
  status: MemoryStatus;
  data: Uint8Array;
}

/** Rows a loader reads per query (a page of codes becomes one segment of the index, uncopied). */
export const VECTOR_PAGE_ROWS = SEGMENT_ROWS;

interface Meta {
  level: MemoryLevel;
  status: MemoryStatus;
}

/** a memory's level and status as its row's tag in the VectorIndex (what searches filter on) */
function tagOf(meta: Meta): number {
  const level = MEMORY_LEVELS.indexOf(meta.level);
  const status = MEMORY_STATUSES.indexOf(meta.status);
  return level < 0 || status < 0 ? 255 : level * MEMORY_STATUSES.length + status;
}

/** the tags a search with these level and status filters accepts, or undefined for all */
function acceptedTags(levels?: readonly MemoryLevel[], statuses?: readonly MemoryStatus[]): Uint8Array | undefined {
  if (!levels && !statuses) return undefined;
  const table = new Uint8Array(256);
  for (const level of levels ?? MEMORY_LEVELS)
    for (const status of statuses ?? MEMORY_STATUSES) {
      const tag = tagOf({ level, status });
      if (tag !== 255) table[tag] = 1;
    }
  return table;
}

interface Entry {
  tenant: string;
  /** each row tagged with its memory's level and status (tagOf) */
  index?: VectorIndex;
  ready: Promise<void>;
  /** writes that arrived while loading, applied after the load (all idempotent) */
  pending: ((entry: Entry) => void)[] | undefined;
  /** how many such writes were applied when the load ended */
  appliedAfterLoad: number;
}

/** Many rows' stored codes at once (core/retrieval/vector-index.ts `encodeVector`), laid end to end in `codes`. */
export interface StoredCodes {
  ids: string[];
  /** each row's memory level and status as a tag (`tagsFromChars` of `tagCharSql`) */
  tags: Uint8Array;
  dims: number;
  codes: Uint8Array;
}

/** the character `tagCharSql` gives a memory of an unknown level or status (its tag is 255) */
const UNKNOWN_TAG = 126;
if (48 + MEMORY_LEVELS.length * MEMORY_STATUSES.length > UNKNOWN_TAG) throw new Error('too many memory tags');

/**
 * A SQL expression of a memory's tag (its level and status, as tagOf) as one character, so a
 * loader can read a page's tags as one string (`group_concat(…, '')`) instead of a row each.
 */
export function tagCharSql(level: string, status: string): string {
  const levels = MEMORY_LEVELS.map((l, i) => `WHEN '${l}' THEN ${i * MEMORY_STATUSES.length}`).join(' ');
  const statuses = MEMORY_STATUSES.map((s, i) => `WHEN '${s}' THEN ${i}`).join(' ');
  return `char(48 + COALESCE((CASE ${level} ${levels} END) + (CASE ${status} ${statuses} END), ${UNKNOWN_TAG - 48}))`;
}

/** the tags of a string of `tagCharSql` characters */
export function tagsFromChars(chars: string): Uint8Array {
  const tags = new Uint8Array(chars.length);
  for (let i = 0; i < chars.length; i++) {
    const code = chars.charCodeAt(i);
    tags[i] = code === UNKNOWN_TAG || code < 48 ? 255 : code - 48;
  }
  return tags;
}

/** Where a loader puts what it reads. */
export interface VectorSink {
  /** one row's float vector: its code is written into the index's one buffer */
  add(row: StoredVector): void;
  /** a page of stored codes, copied into the index's buffer; false when they do not fit it (wrong dimensions or length) */
  addCodes(page: StoredCodes): boolean;
}

/**
 * Reads every stored vector (or its code) of a tenant and model into the sink, page by page
 * (VECTOR_PAGE_ROWS rows, in a stable order).
 */
export type VectorLoader = (tenant: string, model: string, sink: VectorSink) => Promise<void>;

/** The stored Float32 vectors (little-endian bytes) of these ids of a tenant and model; ids without one are left out. */
export type VectorReader = (tenant: string, model: string, ids: string[]) => Promise<Map<string, Uint8Array>>;

/**
 * How many rows a search takes by their codes before re-scoring them exactly: enough that the
 * code's error (about ±0.005 in cosine) does not push a row of the exact top `limit` out. On the
 * bench's pools (10k and 100k) even `limit` candidates lost no row of the exact top 60 but ties;
 * each candidate costs one stored vector read.
 */
export function rescoredCandidates(limit: number): number {
  return Math.max(limit + 30, Math.ceil(1.5 * limit));
}

/** Float32 vector ↔ bytes (little-endian, as stored in BLOB/bytea columns). */
export function vectorToBytes(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

export function bytesToVector(bytes: Uint8Array): Float32Array {
  if (bytes.byteOffset % 4 === 0)
    return new Float32Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.byteLength / 4));
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer, 0, Math.floor(bytes.byteLength / 4));
}

export class VectorCache {
  private entries = new Map<string, Entry>();

  constructor(
    private readonly load: VectorLoader,
    private readonly read: VectorReader,
  ) {}

  async search(tenant: string, model: string, query: Float32Array, options: SearchOptions): Promise<ScoredId[]> {
    const unit = unitVector(query);
    const tags = acceptedTags(options.level, options.status);
    const wanted = rescoredCandidates(options.limit);
    // the search that starts the load scans each page of codes while the next one is read
    let scan: ReturnType<VectorIndex['scanner']> | undefined;
    const entry = this.entry(
      tenant,
      model,
      unit && options.limit > 0
        ? (index) => {
            if (index.dims !== unit.length) return;
            scan ??= index.scanner(unit, wanted, tags);
            scan.advance();
          }
        : undefined,
    );
    await entry.ready;
    const index = entry.index;
    if (!index || index.size === 0) return [];
    if (query.length !== index.dims) {
      throw new InputError(
        `the query vector has ${query.length} dimensions but the stored vectors of model ${model} have ${index.dims}`,
      );
    }
    if (!unit || options.limit <= 0) return [];
    let candidates: VectorHit[];
    if (scan && entry.appliedAfterLoad === 0) {
      // (rows added by the loader one at a time, after its last page, are scanned here)
      scan.advance();
      candidates = scan.hits();
    } else candidates = index.search(unit, wanted, undefined, tags);
    if (candidates.length === 0) return [];
    // exact cosines from the stored floats; a row deleted meanwhile (no stored vector) is left out
    const stored = await this.read(
      tenant,
      model,
      candidates.map((c) => c.id),
    );
    const scored: { id: string; score: number; row: number }[] = [];
    for (const candidate of candidates) {
      const bytes = stored.get(candidate.id);
      if (bytes && bytes.byteLength === index.dims * 4)
        scored.push({ id: candidate.id, score: exactCosine(unit, bytesToVector(bytes)), row: candidate.row });
    }
    // equal scores in the order the rows were stored (as an exact scan of every row keeps them)
    scored.sort((a, b) => b.score - a.score || a.row - b.row);
    return scored.slice(0, options.limit).map(({ id, score }) => ({ id, score }));
  }

  /** rows and bytes of the loaded index of this tenant and model (for measurements), undefined if not loaded */
  loadedSize(tenant: string, model: string): { rows: number; bytes: number } | undefined {
    const index = this.entries.get(key(tenant, model))?.index;
    return index ? { rows: index.size, bytes: index.bytes } : undefined;
  }

  /** after a vector was stored */
  upsertVector(tenant: string, model: string, id: string, vector: Float32Array, meta: Meta): void {
    const entry = this.entries.get(key(tenant, model));
    if (!entry) return;
    this.apply(entry, (e) => {
      e.index ??= new VectorIndex(vector.length);
      if (vector.length !== e.index.dims) return;
      e.index.upsert(id, vector, tagOf(meta));
    });
  }

  /** after a memory was stored (its level or status may have changed) */
  updateMeta(tenant: string, id: string, meta: Meta): void {
    for (const entry of this.tenantEntries(tenant)) {
      this.apply(entry, (e) => {
        e.index?.setTag(id, tagOf(meta));
      });
    }
  }

  /** after a memory was deleted */
  remove(tenant: string, id: string): void {
    for (const entry of this.tenantEntries(tenant)) {
      this.apply(entry, (e) => {
        e.index?.remove(id);
      });
    }
  }

  /** has any index of this tenant been loaded (or started loading)? */
  loaded(tenant: string): boolean {
    return !this.tenantEntries(tenant).next().done;
  }

  /** forgets every loaded index (after a rolled-back transaction); they reload on the next search */
  clear(): void {
    this.entries = new Map();
  }

  private *tenantEntries(tenant: string): Generator<Entry> {
    for (const entry of this.entries.values()) if (entry.tenant === tenant) yield entry;
  }

  private apply(entry: Entry, change: (entry: Entry) => void): void {
    if (entry.pending) entry.pending.push(change);
    else change(entry);
  }

  /** the entry of this tenant and model, loading it if needed (`onPage`: after each page of codes of that load) */
  private entry(tenant: string, model: string, onPage?: (index: VectorIndex) => void): Entry {
    const k = key(tenant, model);
    const entry = this.entries.get(k);
    if (entry) return entry;
    const created: Entry = { tenant, pending: [], ready: Promise.resolve(), appliedAfterLoad: 0 };
    let index: VectorIndex | undefined;
    const sink: VectorSink = {
      add: (row) => {
        if (row.data.byteLength === 0 || row.data.byteLength % 4 !== 0) return;
        index ??= new VectorIndex(row.data.byteLength / 4);
        if (row.data.byteLength === index.dims * 4) index.upsert(row.id, bytesToVector(row.data), tagOf(row));
      },
      addCodes: (page) => {
        if (page.ids.length === 0) return true;
        if (page.dims <= 0 || page.codes.byteLength !== page.ids.length * codeLength(page.dims)) return false;
        index ??= new VectorIndex(page.dims);
        if (page.dims !== index.dims) return false;
        const added = index.appendCodes(page.ids, page.tags, page.codes);
        if (added) onPage?.(index);
        return added;
      },
    };
    created.ready = this.load(tenant, model, sink).then(
      () => {
        if (index) created.index = index;
        const pending = created.pending ?? [];
        created.pending = undefined;
        created.appliedAfterLoad = pending.length;
        for (const change of pending) change(created);
      },
      (error: unknown) => {
        if (this.entries.get(k) === created) this.entries.delete(k);
        throw error;
      },
    );
    this.entries.set(k, created);
    return created;
  }
}

function key(tenant: string, model: string): string {
  return `${tenant}\u0000${model}`;
}
