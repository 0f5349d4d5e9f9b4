import sqlite3 from 'sqlite3';
import { describe, expect, it } from 'vitest';
import { MEMORY_LEVELS, MEMORY_STATUSES } from '../../src/core/types.js';
import { codeLength, encodeVector, SEGMENT_ROWS } from '../../src/core/retrieval/vector-index.js';
import { tagCharSql, tagsFromChars, VectorCache } from '../../src/store/vector-cache.js';

function evaluate(sql: string): Promise<string> {
  const db = new sqlite3.Database(':memory:');
  return new Promise((resolve, reject) =>
    db.get(sql, (error, row: { tags: string }) => {
      db.close();
      if (error) reject(error);
      else resolve(row.tags);
    }),
  );
}

describe('VectorCache', () => {
  it("reads a page's tags from one string of characters computed in SQL, the unknown as 255", async () => {
    const pairs = MEMORY_LEVELS.flatMap((level) => MEMORY_STATUSES.map((status) => [level, status] as const));
    const values = [...pairs, ['insight', 'nonsense'], ['nonsense', 'active']]
      .map(([level, status], i) => `(${i}, '${level}', '${status}')`)
      .join(', ');
    // SQLite's VALUES names its columns column1..3
    const tags = tagsFromChars(
      await evaluate(
        `SELECT group_concat(${tagCharSql('column2', 'column3')}, '') AS tags FROM (SELECT * FROM (VALUES ${values}) ORDER BY column1)`,
      ),
    );
    const known = [...tags.subarray(0, pairs.length)];
    expect(new Set(known).size).toBe(pairs.length);
    expect(known.every((t) => t < 255)).toBe(true);
    expect([...tags.subarray(pairs.length)]).toEqual([255, 255]);
  });

  it('re-scores the candidates exactly from the stored vectors, leaving out rows whose vector is gone', async () => {
    const stored = new Map<string, Float32Array>([
      ['a', Float32Array.of(1, 0, 0, 0)],
      ['b', Float32Array.of(0.9, 0.1, 0, 0)],
      ['c', Float32Array.of(0, 1, 0, 0)],
    ]);
    const cache = new VectorCache(
      async (_tenant, _model, sink) => {
        const ids = [...stored.keys()];
        const codes = new Uint8Array(ids.length * 8);
        ids.forEach((id, i) => codes.set(encodeVector(stored.get(id)!), i * 8));
        expect(sink.addCodes({ ids, tags: new Uint8Array(ids.length), dims: 4, codes })).toBe(true);
      },
      async (_tenant, _model, ids) =>
        new Map(ids.filter((id) => stored.has(id)).map((id) => [id, new Uint8Array(stored.get(id)!.buffer)] as const)),
    );
    const hits = await cache.search('t', 'm', Float32Array.of(1, 0, 0, 0), { limit: 2 });
    expect(hits.map((h) => h.id)).toEqual(['a', 'b']);
    expect(hits[0]!.score).toBe(1);
    expect(hits[1]!.score).toBeCloseTo(0.9 / Math.sqrt(0.82), 6);
    stored.delete('a');
    expect((await cache.search('t', 'm', Float32Array.of(1, 0, 0, 0), { limit: 2 })).map((h) => h.id)).toEqual([
      'b',
      'c',
    ]);
  });

  it('the search that starts the load scans its pages as they come, and answers as a later search does', async () => {
    const dims = 16;
    let seed = 3;
    const next = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
    const count = SEGMENT_ROWS * 2 + 100;
    const vectors = Array.from({ length: count }, () => Float32Array.from({ length: dims }, next));
    const ids = vectors.map((_, i) => `v${i}`);
    const hooks: { duringLoad?: () => void } = {};
    const make = () =>
      new VectorCache(
        async (_tenant, _model, sink) => {
          for (let from = 0; from < count; from += SEGMENT_ROWS) {
            await new Promise((resolve) => setTimeout(resolve, 1));
            const to = Math.min(count, from + SEGMENT_ROWS);
            const codes = new Uint8Array((to - from) * codeLength(dims));
            for (let i = from; i < to; i++) codes.set(encodeVector(vectors[i]!), (i - from) * codeLength(dims));
            const tags = Uint8Array.from({ length: to - from }, (_, i) => ((from + i) % 3 === 0 ? 1 : 0));
            expect(sink.addCodes({ ids: ids.slice(from, to), tags, dims, codes })).toBe(true);
            if (from === 0) hooks.duringLoad?.();
          }
        },
        async (_tenant, _model, wanted) =>
          new Map(wanted.map((id) => [id, new Uint8Array(vectors[Number(id.slice(1))]!.buffer)] as const)),
      );
    const query = vectors[SEGMENT_ROWS + 8]!;
    const options = { limit: 20, level: ['trajectory' as const], status: ['proposed' as const] };
    // tag 0 = trajectory + proposed (level and status codes 0): rows not divisible by 3
    const cache = make();
    const first = await cache.search('t', 'm', query, options);
    const again = await cache.search('t', 'm', query, options);
    expect(first).toEqual(again);
    expect(first[0]?.id).toBe(`v${SEGMENT_ROWS + 8}`);
    expect(first.every((h) => Number(h.id.slice(1)) % 3 !== 0)).toBe(true);
    // a write while loading: applied after the load, and the first search sees it
    const other = make();
    const moved = query.map((x) => x * 2);
    hooks.duringLoad = () => other.upsertVector('t', 'm', 'v1', moved, { level: 'trajectory', status: 'proposed' });
    vectors[1] = moved;
    const seen = await other.search('t', 'm', query, options);
    expect(
      seen
        .slice(0, 2)
        .map((h) => h.id)
        .sort(),
    ).toEqual(['v1', `v${SEGMENT_ROWS + 8}`]);
  });
});
