import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { parsePool, serializePool } from '../../../src/core/retrieval/pool-file.js';
import { sampleMemory } from '../../helpers/sample-memory.js';

const header = { tenant: 'acme', exportedAt: '2024-05-01T00:00:00.000Z' };

function lines(text: string): string[] {
  return text.trimEnd().split('\n');
}

describe('pool file', () => {
  it('round-trips every memory field, header first', () => {
    const memories = [
      sampleMemory(),
      sampleMemory({
        id: 'm2',
        level: 'workflow',
        body: { level: 'workflow', workflow: { goal: 'g', steps: ['a', 'b'] } },
        sharedWiderBy: 'octocat',
        lastUsedAt: '2024-02-01T00:00:00Z',
      }),
    ];
    const text = serializePool(header, memories);
    expect(JSON.parse(lines(text)[0] ?? '')).toEqual({
      format: 'memory-transfer-pool',
      version: 1,
      tenant: 'acme',
      exportedAt: header.exportedAt,
      count: 2,
    });
    const parsed = parsePool(text);
    expect(parsed.memories).toEqual(memories);
    expect(parsed.header.tenant).toBe('acme');
  });

  it('reads an empty pool and ignores blank lines and CRLF', () => {
    expect(parsePool(serializePool(header, [])).memories).toEqual([]);
    const text = serializePool(header, [sampleMemory()]).replace(/\n/g, '\r\n') + '\r\n\r\n';
    expect(parsePool(text).memories).toHaveLength(1);
  });

  it.each([
    ['not JSON', (m: string) => m.slice(0, 20), /^line 3: not valid JSON$/],
    ['a bad enum', (m: string) => m.replace('"status":"active"', '"status":"live"'), /^line 3: status: /],
    [
      'a nested field',
      (m: string) => m.replace('"sourceKind":"commit"', '"sourceKind":7'),
      /^line 3: provenance\.0\.sourceKind: /,
    ],
    [
      'a missing field',
      (m: string) => m.replace('"title":"Pin empty-input behaviour with a test",', ''),
      /^line 3: title: /,
    ],
    ['an array', () => '[]', /^line 3: expected a JSON object$/],
    [
      'a body of another level',
      (m: string) => m.replace('"level":"insight","title"', '"level":"summary","title"'),
      /^line 3: body\.level: must match level$/,
    ],
  ])('names the line and field for %s', (_name, mutate, message) => {
    const text = serializePool(header, [sampleMemory({ id: 'm1' }), sampleMemory({ id: 'm2' })]);
    const all = lines(text);
    all[2] = mutate(all[2] ?? '');
    expect(() => parsePool(all.join('\n'))).toThrow(message);
  });

  it('refuses a file from a newer format version with a clear line', () => {
    const text = serializePool(header, []).replace('"version":1', '"version":2');
    const error = (() => {
      try {
        parsePool(text);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(/format version 2, newer than this memory-transfer reads \(1\); upgrade/);
  });

  it('refuses files that are not pool exports, mixed tenants, duplicate ids and cut files', () => {
    expect(() => parsePool('')).toThrow(/empty/);
    expect(() => parsePool('{"format":"something-else","version":1}\n')).toThrow(
      /^line 1: format: must be "memory-transfer-pool"/,
    );
    expect(() => parsePool(serializePool(header, [sampleMemory({ tenant: 'other' })]))).toThrow(
      /^line 2: tenant: "other" differs from the header's "acme"/,
    );
    expect(() => parsePool(serializePool(header, [sampleMemory(), sampleMemory()]))).toThrow(
      /^line 3: id: .* already on line 2/,
    );
    const cut = lines(serializePool(header, [sampleMemory({ id: 'm1' }), sampleMemory({ id: 'm2' })]))
      .slice(0, 2)
      .join('\n');
    expect(() => parsePool(cut)).toThrow(/announces 2 memories but the file has 1/);
  });
});
