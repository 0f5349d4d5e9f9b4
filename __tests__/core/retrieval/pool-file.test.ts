import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { parsePool, parsePoolEntries, serializePool } from '../../../src/core/retrieval/pool-file.js';
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

describe("a pool file's identity fields", () => {
  const smoke = readFileSync(fileURLToPath(new URL('../../fixtures/pools/smoke.jsonl', import.meta.url)));

  it('are written on every memory line and read back as written, whatever the tags say', () => {
    // tags are labels for people: a line whose fields and tags disagree reads its fields
    const memory = sampleMemory({
      tags: ['routine:edge-input', 'lesson:empty-input'],
      lesson: 'learned-serving-size',
      routines: ['regression-test'],
      facet: null,
      examples: ['shopping list ignores the serving size'],
      writer: 'learned',
    });
    const line = JSON.parse(lines(serializePool(header, [memory]))[1] ?? '') as Record<string, unknown>;
    expect(line).toMatchObject({
      lesson: 'learned-serving-size',
      routines: ['regression-test'],
      facet: null,
      examples: ['shopping list ignores the serving size'],
      writer: 'learned',
    });
    expect(parsePool(serializePool(header, [memory])).memories).toEqual([memory]);
  });

  it('of a file written before them are what its tags, content and model say (the reader of the Action too)', () => {
    const text = smoke.toString('utf8');
    expect(text).not.toMatch(/"writer"|"routines"/);
    const parsed = parsePool(text).memories;
    const entries = parsePoolEntries(smoke).entries.map((entry) => entry.memory());
    expect(entries).toEqual(parsed);
    expect(parsed.find((m) => m.id === 'm0a00000002')).toMatchObject({ routines: ['edge-input'], writer: 'rules' });
    expect(parsed.find((m) => m.id === 'm0a00000003')).toMatchObject({
      tags: ['routine:timezone', 'check:unit'],
      // "timezone" is no routine kind of this version: the code before ignored it too
      lesson: null,
      routines: [],
      facet: null,
      examples: [],
      writer: 'rules',
    });
    const old = sampleMemory({
      tags: ['routine:edge-input', 'facet:edge-input/empty', 'lesson:empty-input'],
      content: 'Feed it the empty input. Seen in: crash on an empty body.',
      model: 'gpt-5-mini',
    }) as unknown as Record<string, unknown>;
    for (const field of ['lesson', 'routines', 'facet', 'examples', 'writer']) delete old[field];
    const withoutFields = `${lines(serializePool(header, []))[0]!.replace('"count":0', '"count":1')}\n${JSON.stringify(old)}\n`;
    expect(parsePool(withoutFields).memories[0]).toMatchObject({
      lesson: 'empty-input',
      routines: ['edge-input'],
      facet: 'edge-input/empty',
      examples: ['crash on an empty body'],
      writer: 'model',
    });
  });

  it.each([
    ['writer', '"writer":"person"', /^line 2: writer: must be one of rules, model, learned; got "person"$/],
    ['routines', '"routines":"edge-input"', /^line 2: routines: expected an array, got string$/],
    ['routines', '"routines":[""]', /^line 2: routines\.0: must not be empty$/],
    ['facet', '"facet":"time"', /^line 2: facet: must be "<kind>\/<facet>" or null$/],
    ['examples', '"examples":[3]', /^line 2: examples\.0: expected a string, got number$/],
    ['lesson', '"lesson":7', /^line 2: lesson: expected a string, got number$/],
  ])('refuse a bad %s, naming it', (field, bad, message) => {
    const text = serializePool(header, [sampleMemory()]).replace(
      new RegExp(`"${field}":(null|"[^"]*"|\\[[^\\]]*\\])`),
      bad,
    );
    expect(text).toContain(bad);
    expect(() => parsePool(text)).toThrow(message);
  });
});
