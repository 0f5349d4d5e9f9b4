import { describe, expect, it } from 'vitest';
import { MemoryIndex } from '../../../src/core/retrieval/memory-index.js';
import { sampleMemory } from '../../helpers/sample-memory.js';

const memories = [
  sampleMemory({
    id: 'm1',
    title: 'Test time zones',
    description: 'DST and UTC offsets',
    content: 'Run tests in another time zone.',
  }),
  sampleMemory({
    id: 'm2',
    title: 'Test empty input',
    description: 'Empty and null values',
    content: 'Feed empty input to the parser.',
  }),
  sampleMemory({
    id: 'm3',
    title: 'Empty input again',
    description: 'proposed',
    content: 'Empty empty empty.',
    status: 'proposed',
  }),
  sampleMemory({ id: 'm4', tenant: 'other', title: 'Test empty input', description: 'other org', content: 'Empty.' }),
  sampleMemory({ id: 'm5', level: 'workflow', title: 'Empty input workflow', description: 'steps', content: 'Empty.' }),
];

describe('MemoryIndex', () => {
  const index = new MemoryIndex(memories, [
    { id: 'm1', vector: new Float32Array([1, 0, 0]), model: 'e1' },
    { id: 'm2', vector: new Float32Array([0, 1, 0]), model: 'e1' },
    { id: 'm3', vector: new Float32Array([0, 1, 0]), model: 'e2' },
  ]);

  it('ranks by BM25 with OR semantics, stemming, within one tenant, level and status', async () => {
    const hits = await index.searchLexical('acme', 'parsers break on an empty string', {
      level: ['insight'],
      status: ['active'],
      limit: 10,
    });
    expect(hits.map((h) => h.id)).toEqual(['m2']);
    expect(hits[0]!.score).toBeGreaterThan(0);
    const all = await index.searchLexical('acme', 'empty timezone zones', { limit: 10 });
    expect(all.map((h) => h.id).sort()).toEqual(['m1', 'm2', 'm3', 'm5']);
  });

  it('returns nothing for a query with no indexed word', async () => {
    expect(await index.searchLexical('acme', 'the of and', { limit: 5 })).toEqual([]);
    expect(await index.searchLexical('acme', 'kubernetes', { limit: 5 })).toEqual([]);
  });

  it('searches vectors by cosine, only of the same model', async () => {
    const hits = await index.searchVector('acme', new Float32Array([0.1, 1, 0]), 'e1', { limit: 5 });
    expect(hits.map((h) => h.id)).toEqual(['m2', 'm1']);
    expect(hits[0]!.score).toBeCloseTo(0.995, 2);
    expect(
      (await index.searchVector('acme', new Float32Array([0, 1, 0]), 'e2', { limit: 5, status: ['active'] })).length,
    ).toBe(0);
  });

  it('loads memories by id within the tenant only', async () => {
    expect((await index.getMemories('acme', ['m1', 'm4', 'nope'])).map((m) => m.id)).toEqual(['m1']);
    expect((await index.getMemories('other', ['m4'])).map((m) => m.id)).toEqual(['m4']);
  });

  it('answers the same on every search, keeping the best k with ties in id order', async () => {
    const many = Array.from({ length: 40 }, (_, i) =>
      sampleMemory({
        id: `t${String(i).padStart(2, '0')}`,
        title: i % 2 === 0 ? 'Retry the upload' : 'Retry the upload after a timeout',
        description: 'network',
        content: 'Retry.',
      }),
    );
    const big = new MemoryIndex(many);
    const first = await big.searchLexical('acme', 'retry upload timeout', { limit: 5 });
    await big.searchLexical('acme', 'network', { limit: 40 });
    expect(await big.searchLexical('acme', 'retry upload timeout', { limit: 5 })).toEqual(first);
    // the ones that also match "timeout" (odd numbers) first, ties by id
    expect(first.map((h) => h.id)).toEqual(['t01', 't03', 't05', 't07', 't09']);
    const all = await big.searchLexical('acme', 'retry upload timeout', { limit: 100 });
    expect(all).toHaveLength(40);
    expect(all.slice(0, 5)).toEqual(first);
  });

  it('keeps exactly the best k of the allowed matches, for any k, in a pool full of ties', async () => {
    const words = ['cache', 'retry', 'migration', 'lockfile', 'timeout', 'encoding', 'parser', 'schema'];
    let seed = 5;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const pick = () => words[Math.floor(next() * words.length)] as string;
    const pool = Array.from({ length: 300 }, (_, i) =>
      sampleMemory({
        id: `p${String(i).padStart(3, '0')}`,
        title: `${pick()} ${pick()}`,
        description: pick(),
        content: `${pick()}.`,
        status: i % 5 === 0 ? 'proposed' : 'active',
      }),
    );
    const big = new MemoryIndex(pool);
    for (let q = 0; q < 20; q += 1) {
      const query = `${pick()} ${pick()} ${pick()}`;
      const all = await big.searchLexical('acme', query, { status: ['active'], limit: 1_000 });
      expect(all.length).toBeGreaterThan(20);
      expect(
        all.every(
          (h, i) => i === 0 || all[i - 1]!.score > h.score || (all[i - 1]!.score === h.score && all[i - 1]!.id < h.id),
        ),
      ).toBe(true);
      for (const k of [1, 3, 7, 20]) {
        expect(await big.searchLexical('acme', query, { status: ['active'], limit: k })).toEqual(all.slice(0, k));
      }
      const proposed = await big.searchLexical('acme', query, { status: ['proposed'], limit: 1_000 });
      expect(proposed.every((h) => Number(h.id.slice(1)) % 5 === 0)).toBe(true);
    }
  });
});
