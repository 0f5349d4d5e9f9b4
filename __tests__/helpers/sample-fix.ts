/** A complete, valid fix for tests; override any field. */
import type { Fix } from '../../src/core/types.js';

export function sampleFix(overrides: Partial<Fix> = {}): Fix {
  return {
    tenant: 'acme',
    repo: 'acme/api',
    visibility: 'private',
    sourceKind: 'commit',
    ref: 'a'.repeat(40),
    title: 'Fix crash when the request body is empty',
    problem: '',
    change: '',
    files: ['src/body-parser.ts', 'test/body-parser.test.ts'],
    testsChanged: true,
    signals: [],
    authors: ['Ada'],
    trusted: true,
    language: 'TypeScript',
    date: '2024-01-02T03:04:05Z',
    ...overrides,
  };
}
