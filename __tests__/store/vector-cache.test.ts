import sqlite3 from 'sqlite3';
import { describe, expect, it } from 'vitest';
import { MEMORY_LEVELS, MEMORY_STATUSES } from '../../src/core/types.js';
import { encodeVector } from '../../src/core/vector-index.js';
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
});
