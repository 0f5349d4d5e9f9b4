/**
 * The in-memory vector indexes of a store, one per tenant+model, loaded lazily from the store on
 * the first search and kept in step by the store's writes. Shared by both stores.
 */
import { InputError } from '../core/errors.js';
import { MEMORY_LEVELS, MEMORY_STATUSES } from '../core/types.js';
import type { MemoryLevel, MemoryStatus } from '../core/types.js';
import { VectorIndex } from '../core/vector-index.js';
import type { ScoredId, SearchOptions } from './store.js';

/** One stored vector as a loader reads it: its bytes (little-endian Float32) are not copied into a vector object. */
export interface StoredVector {
  id: string;
  level: MemoryLevel;
  status: MemoryStatus;
  data: Uint8Array;
}

/** Rows a loader reads per query: pages keep each read's transient row objects few. */
export const VECTOR_PAGE_ROWS = 2048;

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
}

/** Where a loader puts what it reads. */
export interface VectorSink {
  /** how many rows are coming (read first, so the index's buffer is allocated once) */
  expect(rows: number): void;
  /** one row: its bytes are copied into the index's one buffer */
  add(row: StoredVector): void;
}

/**
 * Reads every stored vector of a tenant and model: their count, then page by page
 * (VECTOR_PAGE_ROWS rows, in a stable order) each row into the sink.
 */
export type VectorLoader = (tenant: string, model: string, sink: VectorSink) => Promise<void>;

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

  constructor(private readonly load: VectorLoader) {}

  async search(tenant: string, model: string, query: Float32Array, options: SearchOptions): Promise<ScoredId[]> {
    const entry = this.entry(tenant, model);
    await entry.ready;
    const index = entry.index;
    if (!index || index.size === 0) return [];
    if (query.length !== index.dims) {
      throw new InputError(
        `the query vector has ${query.length} dimensions but the stored vectors of model ${model} have ${index.dims}`,
      );
    }
    const tags = acceptedTags(options.level, options.status);
    return index.search(query, options.limit, undefined, tags).map((hit) => ({ id: hit.id, score: hit.score }));
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

  private entry(tenant: string, model: string): Entry {
    const k = key(tenant, model);
    const entry = this.entries.get(k);
    if (entry) return entry;
    const created: Entry = { tenant, pending: [], ready: Promise.resolve() };
    let index: VectorIndex | undefined;
    let expected = 0;
    const sink: VectorSink = {
      expect: (rows) => {
        expected = rows;
      },
      add: (row) => {
        if (row.data.byteLength === 0 || row.data.byteLength % 4 !== 0) return;
        if (!index) {
          index = new VectorIndex(row.data.byteLength / 4);
          index.reserve(expected);
        }
        index.upsertBytes(row.id, row.data, tagOf(row));
      },
    };
    created.ready = this.load(tenant, model, sink).then(
      () => {
        if (index) created.index = index;
        const pending = created.pending ?? [];
        created.pending = undefined;
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
