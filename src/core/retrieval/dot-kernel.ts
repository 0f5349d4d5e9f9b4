/**
 * The vector index's scan, in WebAssembly SIMD (src/core/retrieval/wasm/dot-kernel.wat): the dot products of
 * a float query with a run of int8 codes, 16 bytes a step. About six times as fast as the scalar
 * loop in JavaScript (0.74 against 4.3 ms for 10,000 codes of 512 dimensions on this project's
 * machines), the copy of the codes into the kernel's memory included. Pure: no I/O; the kernel is
 * compiled on first use, synchronously (380 bytes), and a runtime without WebAssembly SIMD gets
 * undefined (the index scans in JavaScript then).
 */
import { WASM_BASE64 } from './wasm/dot-kernel-bytes.js';

/** bytes of codes copied into the kernel's memory per call (a run of rows) */
const CHUNK_BYTES = 1 << 20;
const PAGE = 65_536;

/** the parts of the WebAssembly API used here (the project's type libraries do not declare it) */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}

interface Exports {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  dots(q: number, codes: number, stride: number, blocks: number, rows: number, out: number): void;
}

export class DotKernel {
  private dims = -1;
  private stride = -1;
  private blocks = 0;
  private codesAt = 0;
  private outAt = 0;
  private rowsPerChunk = 0;

  private constructor(private readonly kernel: Exports) {}

  /** the kernel, or undefined where WebAssembly SIMD is not available */
  static create(): DotKernel | undefined {
    try {
      const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
      const bytes = Buffer.from(WASM_BASE64, 'base64');
      if (!wasm || !wasm.validate(bytes)) return undefined;
      const instance = new wasm.Instance(new wasm.Module(bytes));
      return new DotKernel(instance.exports as unknown as Exports);
    } catch {
      return undefined;
    }
  }

  /**
   * Calls `each(row, dot)` for rows from..to-1 of `codes` (`stride` bytes a row, the first
   * query.length of them the row's int8 code), in order; dot is the product with `query` (f32 sums).
   */
  scan(
    query: Float32Array,
    codes: Int8Array,
    stride: number,
    from: number,
    to: number,
    each: (row: number, dot: number) => void,
  ): void {
    this.prepare(query, stride);
    const { memory, dots } = this.kernel;
    for (let start = from; start < to; start += this.rowsPerChunk) {
      const rows = Math.min(this.rowsPerChunk, to - start);
      new Int8Array(memory.buffer, this.codesAt, rows * stride).set(
        codes.subarray(start * stride, (start + rows) * stride),
      );
      dots(0, this.codesAt, stride, this.blocks, rows, this.outAt);
      const out = new Float32Array(memory.buffer, this.outAt, rows);
      for (let i = 0; i < rows; i++) each(start + i, out[i] as number);
    }
  }

  /** lays out the memory for this query's dimensions and stride, and writes the query (zero-padded) */
  private prepare(query: Float32Array, stride: number): void {
    const dims = query.length;
    if (dims !== this.dims || stride !== this.stride) {
      this.blocks = Math.ceil(dims / 16);
      this.rowsPerChunk = Math.max(1, Math.floor(CHUNK_BYTES / stride));
      // the query, then the codes (room to read one block past the last row), then the dot products
      this.codesAt = this.blocks * 64;
      this.outAt = align(this.codesAt + this.rowsPerChunk * stride + this.blocks * 16, 16);
      const needed = this.outAt + this.rowsPerChunk * 4;
      const memory = this.kernel.memory;
      if (memory.buffer.byteLength < needed) memory.grow(Math.ceil((needed - memory.buffer.byteLength) / PAGE));
      this.dims = dims;
      this.stride = stride;
    }
    const q = new Float32Array(this.kernel.memory.buffer, 0, this.blocks * 16);
    q.set(query);
    q.fill(0, dims);
  }
}

function align(n: number, to: number): number {
  return Math.ceil(n / to) * to;
}
