import { isAscii } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { LESSONS, lessonTag } from '../../../src/core/knowledge/lessons.js';
import { MemoryIndex } from '../../../src/core/retrieval/memory-index.js';
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import {
  parsePool,
  parsePoolBytes,
  parsePoolEntries,
  PoolLineError,
  serializePool,
} from '../../../src/core/retrieval/pool-file.js';
import type { Memory, Requester } from '../../../src/core/types.js';
import { silentLogger, systemClock } from '../../../src/ports/index.js';
import { recall } from '../../../src/services/recall.js';
import { sampleMemory } from '../../helpers/sample-memory.js';

const header = { tenant: 'acme', exportedAt: '2026-12-01T00:00:00.000Z' };

/** A pool of varied real vocabulary: one insight per lesson of the catalog, a few with non-ASCII text. */
function pool(): Memory[] {
  const memories = LESSONS.map((lesson, i) =>
    sampleMemory({
      id: `m${String(i).padStart(4, '0')}`,
      title: lesson.title,
      description: lesson.description,
      content: i % 7 === 0 ? `${lesson.check} Naïve “quotes” — café, 日本語のテスト, Ünïcode façade.` : lesson.check,
      body: {
        level: 'insight',
        insight: { title: lesson.title, description: lesson.description, content: lesson.check },
      },
      tags: [`routine:${lesson.kind}`, lessonTag(lesson.id), 'lang:typescript'],
      provenance: [{ ...sampleMemory().provenance[0]!, repo: `acme/repo-${i % 5}`, visibility: 'public' }],
      visibility: 'public',
      votes: { up: i % 4, down: i % 3 === 0 ? 1 : 0 },
      support: 1 + (i % 6),
    }),
  );
  // the same words many times (term counts above 1, long postings)
  memories.push(
    sampleMemory({ id: 'mrepeat', content: 'empty empty empty input input test test test test parser parser' }),
  );
  return memories;
}

const TASKS = [
  'The dev server crashes when the config file is empty',
  'Parser fails on empty input and returns undefined',
  'Date arithmetic is off by one hour across the DST change in some time zones',
  'Race condition: two concurrent requests write the same cache entry',
  'Unicode file names are mangled on Windows (naïve façade café)',
  'Retry loop never stops when the server answers 503',
  'null is written as the string "null" in the generated URL',
  'The migration fails on a fresh database',
];

describe('terms counted at export (the Action pool file)', () => {
  const memories = pool();
  const text = serializePool(header, memories, { forAction: true });

  it('writes pure ASCII that reads back as the same memories as a plain export', () => {
    expect(isAscii(Buffer.from(text))).toBe(true);
    expect(text).toContain('\\u65e5\\u672c\\u8a9e');
    const plain = parsePool(serializePool(header, memories));
    const forAction = parsePoolBytes(Buffer.from(text));
    expect(forAction.memories).toEqual(plain.memories);
    expect(forAction.memories).toEqual(memories);
    expect(forAction.terms).toBeDefined();
    expect(plain.terms).toBeUndefined();
  });

  it('ranks exactly as an index that tokenizes every text: the same ids, the same scores', async () => {
    const { entries, terms } = parsePoolEntries(Buffer.from(text));
    expect(terms).toBeDefined();
    const computed = new MemoryIndex(memories);
    const precomputed = MemoryIndex.ofEntries(entries, terms);
    const search = { level: ['insight' as const], status: ['active' as const], limit: 60 };
    const requester: Requester = { tenant: 'acme', repo: 'acme/elsewhere', visibility: 'public' };
    let answered = 0;
    for (const task of [...TASKS, ...LESSONS.map((lesson) => lesson.title)]) {
      expect(await precomputed.searchLexical('acme', task, search)).toEqual(
        await computed.searchLexical('acme', task, search),
      );
      const deps = (store: MemoryIndex) => ({ store, logger: silentLogger, clock: systemClock });
      for (const k of [3, 10]) {
        const expected = await recall(deps(computed), requester, task, { k, minScore: 0 });
        if (expected.length > 0) answered += 1;
        expect(await recall(deps(precomputed), requester, task, { k, minScore: 0 })).toEqual(expected);
      }
    }
    expect(answered).toBeGreaterThan(40);
    // every term of every memory: the same postings membership
    for (const memory of memories.slice(0, 20)) {
      for (const term of ['empty', 'test', 'pars', 'zone', 'caf\u00e9', 'nowhere']) {
        expect(precomputed.hasTerm('acme', memory.id, term)).toBe(computed.hasTerm('acme', memory.id, term));
      }
    }
  });

  it('an entry reads the same memory as the parser, and only when asked', () => {
    const { entries } = parsePoolEntries(Buffer.from(text));
    expect(entries.map((entry) => entry.memory())).toEqual(memories);
    expect(entries[0]!.memory()).toBe(entries[0]!.memory());
    expect(entries.map(({ id, level, status, tenant }) => ({ id, level, status, tenant }))).toEqual(
      memories.map(({ id, level, status, tenant }) => ({ id, level, status, tenant })),
    );
  });

  it('are not used when a memory line changed since (edited by hand), nor from another tokenizer version', () => {
    const edited = text.replace('"support":1,', '"support":2,');
    expect(edited).not.toBe(text);
    const read = parsePoolBytes(Buffer.from(edited));
    expect(read.terms).toBeUndefined();
    expect(read.termsUnused).toMatch(/memory lines changed/);
    const older = text.replace('"terms":{"version":1,', '"terms":{"version":0,');
    expect(parsePoolBytes(Buffer.from(older)).termsUnused).toMatch(/tokenizer version 0/);
    // the string reader agrees with the bytes reader
    expect(parsePool(text).terms).toBeDefined();
    expect(parsePool(edited).terms).toBeUndefined();
  });

  it('a damaged index fails the file with a line naming the field', () => {
    const [first = '', ...rest] = text.split('\n');
    const withHeader = (h: unknown) => [JSON.stringify(h), ...rest].join('\n');
    const h = JSON.parse(first) as { terms: Record<string, unknown> };
    expect(() => parsePool(withHeader({ ...h, terms: 'x' }))).toThrow(/^line 1: terms: expected an object$/);
    expect(() => parsePool(withHeader({ ...h, terms: { ...h.terms, digest: 'abc' } }))).toThrow(
      /^line 1: terms\.digest: /,
    );
    const fewer = { ...h, terms: { ...h.terms, lengths: '1,2' } };
    expect(() => parsePool(withHeader(fewer))).toThrow(InputError);
    expect(() => parsePool(withHeader(fewer))).toThrow(/^line 1: terms\.lengths: 2 lengths for \d+ memories$/);
    // a posting is decoded when a search first needs it: a damaged one fails then, naming the term
    const postings = { ...(h.terms.postings as Record<string, string>), empti: '1,zz!' };
    const damaged = parsePool(withHeader({ ...h, terms: { ...h.terms, postings } }));
    expect(() => damaged.terms?.counts('empti')).toThrow(/^line 1: terms\.postings\.empti: not a list of postings/);
    // a term the pool lacks, named like a property every object inherits, is simply absent
    for (const inherited of ['__proto__', 'hasOwnProperty', 'valueOf'])
      expect(damaged.terms?.counts(inherited), inherited).toBeUndefined();
  });

  it('a bad memory line fails the Action parser too, naming the line and field', () => {
    const lines = text.split('\n');
    lines[3] = lines[3]!.replace('"status":"active"', '"status":"live"');
    expect(() => parsePoolEntries(Buffer.from(lines.join('\n')))).toThrow(/^line 4: status: must be one of /);
  });

  describe('indexed by the header (ids and kinds): lines parsed when read', () => {
    const [first = '', ...rest] = text.split('\n');
    const h = JSON.parse(first) as { terms: Record<string, unknown> };
    /** the file with its lines replaced and their digest and CRC-32 counted again (as a forger would) */
    const forged = (lines: string[], terms: Record<string, unknown> = h.terms): string => {
      const body = lines.join('\n');
      const digest = createHash('sha256').update(body).digest('hex');
      const sum = 'crc32' in terms ? { crc32: crc32(body).toString(16).padStart(8, '0') } : {};
      // the header as the export writes it: ASCII, other characters as `\u` escapes
      const header = JSON.stringify({ ...h, terms: { ...terms, digest, ...sum } }).replace(
        /[\u0080-\uffff]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
      );
      return [header, body].join('\n');
    };

    it('the export indexes every line: id, level and status, and counts the CRC-32 of the lines', () => {
      expect(h.terms.ids).toBe(memories.map((m) => m.id).join(','));
      expect(h.terms.kinds).toBe('31'.repeat(memories.length));
      expect(h.terms.crc32).toBe(crc32(rest.join('\n')).toString(16).padStart(8, '0'));
    });

    it('checks the lines against their CRC-32 when the file has one, else against their SHA-256', () => {
      const lines = [...rest];
      lines[2] = lines[2]!.replace('"status":"active"', '"status":"live"');
      // the digest counted again but not the CRC-32: every line is read at start, and the bad one fails
      const staleCrc = forged(lines).replace(/"crc32":"[0-9a-f]{8}"/, `"crc32":"${String(h.terms.crc32)}"`);
      expect(() => parsePoolEntries(Buffer.from(staleCrc))).toThrow(/^line 4: status: must be one of /);
      // a file without a CRC-32 (an export of this session's first change) is checked by its digest
      const { crc32: _crc32, ...withoutCrc } = h.terms;
      const { entries } = parsePoolEntries(Buffer.from(forged(lines, withoutCrc)));
      expect(() => entries[2]!.memory()).toThrow(/^line 4: status: must be one of /);
    });

    it('reads a line only when its memory is asked for: a line recall never reads is not parsed at start', () => {
      const lines = [...rest];
      lines[2] = lines[2]!.replace('"status":"active"', '"status":"live"');
      const { entries, terms } = parsePoolEntries(Buffer.from(forged(lines)));
      expect(terms).toBeDefined();
      expect(entries.map((entry) => entry.id)).toEqual(memories.map((m) => m.id));
      expect(entries[0]!.memory()).toEqual(memories[0]);
      // the damaged line fails when read, naming it as the line-by-line reader does
      expect(() => entries[2]!.memory()).toThrow(PoolLineError);
      expect(() => entries[2]!.memory()).toThrow(/^line 4: status: must be one of /);
      // without the index (an older export) the same file fails at start
      const { ids: _ids, kinds: _kinds, ...older } = h.terms;
      expect(() => parsePoolEntries(Buffer.from(forged(lines, older)))).toThrow(/^line 4: status: must be one of /);
    });

    it('a line that is not the memory the index names fails when read', () => {
      const kinds = `${'31'.repeat(3)}01${'31'.repeat(memories.length - 4)}`;
      const ids = memories.map((m, i) => (i === 5 ? 'mother' : m.id)).join(',');
      const { entries } = parsePoolEntries(Buffer.from(forged(rest, { ...h.terms, ids, kinds })));
      expect(entries[3]!.level).toBe('trajectory');
      expect(() => entries[3]!.memory()).toThrow(/^line 5: level: "insight" differs from the header's terms/);
      expect(() => entries[5]!.memory()).toThrow(/^line 7: id: "m0005" differs from the header's terms/);
      const other = [...rest];
      other[1] = other[1]!.replace('"tenant":"acme"', '"tenant":"globex"');
      expect(() => parsePoolEntries(Buffer.from(forged(other))).entries[1]!.memory()).toThrow(
        /^line 3: tenant: "globex" differs from the header's "acme"/,
      );
    });

    it('an index that does not fit the lines is not used: every line is read at start', () => {
      const plain = parsePoolBytes(Buffer.from(text)).memories;
      for (const terms of [
        { ...h.terms, kinds: '31' },
        { ...h.terms, ids: 'a,b' },
        { ...h.terms, kinds: 'x1'.repeat(memories.length) },
        { ...h.terms, ids: memories.map(() => 'same').join(',') },
      ]) {
        const { entries } = parsePoolEntries(Buffer.from(forged(rest, terms)));
        expect(entries.map((entry) => entry.memory())).toEqual(plain);
      }
      // a line repeated under a forged digest: the index names another memory there, read on demand
      const twice = [...rest];
      twice[1] = rest[0]!;
      expect(() => parsePoolEntries(Buffer.from(forged(twice))).entries[1]!.memory()).toThrow(
        /^line 3: id: "m0000" differs from the header's terms/,
      );
      const { ids: _ids, kinds: _kinds, ...older } = h.terms;
      expect(() => parsePoolEntries(Buffer.from(forged(twice, older)))).toThrow(
        /^line 3: id: "m0000" already on line 2/,
      );
    });
  });
});
