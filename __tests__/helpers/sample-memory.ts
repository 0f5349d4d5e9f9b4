/**
 * A complete, valid insight memory for tests; override any field. Its identity (lesson, routines,
 * facet, examples, writer) is the one its tags, content and model say, unless overridden.
 */
import { legacyIdentity, type FullIdentity } from '../../src/core/knowledge/identity.js';
import type { Memory, MemoryIdentity } from '../../src/core/types.js';

export function sampleMemory(overrides: Partial<Memory> = {}): Memory {
  const memory: Omit<Memory, keyof MemoryIdentity | 'writer'> & Partial<Memory> = {
    id: 'm0123456789',
    tenant: 'acme',
    level: 'insight',
    title: 'Pin empty-input behaviour with a test',
    description: 'When a parser crashes on empty input, add a regression test for the empty case.',
    content: 'Write the failing test for the empty input first, then fix the guard, then run the suite.',
    body: {
      level: 'insight',
      insight: { title: 'Pin empty-input behaviour with a test', description: 'd', content: 'c' },
    },
    tags: ['routine:edge-input', 'lang:typescript'],
    evidence: ['tests changed in the same change'],
    provenance: [
      {
        tenant: 'acme',
        repo: 'acme/api',
        visibility: 'private',
        sourceKind: 'commit',
        ref: 'a'.repeat(40),
        authors: ['Ada'],
        date: '2024-01-02T03:04:05Z',
      },
    ],
    visibility: 'private',
    status: 'active',
    votes: { up: 1, down: 0 },
    support: 1,
    uses: 0,
    outcomes: { success: 0, failure: 0 },
    model: 'rules@1',
    createdAt: '2024-01-02T03:04:05.000Z',
    updatedAt: '2024-01-02T03:04:05.000Z',
    ...overrides,
  };
  // the identity after the other fields (a line of a pool file starts with its id), unless given
  const derived: Partial<Memory> = legacyIdentity(memory);
  for (const key of Object.keys(derived) as (keyof typeof derived)[])
    if (memory[key] !== undefined) delete derived[key];
  return { ...memory, ...derived } as Memory;
}

/** What a memory teaches (its identity fields), to compare memories by it. */
export const identityOf = (m: FullIdentity): FullIdentity => ({
  lesson: m.lesson,
  routines: m.routines,
  facet: m.facet,
  examples: m.examples,
  writer: m.writer,
});
