/**
 * The vector index's WebAssembly scan (src/core/retrieval/dot-kernel.ts) gives the dot products the scalar
 * loop gives, for any dimensions (padded to 16), runs longer than one chunk of its memory, and
 * scans that start mid-segment (a search of an index being loaded).
 */
import { describe, expect, it } from 'vitest';
import { DotKernel } from '../../../src/core/retrieval/dot-kernel.js';
import { codeLength, encodeVector } from '../../../src/core/retrieval/vector-index.js';

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** rows of stored codes laid end to end, as the index keeps them */
function codes(dims: number, rows: number, next: () => number): Int8Array {
  const out = new Int8Array(rows * codeLength(dims));
  for (let r = 0; r < rows; r++) {
    const vector = Array.from({ length: dims }, () => next() * 2 - 1);
    out.set(new Int8Array(encodeVector(vector).buffer), r * codeLength(dims));
  }
  return out;
}

function scalarDot(q: Float32Array, stored: Int8Array, base: number): number {
  let sum = 0;
  for (let i = 0; i < q.length; i++) sum += (q[i] as number) * (stored[base + i] as number);
  return sum;
}

describe('DotKernel', () => {
  const kernel = DotKernel.create();

  it('is available on this runtime (Node has WebAssembly SIMD)', () => {
    expect(kernel).toBeInstanceOf(DotKernel);
  });

  it.each([
    [7, 50, 0],
    [16, 300, 0],
    [24, 2048, 1000],
    [512, 2048, 3],
    [1536, 900, 0],
    [3072, 1000, 17],
  ])('matches the scalar dot products: %i dimensions, %i rows from row %i', (dims, rows, from) => {
    const next = seeded(dims * 31 + rows);
    const stored = codes(dims, rows, next);
    const query = Float32Array.from({ length: dims }, () => next() - 0.5);
    const seen: [number, number][] = [];
    kernel!.scan(query, stored, codeLength(dims), from, rows, (row, dot) => seen.push([row, dot]));
    expect(seen.map(([row]) => row)).toEqual(Array.from({ length: rows - from }, (_, i) => from + i));
    for (const [row, dot] of seen) {
      const exact = scalarDot(query, stored, row * codeLength(dims));
      // float32 sums against float64: a few units in the last place of float32, relative to the terms
      expect(Math.abs(dot - exact)).toBeLessThan(1e-5 * 127 * dims);
    }
  });

  it('serves indexes of different dimensions one after another', () => {
    const next = seeded(5);
    for (const dims of [512, 24, 512, 3072, 24]) {
      const stored = codes(dims, 40, next);
      const query = Float32Array.from({ length: dims }, () => next() - 0.5);
      const dots: number[] = [];
      kernel!.scan(query, stored, codeLength(dims), 0, 40, (_row, dot) => dots.push(dot));
      dots.forEach((dot, row) =>
        expect(Math.abs(dot - scalarDot(query, stored, row * codeLength(dims)))).toBeLessThan(1e-5 * 127 * dims),
      );
    }
  });
});
