/**
 * An in-memory cosine-similarity index (pure, no I/O).
 *
 * Rows are L2-normalized Float32 vectors in one contiguous buffer, so cosine is a dot product.
 * Each row also has a binary code (one sign bit per dimension, packed in Uint32 words). A search
 * over a large index first ranks every row by the Hamming distance between codes (popcount over
 * words, counting-sorted by distance), then rescores the closest `candidates` rows exactly.
 * Small indexes are scanned exactly. Each row may carry a small tag (0..255, e.g. a level and
 * status code) that a search can filter on through a lookup table, without touching the ids.
 */

export interface VectorHit {
  id: string;
  /** cosine similarity, -1..1 */
  score: number;
}

export interface VectorIndexOptions {
  /** minimum number of prefiltered rows rescored exactly (default 2000) */
  candidates?: number;
  /** fraction of the index rescored exactly when that is more than `candidates` (default 0.04) */
  candidateFraction?: number;
  /** indexes with at most this many rows are scanned exactly (default 2048) */
  exactBelow?: number;
}

/** Keeps the k best hits, best first. */
class TopK {
  readonly ids: string[] = [];
  readonly scores: number[] = [];
  constructor(private readonly k: number) {}

  get floor(): number {
    return this.scores.length < this.k ? -Infinity : (this.scores[this.scores.length - 1] ?? -Infinity);
  }

  offer(id: string, score: number): void {
    if (this.k <= 0 || score <= this.floor) return;
    let i = this.scores.length;
    while (i > 0 && (this.scores[i - 1] ?? 0) < score) i--;
    this.scores.splice(i, 0, score);
    this.ids.splice(i, 0, id);
    if (this.scores.length > this.k) {
      this.scores.pop();
      this.ids.pop();
    }
  }

  hits(): VectorHit[] {
    return this.ids.map((id, i) => ({ id, score: this.scores[i] ?? 0 }));
  }
}

export class VectorIndex {
  private readonly words: number;
  private capacity = 0;
  private rows = new Float32Array(0);
  private codes = new Uint32Array(0);
  private tags = new Uint8Array(0);
  private ids: string[] = [];
  private readonly rowOf = new Map<string, number>();
  private distances = new Uint16Array(0);
  private order = new Uint32Array(0);
  private readonly candidates: number;
  private readonly candidateFraction: number;
  private readonly exactBelow: number;

  constructor(
    readonly dims: number,
    options: VectorIndexOptions = {},
  ) {
    if (!Number.isInteger(dims) || dims <= 0 || dims > 65_535)
      throw new RangeError(`vector dimensions must be 1..65535, got ${dims}`);
    this.words = Math.ceil(dims / 32);
    this.candidates = options.candidates ?? 2000;
    this.candidateFraction = options.candidateFraction ?? 0.04;
    this.exactBelow = options.exactBelow ?? 2048;
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
    let row = this.rowOf.get(id);
    if (row === undefined) {
      row = this.ids.length;
      this.grow(row + 1);
      this.ids.push(id);
      this.rowOf.set(id, row);
    }
    this.write(row, vector);
    this.tags[row] = tag;
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
      this.codes.copyWithin(row * this.words, last * this.words, (last + 1) * this.words);
      this.tags[row] = this.tags[last] as number;
      this.ids[row] = lastId;
      this.rowOf.set(lastId, row);
    }
    this.ids.pop();
    this.rowOf.delete(id);
    return true;
  }

  /**
   * The k rows most cosine-similar to the query, best first. `accept` filters ids, and
   * `acceptTags` (indexed by a row's tag, non-zero = accepted) filters rows by their tag, before
   * they take a place among the candidates.
   */
  search(query: ArrayLike<number>, k: number, accept?: (id: string) => boolean, acceptTags?: Uint8Array): VectorHit[] {
    this.checkDims(query);
    const n = this.ids.length;
    const q = normalized(query);
    if (k <= 0 || n === 0 || !q) return [];
    const top = new TopK(k);
    if (n <= this.exactBelow) {
      for (let row = 0; row < n; row++) {
        if (acceptTags && !acceptTags[this.tags[row] as number]) continue;
        const id = this.ids[row] as string;
        if (accept && !accept(id)) continue;
        top.offer(id, this.dot(q, row));
      }
      return top.hits();
    }
    const limit = Math.max(this.candidates, k, Math.ceil(n * this.candidateFraction));
    const counts = this.hammingDistances(q, n);
    const order = this.rowsByDistance(counts, n);
    // rescore the rows closest in Hamming distance, widening the radius until `limit` rows were
    // accepted (the filter may reject many) or every row was seen; `order` lists the rows by
    // distance, so each widening only visits the rows of its new band
    let taken = 0;
    let low = -1;
    let cumulative = 0;
    let want = limit;
    while (taken < limit && low < this.dims) {
      const from = cumulative;
      let high = low;
      do cumulative += counts[++high] as number;
      while (high < this.dims && cumulative < want);
      // the last band may hold far more rows than are wanted (coarse codes tie a lot): rows of
      // one band are equally close by the prefilter, so rescoring stops at the limit
      for (let i = from; i < cumulative && taken < limit; i++) {
        const row = order[i] as number;
        if (acceptTags && !acceptTags[this.tags[row] as number]) continue;
        const id = this.ids[row] as string;
        if (accept && !accept(id)) continue;
        taken++;
        top.offer(id, this.dot(q, row));
      }
      low = high;
      want = cumulative + 2 * (limit - taken);
    }
    return top.hits();
  }

  /** the Hamming distance of every row's code to the query's, and how many rows have each distance */
  private hammingDistances(q: Float32Array, n: number): Int32Array {
    const words = this.words;
    const qc = new Uint32Array(words);
    encode(q, qc, 0, this.dims);
    if (this.distances.length < n) this.distances = new Uint16Array(this.capacity);
    const distances = this.distances;
    const counts = new Int32Array(this.dims + 1);
    const codes = this.codes;
    for (let row = 0, base = 0; row < n; row++, base += words) {
      // per word: 2-bit then 4-bit partial counts, summed bytewise (a byte stays at most 128 for 16 words)
      let d = 0;
      let acc = 0;
      for (let w = 0; w < words; w++) {
        let x = (codes[base + w] as number) ^ (qc[w] as number);
        x -= (x >>> 1) & 0x55555555;
        x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
        acc += (x + (x >>> 4)) & 0x0f0f0f0f;
        if ((w & 15) === 15) {
          d += byteSum(acc);
          acc = 0;
        }
      }
      d += byteSum(acc);
      distances[row] = d;
      counts[d]!++;
    }
    return counts;
  }

  /** the rows ordered by Hamming distance (a counting sort; rows of equal distance in row order) */
  private rowsByDistance(counts: Int32Array, n: number): Uint32Array {
    if (this.order.length < n) this.order = new Uint32Array(this.capacity);
    const order = this.order;
    const start = new Int32Array(counts.length);
    for (let d = 1; d < counts.length; d++) start[d] = (start[d - 1] as number) + (counts[d - 1] as number);
    const distances = this.distances;
    for (let row = 0; row < n; row++) order[start[distances[row] as number]!++] = row;
    return order;
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

  /** writes the unit vector (zeros for a zero vector) into the row, and its code */
  private write(row: number, vector: ArrayLike<number>): void {
    const base = row * this.dims;
    let norm = 0;
    for (let i = 0; i < this.dims; i++) norm += (vector[i] as number) * (vector[i] as number);
    const scale = norm > 0 && Number.isFinite(norm) ? 1 / Math.sqrt(norm) : 0;
    for (let i = 0; i < this.dims; i++) this.rows[base + i] = (vector[i] as number) * scale;
    this.codes.fill(0, row * this.words, (row + 1) * this.words);
    encode(this.rows.subarray(base, base + this.dims), this.codes, row * this.words, this.dims);
  }

  private grow(needed: number): void {
    if (needed <= this.capacity) return;
    const capacity = Math.max(needed, this.capacity * 2, 64);
    const rows = new Float32Array(capacity * this.dims);
    rows.set(this.rows.subarray(0, this.ids.length * this.dims));
    const codes = new Uint32Array(capacity * this.words);
    codes.set(this.codes.subarray(0, this.ids.length * this.words));
    const tags = new Uint8Array(capacity);
    tags.set(this.tags.subarray(0, this.ids.length));
    this.rows = rows;
    this.codes = codes;
    this.tags = tags;
    this.capacity = capacity;
  }

  private checkDims(vector: ArrayLike<number>): void {
    if (vector.length !== this.dims)
      throw new RangeError(`vector has ${vector.length} dimensions, the index has ${this.dims}`);
  }
}

/** the sum of the four bytes of x (each at most 255) */
function byteSum(x: number): number {
  x = (x & 0x00ff00ff) + ((x >>> 8) & 0x00ff00ff);
  return (x & 0xffff) + (x >>> 16);
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

/** writes one sign bit per dimension into codes starting at word offset */
function encode(v: Float32Array, codes: Uint32Array, offset: number, dims: number): void {
  for (let i = 0; i < dims; i++) {
    if ((v[i] as number) > 0) codes[offset + (i >>> 5)]! |= 1 << (i & 31);
  }
}
