import { describe, expect, it } from 'vitest';
import { checkHeader, checkMemory, PoolFieldError } from '../../../src/core/retrieval/pool-check.js';
import { POOL_FORMAT } from '../../../src/core/retrieval/pool-file.js';
import { sampleMemory } from '../../helpers/sample-memory.js';
import { headerSchema, memorySchema } from './pool-file-zod-reference.js';

type Mutation = [name: string, change: (m: Record<string, any>) => void];

const MUTATIONS: Mutation[] = [
  ['nothing', () => {}],
  ['an unknown field', (m) => (m.extra = 1)],
  ['an unknown nested field', (m) => (m.provenance[0].extra = 'x')],
  ['an unknown body field', (m) => (m.body.insight.extra = 'x')],
  ['optional fields set', (m) => Object.assign(m, { sharedWiderBy: 'ada', lastUsedAt: '2024-03-01T00:00:00Z' })],
  ['a repo id and a url', (m) => Object.assign(m.provenance[0], { repoId: 42, url: 'https://github.com/acme/api' })],
  ['a missing id', (m) => delete m.id],
  ['a bad id', (m) => (m.id = 'has space')],
  ['an empty tenant', (m) => (m.tenant = '')],
  ['a bad level', (m) => (m.level = 'essay')],
  ['a title as a number', (m) => (m.title = 7)],
  ['a null description', (m) => (m.description = null)],
  ['a body of another level', (m) => (m.level = 'summary')],
  ['a body without its level', (m) => delete m.body.level],
  ['a body of an unknown level', (m) => (m.body.level = 'essay')],
  ['a body missing its shape', (m) => delete m.body.insight],
  [
    'a workflow body',
    (m) =>
      Object.assign(m, { level: 'workflow', body: { level: 'workflow', workflow: { goal: 'g', steps: ['a', 1] } } }),
  ],
  [
    'a good workflow body',
    (m) => Object.assign(m, { level: 'workflow', body: { level: 'workflow', workflow: { goal: 'g', steps: ['a'] } } }),
  ],
  ['a tag that is not text', (m) => (m.tags = ['a', 2])],
  ['evidence as an object', (m) => (m.evidence = {})],
  ['no source', (m) => (m.provenance = [])],
  ['a source kind of another type', (m) => (m.provenance[0].sourceKind = 7)],
  ['a source without authors', (m) => delete m.provenance[0].authors],
  ['a fractional repo id', (m) => (m.provenance[0].repoId = 1.5)],
  ['a null url', (m) => (m.provenance[0].url = null)],
  ['a bad visibility', (m) => (m.visibility = 'secret')],
  ['a bad status', (m) => (m.status = 'live')],
  ['negative votes', (m) => (m.votes.down = -1)],
  ['support 0', (m) => (m.support = 0)],
  ['uses as text', (m) => (m.uses = '3')],
  ['outcomes without failure', (m) => delete m.outcomes.failure],
  ['a bad date', (m) => (m.createdAt = 'yesterday')],
  ['a bad last use', (m) => (m.lastUsedAt = 'never')],
  ['a null last use', (m) => (m.lastUsedAt = null)],
  ['votes as an array', (m) => (m.votes = [1, 0])],
];

function check(value: object): { ok: true; data: unknown } | { ok: false; path: string } {
  try {
    return { ok: true, data: checkMemory(value) };
  } catch (error) {
    if (!(error instanceof PoolFieldError)) throw error;
    return { ok: false, path: error.path };
  }
}

describe('the hand-written checks of a pool line agree with the zod schema they replace', () => {
  it.each(MUTATIONS)('%s', (_name, change) => {
    const value = JSON.parse(JSON.stringify(sampleMemory())) as Record<string, any>;
    change(value);
    const zod = memorySchema.safeParse(JSON.parse(JSON.stringify(value)));
    const mine = check(value);
    expect(mine.ok).toBe(zod.success);
    if (mine.ok && zod.success) expect(mine.data).toEqual(zod.data);
    if (!mine.ok && !zod.success) expect(mine.path).toBe(zod.error.issues[0]!.path.map(String).join('.'));
  });

  it('returns a line without unknown fields as it is (no copy)', () => {
    const value = JSON.parse(JSON.stringify(sampleMemory())) as object;
    expect(checkMemory(value)).toBe(value);
  });

  it.each([
    [{ format: POOL_FORMAT, version: 1, tenant: 'acme', exportedAt: '2026-01-01T00:00:00Z' }],
    [{ format: POOL_FORMAT, version: 1, tenant: 'acme', exportedAt: '2026-01-01T00:00:00Z', count: 3, terms: {} }],
    [{ format: POOL_FORMAT, version: 0, tenant: 'acme', exportedAt: '2026-01-01T00:00:00Z' }],
    [{ format: POOL_FORMAT, version: 1, tenant: '', exportedAt: '2026-01-01T00:00:00Z' }],
    [{ format: POOL_FORMAT, version: 1, tenant: 'acme', exportedAt: 'soon' }],
    [{ format: POOL_FORMAT, version: 1, tenant: 'acme', exportedAt: '2026-01-01T00:00:00Z', count: -1 }],
    [{ format: 'other', version: 1, tenant: 'acme', exportedAt: '2026-01-01T00:00:00Z' }],
  ])('header %j', (value) => {
    const zod = headerSchema.safeParse(value);
    let mine: { ok: boolean; data?: unknown; path?: string };
    try {
      mine = { ok: true, data: checkHeader(POOL_FORMAT)(value) };
    } catch (error) {
      mine = { ok: false, path: (error as PoolFieldError).path };
    }
    expect(mine.ok).toBe(zod.success);
    if (mine.ok && zod.success) expect(mine.data).toEqual(zod.data);
    if (!mine.ok && !zod.success) expect(mine.path).toBe(zod.error.issues[0]!.path.map(String).join('.'));
  });
});
