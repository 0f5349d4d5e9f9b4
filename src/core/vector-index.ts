/**
 * An in-memory cosine-similarity index (pure, no I/O).
 *
 * Rows are L2-normalized Float32 vectors in one contiguous buffer, so cosine is a dot product,
 * and a search is exact: every accepted row is scored (a brute-force scan of the buffer, four
 * accumulators per row), so the index finds exactly what exact cosine finds. Each row may carry
 * a small tag (0..255, e.g. a level and status code) that a search can filter on through a lookup
 * table, without touching the ids. Bulk loads write stored bytes straight into the buffer
 * (`appendBytes`), so loading a pool makes no object per row.
 *
 * Why exact and not approximate: a binary-code (Hamming) prefilter with exact re-scoring found
 * 64 % (10k) and 38 % (100k) of the exact top 60; the exact scan finds all of them and costs
 * tens of milliseconds at 100k rows of 512 dimensions (figures: docs/quality.md).
 */

export interface VectorHit {
  id: string;
  /** cosine similarity, -1..1 */
  score: number;
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

export class VectorIndex {
  private capacity = 0;
  private rows = new Float32Array(0);
  private tags = new Uint8Array(0);
  private ids: string[] = [];
  private readonly rowOf = new Map<string, number>();

  constructor(readonly dims: number) {
    if (!Number.isInteger(dims) || dims <= 0 || dims > 65_535)
      throw new RangeError(`vector dimensions must be 1..65535, got ${dims}`);
  }

  get size(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.rowOf.has(id);
  }

  /** makes room for this many rows at once (avoids regrowing while loading a known count) */
  reserve(rows: number): void {
    this.grow(rows);
  }

  /** adds the vector, or replaces the one stored under this id; `tag` (0..255) is what acceptTags filters on */
  upsert(id: string, vector: ArrayLike<number>, tag = 0): void {
    this.checkDims(vector);
    const row = this.rowFor(id);
    this.rows.set(vector, row * this.dims);
    this.normalize(row);
    this.tags[row] = tag;
  }

  /**
   * Like upsert, from a stored vector's bytes (little-endian Float32, `dims` × 4 bytes): they are
   * copied straight into the buffer, without a vector object. False (nothing written) when the
   * byte length does not match the index's dimensions.
   */
  upsertBytes(id: string, bytes: Uint8Array, tag = 0): boolean {
    if (bytes.byteLength !== this.dims * 4) return false;
    const row = this.rowFor(id);
    if (bytes.byteOffset % 4 === 0)
      this.rows.set(new Float32Array(bytes.buffer, bytes.byteOffset, this.dims), row * this.dims);
    else new Uint8Array(this.rows.buffer, row * this.dims * 4, this.dims * 4).set(bytes);
    this.normalize(row);
    this.tags[row] = tag;
    return true;
  }

  /** changes the tag of a stored row; false when the id is not in the index */
  setTag(id: string, tag: number): boolean {
    const row = this.rowOf.get(id);
    if (row === undefined) return false;
    this.tags[row] = tag;
    return true;
  }

  /** false when the id was not in the index */
  remove(id: string): boolean {
    const row = this.rowOf.get(id);
    if (row === undefined) return false;
    const last = this.ids.length - 1;
    if (row !== last) {
      // move the last row into the hole
      const lastId = this.ids[last] as string;
      this.rows.copyWithin(row * this.dims, last * this.dims, (last + 1) * this.dims);
      this.tags[row] = this.tags[last] as number;
      this.ids[row] = lastId;
      this.rowOf.set(lastId, row);
    }
    this.ids.pop();
    this.rowOf.delete(id);
    return true;
  }

  /**
   * The k rows most cosine-similar to the query, best first (exact). `accept` filters ids, and
   * `acceptTags` (indexed by a row's tag, non-zero = accepted) filters rows by their tag, before
   * they take a place among the k.
   */
  search(query: ArrayLike<number>, k: number, accept?: (id: string) => boolean, acceptTags?: Uint8Array): VectorHit[] {
    this.checkDims(query);
    const n = this.ids.length;
    const q = normalized(query);
    if (k <= 0 || n === 0 || !q) return [];
    const top = new TopK(k);
    const tags = this.tags;
    for (let row = 0; row < n; row++) {
      if (acceptTags && !acceptTags[tags[row] as number]) continue;
      if (accept && !accept(this.ids[row] as string)) continue;
      const score = this.dot(q, row);
      if (score > top.floor) top.offer(row, score);
    }
    return top.rows.map((row, i) => ({ id: this.ids[row] as string, score: top.scores[i] as number }));
  }

  private rowFor(id: string): number {
    let row = this.rowOf.get(id);
    if (row === undefined) {
      row = this.ids.length;
      this.grow(row + 1);
      this.ids.push(id);
      this.rowOf.set(id, row);
    }
    return row;
  }

  private dot(q: Float32Array, row: number): number {
    const rows = this.rows;
    const base = row * this.dims;
    const n = q.length;
    const end4 = n - (n % 4);
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let i = 0;
    for (; i < end4; i += 4) {
      s0 += (q[i] as number) * (rows[base + i] as number);
      s1 += (q[i + 1] as number) * (rows[base + i + 1] as number);
      s2 += (q[i + 2] as number) * (rows[base + i + 2] as number);
      s3 += (q[i + 3] as number) * (rows[base + i + 3] as number);
    }
    for (; i < n; i++) s0 += (q[i] as number) * (rows[base + i] as number);
    return s0 + s1 + s2 + s3;
  }

  /** scales the row to unit length in place (zeros for a zero or non-finite vector) */
  private normalize(row: number): void {
    const rows = this.rows;
    const base = row * this.dims;
    const end = base + this.dims;
    let norm = 0;
    for (let i = base; i < end; i++) norm += (rows[i] as number) * (rows[i] as number);
    // stored embeddings are mostly unit vectors already: then the row is left as it is
    if (Math.abs(norm - 1) < 1e-6) return;
    const scale = norm > 0 && Number.isFinite(norm) ? 1 / Math.sqrt(norm) : 0;
    for (let i = base; i < end; i++) rows[i] = (rows[i] as number) * scale;
  }

  private grow(needed: number): void {
    if (needed <= this.capacity) return;
    const capacity = Math.max(needed, this.capacity * 2, 64);
    const rows = new Float32Array(capacity * this.dims);
    rows.set(this.rows.subarray(0, this.ids.length * this.dims));
    const tags = new Uint8Array(capacity);
    tags.set(this.tags.subarray(0, this.ids.length));
    this.rows = rows;
    this.tags = tags;
    this.capacity = capacity;
  }

  private checkDims(vector: ArrayLike<number>): void {
    if (vector.length !== this.dims)
      throw new RangeError(`vector has ${vector.length} dimensions, the index has ${this.dims}`);
  }
}

/** the unit vector, or undefined for a zero (or non-finite) vector */
function normalized(vector: ArrayLike<number>): Float32Array | undefined {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += (vector[i] as number) * (vector[i] as number);
  if (!(norm > 0) || !Number.isFinite(norm)) return undefined;
  const scale = 1 / Math.sqrt(norm);
  const out = new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i++) out[i] = (vector[i] as number) * scale;
  return out;
}
