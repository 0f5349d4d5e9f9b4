import { describe, expect, it } from 'vitest';
import type { Memory, Provenance, Requester, Visibility } from '../../src/core/types.js';
import { VISIBILITIES } from '../../src/core/types.js';
import {
  effectiveVisibility,
  flowsTo,
  mayLinkSource,
  maySee,
  mayServeLevel,
  mostPrivate,
} from '../../src/core/visibility.js';

function provenance(repo: string, visibility: Visibility, ref = '1'): Provenance {
  return {
    tenant: repo.split('/')[0]!.toLowerCase(),
    repo,
    visibility,
    sourceKind: 'pull_request',
    ref,
    authors: ['a'],
    date: '2026-01-01T00:00:00Z',
  };
}

function memory(source: Visibility, over: Partial<Memory> = {}): Memory {
  return {
    id: 'm0000000001',
    tenant: 'acme',
    level: 'insight',
    title: 't',
    description: 'd',
    content: 'c',
    body: { level: 'insight', insight: { title: 't', description: 'd', content: 'c' } },
    tags: [],
    evidence: [],
    provenance: [provenance('acme/source', source)],
    visibility: source,
    status: 'active',
    votes: { up: 0, down: 0 },
    support: 1,
    uses: 0,
    outcomes: { success: 0, failure: 0 },
    model: 'rules@1',
    writer: 'rules',
    lesson: null,
    routines: [],
    facet: null,
    examples: [],
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    ...over,
  };
}

const RANK = { public: 0, internal: 1, private: 2 };
const reader = (visibility: Visibility, tenant = 'acme'): Requester => ({
  tenant,
  repo: `${tenant}/reader`,
  visibility,
});

describe('the visibility matrix: source × reader', () => {
  for (const source of VISIBILITIES) {
    for (const target of VISIBILITIES) {
      const allowed = RANK[target] >= RANK[source];
      it(`${source} knowledge ${allowed ? 'flows' : 'never flows'} to a ${target} repository of the same org`, () => {
        expect(flowsTo(source, target)).toBe(allowed);
        expect(maySee(memory(source), reader(target))).toBe(allowed);
        expect(mayLinkSource({ repo: 'acme/source', visibility: source }, reader(target))).toBe(allowed);
      });
      it(`${source} knowledge never reaches a ${target} repository of another org, even shared wider`, () => {
        expect(maySee(memory(source), reader(target, 'other'))).toBe(false);
        expect(maySee(memory(source, { sharedWiderBy: 'admin' }), reader(target, 'other'))).toBe(false);
        expect(mayLinkSource({ repo: 'acme/source', visibility: source }, reader(target, 'other'))).toBe(false);
      });
    }
  }
});

describe('maySee fails closed', () => {
  it('compares tenants case-insensitively but never mixes them', () => {
    expect(maySee(memory('public'), { tenant: 'ACME', repo: 'ACME/x', visibility: 'public' })).toBe(true);
    expect(maySee(memory('public'), { tenant: 'acme-evil', repo: 'acme-evil/x', visibility: 'private' })).toBe(false);
    expect(maySee(memory('public'), { tenant: 'other' })).toBe(false);
  });

  it('a memory is as private as its most private source, whatever its visibility field says', () => {
    const merged = memory('public', { provenance: [provenance('acme/a', 'public'), provenance('acme/b', 'private')] });
    expect(effectiveVisibility(merged)).toBe('private');
    expect(maySee(merged, reader('public'))).toBe(false);
    expect(maySee(merged, reader('internal'))).toBe(false);
    expect(maySee(merged, reader('private'))).toBe(true);
  });

  it('an unknown visibility value is private as a source and public as a reader', () => {
    const odd = memory('public', { visibility: 'secret' as Visibility });
    expect(maySee(odd, reader('internal'))).toBe(false);
    expect(maySee(odd, reader('private'))).toBe(true);
    expect(maySee(memory('internal'), { tenant: 'acme', repo: 'acme/x', visibility: 'unknown' as Visibility })).toBe(
      false,
    );
    expect(mostPrivate(['public', 'bogus' as Visibility])).toBe('private');
    expect(mostPrivate([])).toBe('private');
  });

  it('a requester in a repository with no known visibility reads as public', () => {
    expect(maySee(memory('internal'), { tenant: 'acme', repo: 'acme/x' })).toBe(false);
    expect(maySee(memory('public'), { tenant: 'acme', repo: 'acme/x' })).toBe(true);
  });

  it('a local admin (no repository) sees every visibility of its own tenant', () => {
    expect(maySee(memory('private'), { tenant: 'acme' })).toBe(true);
  });

  it('shows only active memories unless asked for other statuses', () => {
    for (const status of ['proposed', 'rejected', 'archived'] as const) {
      expect(maySee(memory('public', { status }), reader('private'))).toBe(false);
      expect(maySee(memory('public', { status }), { ...reader('private'), statuses: [status] })).toBe(true);
    }
  });

  it('shared wider reaches less private repositories of the same org only', () => {
    const shared = memory('private', { sharedWiderBy: 'admin' });
    expect(maySee(shared, reader('public'))).toBe(true);
    expect(maySee(shared, reader('public', 'other'))).toBe(false);
  });

  it('a provenance entry of another tenant makes the memory unreadable to repositories', () => {
    const mixed = memory('public', {
      provenance: [provenance('acme/a', 'public'), provenance('other/b', 'public')],
      sharedWiderBy: 'admin',
    });
    expect(maySee(mixed, reader('private'))).toBe(false);
  });
});

describe('mayLinkSource', () => {
  it('the source repository may always link to itself', () => {
    expect(
      mayLinkSource(
        { repo: 'acme/Source', visibility: 'private' },
        { tenant: 'acme', repo: 'acme/source', visibility: 'public' },
      ),
    ).toBe(true);
  });
});

describe('mayServeLevel: only insights leave their repository', () => {
  const home: Requester = { tenant: 'acme', repo: 'acme/source', visibility: 'private' };
  const away: Requester = { tenant: 'acme', repo: 'acme/other', visibility: 'private' };
  const concrete = ['summary', 'workflow', 'trajectory'] as const;

  it('serves an insight anywhere maySee allows, a concrete level only in the repository it came from', () => {
    expect(mayServeLevel(memory('public'), away)).toBe(true);
    for (const level of concrete) {
      const m = memory('public', { level });
      expect(mayServeLevel(m, home), level).toBe(true);
      expect(mayServeLevel(m, { ...home, repo: 'ACME/Source' }), level).toBe(true);
      expect(mayServeLevel(m, away), level).toBe(false);
      // a reader with a visibility and no repository is nobody's home; a local admin reads every level
      expect(mayServeLevel(m, { tenant: 'acme', visibility: 'private' }), level).toBe(false);
      expect(mayServeLevel(m, { tenant: 'acme' }), level).toBe(true);
    }
  });

  it('fails closed: a source in another repository, no source at all, or another repository id of the same name', () => {
    const merged = memory('public', {
      level: 'summary',
      provenance: [provenance('acme/source', 'public'), provenance('acme/other', 'public')],
    });
    expect(mayServeLevel(merged, home)).toBe(false);
    expect(mayServeLevel(memory('public', { level: 'trajectory', provenance: [] }), home)).toBe(false);
    const withId = memory('public', {
      level: 'workflow',
      provenance: [{ ...provenance('acme/source', 'public'), repoId: 1 }],
    });
    expect(mayServeLevel(withId, { ...home, repoId: 1 })).toBe(true);
    expect(mayServeLevel(withId, { ...home, repoId: 2 })).toBe(false);
  });
});
