/**
 * An in-memory cosine-similarity index over int8 codes of the vectors (pure, no I/O).
 *
 * Each vector is kept as its *code*: every component scaled so the largest is ±127 and rounded to
 * an int8, followed by the inverse length of that code (little-endian Float32), so
 * `(unit query · code) × inverse length` approximates the cosine to about ±0.005. The codes sit in
 * segments of contiguous Int8Arrays (a quarter of the Float32 vectors' bytes) and a search scans
 * every accepted row (a WebAssembly SIMD kernel, src/core/retrieval/dot-kernel.ts, or a scalar loop where
 * that is missing): it returns the best rows by *approximate* cosine.
 * Callers that need exact cosines re-score a few more candidates than they keep against the stored
 * float vectors (`exactCosine`; VectorCache does this), which finds what exact cosine finds.
 * Each row may carry a small tag (0..255, e.g. a level and status code) that a search can filter on
 * through a lookup table, without touching the ids. Bulk loads copy stored codes straight into
 * the buffer (`appendCodes`), so loading a pool makes no object per row.
 *
 * Why codes: a pool's codes are 516 bytes a row at 512 dimensions, small enough to sit inside a
 * SQLite row (a 2 KB float vector goes to an overflow page), so the first search reads a quarter of
 * the bytes in a few large pages (docs/storage.md, figures in docs/quality.md). Why not a
 * sign-bit (binary) code: it found 64 % (10k) and 38 % (100k) of the exact top 60; an int8 code
 * orders rows almost exactly as the floats do, and the re-scoring settles the rest.
 */

import { DotKernel } from './dot-kernel.js';

let kernel: DotKernel | undefined | null = null;
/** the WebAssembly scan kernel, compiled on the first search (undefined: scan in JavaScript) */
function dotKernel(): DotKernel | undefined {
  if (kernel === null) kernel = process.env.MEMORY_TRANSFER_NO_WASM ? undefined : DotKernel.create();
  return kernel;
}

export interface VectorHit {
  id: string;
  /** cosine similarity, -1..1 (approximate from an index search, exact from exactCosine) */
  score: number;
  /** the row's place in the index (rows loaded earlier come first): what breaks ties between equal exact scores */
  row: number;
}

/** bytes of a stored code: one int8 a dimension, then the code's inverse length (Float32) */
export function codeLength(dims: number): number {
  return dims + 4;
}

/** the code of a vector (see the module comment); a zero or non-finite vector gets a zero code */
export function encodeVector(vector: ArrayLike<number>): Uint8Array {
  const dims = vector.length;
  const out = new Uint8Array(codeLength(dims));
  writeCode(vector, new Int8Array(out.buffer, 0, dims), new DataView(out.buffer), dims);
  return out;
}

/** writes the code of `vector` into `codes` (its dims int8s) and its inverse length at `view`'s byte `at` */
function writeCode(vector: ArrayLike<number>, codes: Int8Array, view: DataView | Float32Array, at: number): void {
  let max = 0;
  for (let i = 0; i < vector.length; i++) {
    const a = Math.abs(vector[i] as number);
    // (a NaN component makes the whole vector non-finite: a zero code)
    if (Number.isNaN(a)) max = Infinity;
    else if (a > max) max = a;
  }
  let norm = 0;
  if (max > 0 && Number.isFinite(max)) {
    const scale = 127 / max;
    for (let i = 0; i < vector.length; i++) {
      const c = Math.round((vector[i] as number) * scale);
      codes[i] = c;
      norm += c * c;
    }
  } else codes.fill(0);
  const inverse = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  if (view instanceof DataView) view.setFloat32(at, inverse, true);
  else view[at] = inverse;
}

/** the unit vector, or undefined for a zero (or non-finite) vector */
export function unitVector(vector: ArrayLike<number>): Float32Array | undefined {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += (vector[i] as number) * (vector[i] as number);
  if (!(norm > 0) || !Number.isFinite(norm)) return undefined;
  const scale = 1 / Math.sqrt(norm);
  const out = new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i++) out[i] = (vector[i] as number) * scale;
  return out;
}

/** exact cosine of a unit query and a stored vector (any length; 0 for a zero or non-finite vector) */
export function exactCosine(unitQuery: Float32Array, vector: Float32Array): number {
  if (vector.length !== unitQuery.length) return 0;
  let dot = 0;
  let norm = 0;
  for (let i = 0; i < vector.length; i++) {
    const v = vector[i] as number;
    dot += (unitQuery[i] as number) * v;
    norm += v * v;
  }
  const cosine = norm > 0 ? dot / Math.sqrt(norm) : 0;
  return Number.isFinite(cosine) ? cosine : 0;
}

/** Keeps the k best rows, best first. */
class TopK {
  readonly rows: number[] = [];
  readonly scores: number[] = [];
  floor = -Infinity;
  constructor(private readonly k: number) {}

  offer(row: number, score: number): void {
    if (score <= this.floor) return;
    let i = this.scores.length;
    while (i > 0 && (this.scores[i - 1] as number) < score) i--;
    this.scores.splice(i, 0, score);
    this.rows.splice(i, 0, row);
    if (this.scores.length > this.k) {
      this.scores.pop();
      this.rows.pop();
    }
    if (this.scores.length === this.k) this.floor = this.scores[this.k - 1] as number;
  }
}

/** rows a segment of the index holds (a loader's page of this many codes becomes one segment, uncopied) */
export const SEGMENT_ROWS = 2048;

/**
 * Up to SEGMENT_ROWS rows: their codes as stored (codeLength(dims) bytes a row), inverse lengths,
 * tags and ids. Every segment but the last is full; the last grows by doubling (a pool of a few
 * vectors does not hold a whole segment).
 */
interface Segment {
  codes: Int8Array;
  inverse: Float32Array;
  tags: Uint8Array;
  ids: string[];
}

export class VectorIndex {
  private readonly stride: number;
  private readonly segments: Segment[] = [];
  private count = 0;
  /** row of each id, built on the first write or lookup after a bulk load (a search needs none) */
  private rowOfId: Map<string, number> | undefined = new Map();

  constructor(readonly dims: number) {
    if (!Number.isInteger(dims) || dims <= 0 || dims > 65_535)
      throw new RangeError(`vector dimensions must be 1..65535, got ${dims}`);
    this.stride = codeLength(dims);
  }

  get size(): number {
    return this.count;
  }

  /** bytes held by the codes, inverse lengths and tags (what a loaded pool costs, ids aside) */
  get bytes(): number {
    return this.segments.reduce((sum, segment) => sum + segment.inverse.length * (this.stride + 5), 0);
  }

  has(id: string): boolean {
    return this.rowOf().has(id);
  }

  /** adds the vector, or replaces the one stored under this id; `tag` (0..255) is what acceptTags filters on */
  upsert(id: string, vector: ArrayLike<number>, tag = 0): void {
    this.checkDims(vector);
    const row = this.rowFor(id);
    const segment = this.segments[Math.floor(row / SEGMENT_ROWS)] as Segment;
    const i = row % SEGMENT_ROWS;
    writeCode(vector, segment.codes.subarray(i * this.stride, i * this.stride + this.dims), segment.inverse, i);
    segment.tags[i] = tag;
  }

  /**
   * Adds (or replaces) rows from stored codes laid end to end (`codeLength(dims)` bytes each, as
   * encodeVector writes them). A whole segment of new rows (SEGMENT_ROWS codes, appended at a
   * segment boundary, before any write) is kept as it is, without a copy (fresh memory costs a
   * page fault a 4 KB page: ~0.4 s for 51 MB on a busy machine): the caller must not reuse
   * `codes`, `ids` or `tags`. False
   * (nothing written) when the byte length is not ids.length codes of the index's dimensions.
   */
  appendCodes(ids: readonly string[], tags: ArrayLike<number>, codes: Uint8Array): boolean {
    const stride = this.stride;
    if (codes.byteLength !== ids.length * stride || tags.length !== ids.length) return false;
    const view = new DataView(codes.buffer, codes.byteOffset, codes.byteLength);
    // (a bulk load: until a write or lookup maps ids to rows, appended ids are taken as new)
    if (ids.length === SEGMENT_ROWS && this.count % SEGMENT_ROWS === 0 && !this.rowOfId?.size) {
      // a whole new segment, as read: its codes stay where they are
      const inverse = new Float32Array(SEGMENT_ROWS);
      for (let i = 0; i < SEGMENT_ROWS; i++) inverse[i] = view.getFloat32(i * stride + this.dims, true);
      this.segments.push({
        codes: new Int8Array(codes.buffer, codes.byteOffset, codes.byteLength),
        inverse,
        tags: tags instanceof Uint8Array ? tags : Uint8Array.from(tags),
        ids: ids as string[],
      });
      this.count += SEGMENT_ROWS;
      // ids are mapped to rows only when a write or a lookup needs it
      this.rowOfId = undefined;
      return true;
    }
    const source = new Uint8Array(codes.buffer, codes.byteOffset, codes.byteLength);
    for (let i = 0; i < ids.length; i++) {
      const row = this.rowFor(ids[i] as string);
      const segment = this.segments[Math.floor(row / SEGMENT_ROWS)] as Segment;
      const at = row % SEGMENT_ROWS;
      new Uint8Array(segment.codes.buffer, segment.codes.byteOffset + at * stride, stride).set(
        source.subarray(i * stride, (i + 1) * stride),
      );
      segment.inverse[at] = view.getFloat32(i * stride + this.dims, true);
      segment.tags[at] = tags[i] as number;
    }
    return true;
  }

  /** changes the tag of a stored row; false when the id is not in the index */
  setTag(id: string, tag: number): boolean {
    const row = this.rowOf().get(id);
    if (row === undefined) return false;
    (this.segments[Math.floor(row / SEGMENT_ROWS)] as Segment).tags[row % SEGMENT_ROWS] = tag;
    return true;
  }

  /** false when the id was not in the index */
  remove(id: string): boolean {
    const rowOf = this.rowOf();
    const row = rowOf.get(id);
    if (row === undefined) return false;
    const last = this.count - 1;
    const to = this.segments[Math.floor(row / SEGMENT_ROWS)] as Segment;
    const from = this.segments[Math.floor(last / SEGMENT_ROWS)] as Segment;
    const i = row % SEGMENT_ROWS;
    const j = last % SEGMENT_ROWS;
    if (row !== last) {
      // move the last row into the hole
      const lastId = from.ids[j] as string;
      to.codes.set(from.codes.subarray(j * this.stride, (j + 1) * this.stride), i * this.stride);
      to.inverse[i] = from.inverse[j] as number;
      to.tags[i] = from.tags[j] as number;
      to.ids[i] = lastId;
      rowOf.set(lastId, row);
    }
    from.ids.pop();
    this.count -= 1;
    if (j === 0) this.segments.pop();
    rowOf.delete(id);
    return true;
  }

  /**
   * The k rows most cosine-similar to the query by their codes, best first (scores approximate).
   * `accept` filters ids, and `acceptTags` (indexed by a row's tag, non-zero = accepted) filters
   * rows by their tag, before they take a place among the k.
   */
  search(query: ArrayLike<number>, k: number, accept?: (id: string) => boolean, acceptTags?: Uint8Array): VectorHit[] {
    this.checkDims(query);
    const q = unitVector(query);
    if (k <= 0 || this.count === 0 || !q) return [];
    const top = new TopK(k);
    this.scanRows(q, top, 0, accept, acceptTags);
    return this.hitsOf(top);
  }

  /**
   * A search over the rows as they are appended (the first search of an index being loaded scans
   * each page while the next one is read): `advance()` scores the rows appended since the last
   * call, `hits()` gives the best k so far. Only for an index that nothing but appends change in
   * between (a load); `query` must be a unit vector of the index's dimensions.
   */
  scanner(query: Float32Array, k: number, acceptTags?: Uint8Array): { advance(): void; hits(): VectorHit[] } {
    this.checkDims(query);
    const top = new TopK(Math.max(0, k));
    let scanned = 0;
    return {
      advance: () => {
        if (k > 0 && scanned < this.count) scanned = this.scanRows(query, top, scanned, undefined, acceptTags);
      },
      hits: () => this.hitsOf(top),
    };
  }

  /** offers every accepted row from `from` on to `top`; returns the row count scanned up to */
  private scanRows(
    q: Float32Array,
    top: TopK,
    from: number,
    accept: ((id: string) => boolean) | undefined,
    acceptTags: Uint8Array | undefined,
  ): number {
    const kernel = dotKernel();
    for (let s = Math.floor(from / SEGMENT_ROWS); s < this.segments.length; s++) {
      const segment = this.segments[s] as Segment;
      const { tags, inverse, ids, codes } = segment;
      const first = s === Math.floor(from / SEGMENT_ROWS) ? from % SEGMENT_ROWS : 0;
      const offer = (i: number, dotted: number) => {
        if (acceptTags && !acceptTags[tags[i] as number]) return;
        if (accept && !accept(ids[i] as string)) return;
        const score = dotted * (inverse[i] as number);
        if (score > top.floor) top.offer(s * SEGMENT_ROWS + i, score);
      };
      if (kernel) kernel.scan(q, codes, this.stride, first, ids.length, offer);
      else for (let i = first; i < ids.length; i++) offer(i, dot(q, codes, i * this.stride));
    }
    return this.count;
  }

  private hitsOf(top: TopK): VectorHit[] {
    return top.rows.map((row, i) => ({
      id: (this.segments[Math.floor(row / SEGMENT_ROWS)] as Segment).ids[row % SEGMENT_ROWS] as string,
      score: top.scores[i] as number,
      row,
    }));
  }

  private rowOf(): Map<string, number> {
    if (!this.rowOfId) {
      const rowOf = new Map<string, number>();
      this.segments.forEach((segment, s) => segment.ids.forEach((id, i) => rowOf.set(id, s * SEGMENT_ROWS + i)));
      this.rowOfId = rowOf;
    }
    return this.rowOfId;
  }

  private rowFor(id: string): number {
    const rowOf = this.rowOf();
    let row = rowOf.get(id);
    if (row === undefined) {
      row = this.count;
      let last = this.segments[this.segments.length - 1];
      if (!last || last.ids.length === SEGMENT_ROWS) {
        last = { codes: new Int8Array(0), inverse: new Float32Array(0), tags: new Uint8Array(0), ids: [] };
        this.segments.push(last);
      }
      if (last.ids.length === last.inverse.length) {
        // the last segment is full: double it, up to SEGMENT_ROWS
        const capacity = Math.min(SEGMENT_ROWS, Math.max(64, last.inverse.length * 2));
        const codes = new Int8Array(capacity * this.stride);
        codes.set(last.codes);
        const inverse = new Float32Array(capacity);
        inverse.set(last.inverse);
        const tags = new Uint8Array(capacity);
        tags.set(last.tags);
        Object.assign(last, { codes, inverse, tags });
      }
      last.ids.push(id);
      this.count += 1;
      rowOf.set(id, row);
    }
    return row;
  }

  private checkDims(vector: ArrayLike<number>): void {
    if (vector.length !== this.dims)
      throw new RangeError(`vector has ${vector.length} dimensions, the index has ${this.dims}`);
  }
}

/** the unit query · the code starting at `base` (four accumulators) */
function dot(q: Float32Array, codes: Int8Array, base: number): number {
  const n = q.length;
  const end4 = n - (n % 4);
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i < end4; i += 4) {
    s0 += (q[i] as number) * (codes[base + i] as number);
    s1 += (q[i + 1] as number) * (codes[base + i + 1] as number);
    s2 += (q[i + 2] as number) * (codes[base + i + 2] as number);
    s3 += (q[i + 3] as number) * (codes[base + i + 3] as number);
  }
  for (; i < n; i++) s0 += (q[i] as number) * (codes[base + i] as number);
  return s0 + s1 + s2 + s3;
}
