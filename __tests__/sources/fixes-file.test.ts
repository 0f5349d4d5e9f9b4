import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { parseFixesJsonl, readFixesFile } from '../../src/sources/fixes-file.js';

const dir = mkdtempSync(join(tmpdir(), 'mt-fixes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const evalLine = {
  repo: 'sindresorhus/got',
  sha: '9185b5beb00063278670a6e640617047bb6b1416',
  language: 'TypeScript',
  date: '2016-08-30T00:42:54+06:00',
  subject: 'Fix location encoding (#214)',
  body: '* See nodejs/node#7928',
  files: ['index.js', 'test/redirects.js'],
  tests_changed: true,
  labels: { primary: 'encoding-locale', secondary: 'regression-test' },
};

const nativeLine = {
  title: 'Crash on empty config file',
  problem: 'Starting with an empty YAML file throws.',
  change: 'Treat an empty document as {}.',
  files: ['src/config.ts', 'test/config.test.ts'],
  signals: [{ kind: 'check-red-green', check: 'unit', name: 'test' }],
  repo: 'acme/api',
  ref: '#42',
  source_kind: 'pull_request',
  url: 'https://github.com/acme/api/pull/42',
  authors: ['ada'],
  date: '2024-03-01T10:00:00Z',
  visibility: 'internal',
  tenant: 'acme',
  trusted: false,
};

const jsonl = (...lines: unknown[]) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');

describe('fixes file', () => {
  it('reads an eval-dev line as a commit fix, and never keeps its labels', () => {
    const [fix] = parseFixesJsonl(jsonl(evalLine), { tenant: 'eval', visibility: 'public' });
    expect(fix).toEqual({
      tenant: 'eval',
      repo: 'sindresorhus/got',
      visibility: 'public',
      sourceKind: 'commit',
      ref: evalLine.sha,
      title: evalLine.subject,
      problem: evalLine.body,
      change: '',
      files: evalLine.files,
      testsChanged: true,
      signals: [],
      authors: [],
      trusted: true,
      language: 'TypeScript',
      date: evalLine.date,
    });
    expect(JSON.stringify(fix)).not.toContain('encoding-locale');
  });

  it('does not even validate labels: any value there is ignored', () => {
    expect(() => parseFixesJsonl(jsonl({ ...evalLine, labels: 42 }))).not.toThrow();
  });

  it('reads the documented native format with provenance and signals', () => {
    const [fix] = parseFixesJsonl(jsonl(nativeLine));
    expect(fix).toMatchObject({
      tenant: 'acme',
      repo: 'acme/api',
      ref: '#42',
      sourceKind: 'pull_request',
      visibility: 'internal',
      trusted: false,
      testsChanged: true,
      url: nativeLine.url,
      signals: [{ kind: 'check-red-green', check: 'unit', name: 'test' }],
    });
  });

  it('uses defaults for what a line leaves out: repo from the options, tenant from the owner, private', () => {
    const [fix] = parseFixesJsonl(jsonl({ title: 'Fix it', ref: 'abc' }), { repo: 'Acme/Web' });
    expect(fix).toMatchObject({
      repo: 'Acme/Web',
      tenant: 'acme',
      visibility: 'private',
      sourceKind: 'import',
      testsChanged: false,
    });
  });

  it('skips blank lines and accepts CRLF', () => {
    expect(parseFixesJsonl(`${JSON.stringify(evalLine)}\r\n\r\n${JSON.stringify(nativeLine)}\r\n`)).toHaveLength(2);
  });

  it.each([
    [jsonl(evalLine, '{not json'), /:2: not valid JSON/],
    [jsonl(evalLine, '[1,2]'), /:2: must be a JSON object/],
    [jsonl(evalLine, { ...evalLine, tests_changed: 'yes' }), /:2: tests_changed: /],
    [jsonl({ ...evalLine, files: ['ok', 3] }), /:1: files\.1: /],
    [jsonl({ ...evalLine, sha: 'not-a-sha' }), /:1: sha: must be a hex commit id/],
    [jsonl({ ...evalLine, repo: 'no-slash' }), /:1: repo: must be owner\/name/],
    [jsonl({ ...nativeLine, visibility: 'secret' }), /:1: visibility: /],
    [jsonl({ ...nativeLine, signals: [{ kind: 'check-red-green', check: 'fuzz' }] }), /:1: signals\.0\.check: /],
    [jsonl({ ...nativeLine, date: 'yesterday' }), /:1: date: must be an ISO 8601 date/],
    [jsonl({ ...evalLine, subject: undefined }), /:1: title: required/],
    [jsonl({ title: 'x', ref: 'r' }), /:1: repo: required/],
    [jsonl({ ...nativeLine, ref: undefined }), /:1: ref: required/],
  ])('a bad line is an InputError naming the line and field (%#)', (text, message) => {
    expect(() => parseFixesJsonl(text, { source: 'fixes.jsonl' })).toThrow(InputError);
    expect(() => parseFixesJsonl(text, { source: 'fixes.jsonl' })).toThrow(message);
  });

  it('returns nothing at all when any line is bad', async () => {
    const path = join(dir, 'mixed.jsonl');
    writeFileSync(path, jsonl(evalLine, nativeLine, { ...nativeLine, authors: 'ada' }));
    await expect(readFixesFile(path)).rejects.toThrow(`${path}:3: authors: `);
  });

  it('reads a file and names a missing one', async () => {
    const path = join(dir, 'good.jsonl');
    writeFileSync(path, jsonl(evalLine, nativeLine));
    expect(await readFixesFile(path)).toHaveLength(2);
    await expect(readFixesFile(join(dir, 'nope.jsonl'))).rejects.toThrow(/no such file/);
  });
});
