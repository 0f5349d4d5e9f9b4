/**
 * The Store contract: every implementation (SQLite, PostgreSQL) runs this same suite against a
 * real database. makeStore returns a fresh, migrated, empty store; reopen (optional) closes a store
 * and opens the same pool again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import type { Memory, MemoryLevel, Provenance } from '../../src/core/types.js';
import type { Store } from '../../src/store/store.js';
import { VECTOR_PAGE_ROWS } from '../../src/store/vector-cache.js';
import { cosine } from '../../src/core/text.js';

let counter = 0;

/** A complete memory with every optional field set; override what the test is about. */
export function makeMemory(overrides: Partial<Memory> = {}): Memory {
  counter++;
  const level: MemoryLevel = overrides.level ?? 'insight';
  const title = overrides.title ?? `Run the migration tests against a fresh database ${counter}`;
  const description = overrides.description ?? 'After changing a schema migration, verify it on an empty database.';
  const content =
    overrides.content ?? 'Apply every migration from scratch in CI and run the data-access tests afterwards.';
  const body: Memory['body'] =
    level === 'insight'
      ? { level, insight: { title, description, content } }
      : level === 'workflow'
        ? { level, workflow: { goal: title, steps: [content] } }
        : level === 'summary'
          ? { level, summary: { task_summary: title, experience_summary: content } }
          : { level, trajectory: { trace: content } };
  return {
    id: `m${String(counter).padStart(10, '0')}`,
    tenant: 'acme',
    level,
    title,
    description,
    content,
    body,
    tags: ['lang:typescript', 'check:unit', 'routine:migration'],
    // an identity of every kind of value, so each column is seen to round-trip
    lesson: 'learned-schema-drift',
    routines: ['data-migration', 'config-env'],
    facet: 'data-migration/schema',
    examples: ['renamed column breaks the old reader', 'a default value applied twice'],
    evidence: ['tests changed in the same change', 'check `unit` failed then passed'],
    provenance: [
      {
        tenant: 'acme',
        repo: 'acme/api',
        repoId: 42,
        visibility: 'private',
        sourceKind: 'pull_request',
        ref: '17',
        url: 'https://github.com/acme/api/pull/17',
        authors: ['octocat'],
        date: '2026-01-02T03:04:05.000Z',
      },
    ],
    visibility: 'private',
    sharedWiderBy: 'admin',
    status: 'active',
    votes: { up: 2, down: 1 },
    support: 3,
    uses: 4,
    outcomes: { success: 5, failure: 6 },
    model: 'rules@1',
    writer: 'learned',
    createdAt: '2026-01-02T03:04:05.000Z',
    updatedAt: '2026-01-03T03:04:05.000Z',
    lastUsedAt: '2026-01-04T03:04:05.000Z',
    ...overrides,
  };
}

/** deterministic pseudo-random numbers in [0, 1) (tests must not depend on Math.random) */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** a unit-ish vector pointing mostly along axis `axis`, with a small tilt along `tilt` */
export function axisVector(dims: number, axis: number, tilt = 0, tiltAxis = (axis + 1) % dims): Float32Array {
  const v = new Float32Array(dims);
  v[axis] = 1;
  v[tiltAxis] = (v[tiltAxis] ?? 0) + tilt;
  return v;
}

export function runStoreContract(
  name: string,
  makeStore: () => Promise<Store>,
  reopen?: (store: Store) => Promise<Store>,
): void {
  describe(`Store contract: ${name}`, () => {
    const open: Store[] = [];
    async function fresh(): Promise<Store> {
      const store = await makeStore();
      open.push(store);
      return store;
    }
    afterEach(async () => {
      await Promise.all(open.splice(0).map((s) => s.close().catch(() => undefined)));
    });

    describe('memories', () => {
      it('stores a memory and gives it back field for field', async () => {
        const store = await fresh();
        const memory = makeMemory();
        await store.putMemory(memory);
        expect(await store.getMemory('acme', memory.id)).toEqual(memory);
      });

      it('keeps optional fields absent when they were absent', async () => {
        const store = await fresh();
        const { sharedWiderBy: _s, lastUsedAt: _l, ...rest } = makeMemory();
        await store.putMemory(rest);
        const back = await store.getMemory('acme', rest.id);
        expect(back).toEqual(rest);
        expect(back && 'sharedWiderBy' in back).toBe(false);
      });

      it('replaces a memory put again under the same id, and searches the new text only', async () => {
        const store = await fresh();
        const memory = makeMemory({ title: 'Check timezone offsets in date parsing' });
        await store.putMemory(memory);
        await store.putMemory({ ...memory, title: 'Quote shell arguments in scripts', status: 'archived' });
        const back = await store.getMemory('acme', memory.id);
        expect(back?.title).toBe('Quote shell arguments in scripts');
        expect(back?.status).toBe('archived');
        expect(await store.countMemories('acme')).toBe(1);
        expect(await store.searchLexical('acme', 'timezone offsets', { limit: 5 })).toEqual([]);
        expect((await store.searchLexical('acme', 'shell arguments', { limit: 5 })).map((h) => h.id)).toEqual([
          memory.id,
        ]);
      });

      it('keeps a memory searchable through status, vote, provenance and level changes', async () => {
        const store = await fresh();
        const memory = makeMemory({ title: 'Pin the toolchain version in CI' });
        await store.putMemory(memory);
        await store.putMemory({ ...memory, status: 'proposed', votes: { up: 9, down: 0 } });
        const search = (level: MemoryLevel) => store.searchLexical('acme', 'toolchain', { limit: 5, level: [level] });
        expect((await search('insight')).map((h) => h.id)).toEqual([memory.id]);
        const moved = { ...memory, provenance: [...memory.provenance, { ...memory.provenance[0]!, repo: 'acme/cli' }] };
        await store.putMemory(moved);
        expect((await store.listMemories('acme', { repo: 'acme/cli' })).map((m) => m.id)).toEqual([memory.id]);
        await store.putMemory({ ...moved, level: 'workflow' });
        expect(await search('insight')).toEqual([]);
        expect((await search('workflow')).map((h) => h.id)).toEqual([memory.id]);
      });

      it('returns memories by ids in the order asked, skipping unknown ids', async () => {
        const store = await fresh();
        const a = makeMemory();
        const b = makeMemory();
        await store.putMemory(a);
        await store.putMemory(b);
        const got = await store.getMemories('acme', [b.id, 'm-unknown', a.id]);
        expect(got.map((m) => m.id)).toEqual([b.id, a.id]);
        expect(await store.getMemories('acme', [])).toEqual([]);
      });

      it('lists and counts with status, level and repository filters, newest first, with paging', async () => {
        const store = await fresh();
        const a = makeMemory({ status: 'active', updatedAt: '2026-02-01T00:00:00.000Z' });
        const b = makeMemory({ status: 'proposed', updatedAt: '2026-02-03T00:00:00.000Z' });
        const c = makeMemory({
          level: 'workflow',
          updatedAt: '2026-02-02T00:00:00.000Z',
          provenance: [{ ...makeMemory().provenance[0]!, repo: 'Acme/Web' }],
        });
        for (const m of [a, b, c]) await store.putMemory(m);
        expect((await store.listMemories('acme')).map((m) => m.id)).toEqual([b.id, c.id, a.id]);
        expect((await store.listMemories('acme', { status: ['active'] })).map((m) => m.id)).toEqual([c.id, a.id]);
        expect((await store.listMemories('acme', { level: ['workflow'] })).map((m) => m.id)).toEqual([c.id]);
        expect((await store.listMemories('acme', { repo: 'acme/web' })).map((m) => m.id)).toEqual([c.id]);
        expect(
          (await store.listMemories('acme', { repo: 'acme/api', status: ['active', 'proposed'] })).map((m) => m.id),
        ).toEqual([b.id, a.id]);
        expect((await store.listMemories('acme', { limit: 1, offset: 1 })).map((m) => m.id)).toEqual([c.id]);
        expect(await store.countMemories('acme')).toBe(3);
        expect(await store.countMemories('acme', { status: ['proposed'] })).toBe(1);
        expect(await store.countMemories('acme', { level: ['insight'], status: ['active'] })).toBe(1);
        expect(await store.countMemories('acme', { repo: 'acme/nothing' })).toBe(0);
      });

      it('lists the memories of some levels that have no vector of a model, oldest first, in one tenant', async () => {
        const store = await fresh();
        const [first, second, third] = [makeMemory(), makeMemory(), makeMemory()];
        const workflow = makeMemory({ level: 'workflow' });
        const theirs = makeMemory({ tenant: 'other' });
        for (const memory of [first!, second!, third!, workflow, theirs]) await store.putMemory(memory);
        await store.putVector('acme', second!.id, axisVector(4, 0), 'emb');
        await store.putVector('acme', third!.id, axisVector(4, 1), 'old-model');
        expect(await store.listIdsWithoutVector('acme', 'emb', ['insight'])).toEqual([first!.id, third!.id]);
        expect(await store.listIdsWithoutVector('acme', 'emb', ['insight', 'workflow'])).toEqual([
          first!.id,
          third!.id,
          workflow.id,
        ]);
        expect(await store.listIdsWithoutVector('acme', 'old-model', ['insight'])).toEqual([first!.id, second!.id]);
      });

      it('deletes a memory with its full-text entry and vector', async () => {
        const store = await fresh();
        const memory = makeMemory({ title: 'Reproduce the race with a stress test' });
        const other = makeMemory({ title: 'Unrelated' });
        await store.putMemory(memory);
        await store.putMemory(other);
        await store.putVector('acme', memory.id, axisVector(8, 0), 'emb');
        await store.putVector('acme', other.id, axisVector(8, 3), 'emb');
        expect((await store.searchVector('acme', axisVector(8, 0), 'emb', { limit: 1 }))[0]?.id).toBe(memory.id);
        expect(await store.deleteMemory('acme', memory.id)).toBe(true);
        expect(await store.getMemory('acme', memory.id)).toBeUndefined();
        expect(await store.searchLexical('acme', 'race stress', { limit: 5 })).toEqual([]);
        const hits = await store.searchVector('acme', axisVector(8, 0), 'emb', { limit: 5 });
        expect(hits.map((h) => h.id)).toEqual([other.id]);
        expect(await store.deleteMemory('acme', memory.id)).toBe(false);
      });

      it('lists every tenant that has data', async () => {
        const store = await fresh();
        await store.putMemory(makeMemory({ tenant: 'beta' }));
        await store.markFixLearned('gamma', 'gamma/x', '1');
        await store.putMemory(makeMemory({ tenant: 'acme' }));
        expect(await store.listTenants()).toEqual(['acme', 'beta', 'gamma']);
      });
    });

    describe('provenance (its own table; a bounded sample on the memory row)', () => {
      /** 12 entries over 6 repositories, some repeated, mixed case */
      function sources(): Provenance[] {
        const repos = [
          'acme/api',
          'acme/web',
          'ACME/api',
          'acme/cli',
          'acme/docs',
          'acme/web',
          'acme/auth',
          'acme/queue',
        ];
        return Array.from({ length: 12 }, (_, i) => ({
          tenant: 'acme',
          repo: repos[i % repos.length] as string,
          visibility: i === 7 ? ('private' as const) : ('public' as const),
          sourceKind: 'pull_request' as const,
          ref: String(100 + i),
          url: `https://github.com/${repos[i % repos.length]}/pull/${100 + i}`,
          authors: [`dev${i}`],
          date: `2026-01-${String(i + 1).padStart(2, '0')}T00:00:00.000Z`,
        }));
      }

      it('gives the whole provenance back in order, and a sample of it (first of each repository, five at most) with the count', async () => {
        const store = await fresh();
        const memory = makeMemory({ provenance: sources(), visibility: 'private' });
        await store.putMemory(memory);
        expect(await store.getMemory('acme', memory.id)).toEqual(memory);
        expect(await store.getMemories('acme', [memory.id])).toEqual([memory]);
        expect(await store.listMemories('acme')).toEqual([memory]);
        const sampled = await store.getMemory('acme', memory.id, { provenance: 'sample' });
        expect(sampled?.provenanceCount).toBe(12);
        expect(sampled?.provenance.map((p) => `${p.repo}#${p.ref}`)).toEqual([
          'acme/api#100',
          'acme/web#101',
          'acme/cli#103',
          'acme/docs#104',
          'acme/auth#106',
        ]);
        expect(await store.getMemories('acme', [memory.id], { provenance: 'sample' })).toEqual([sampled]);
        if (store.readMemories) expect(await store.readMemories('acme', [memory.id])).toEqual([sampled]);
        // the repository filter sees every source, also those past the sample
        expect((await store.listMemories('acme', { repo: 'acme/queue' })).map((m) => m.id)).toEqual([memory.id]);
        expect((await store.stats('acme')).repos).toBe(6);
      });

      it('appends one source to a stored memory; the same repository (any case) and ref is refused; an unknown memory is not found', async () => {
        const store = await fresh();
        const memory = makeMemory({ provenance: sources().slice(0, 2) });
        await store.putMemory(memory);
        const extra: Provenance = { ...sources()[0]!, repo: 'acme/new', ref: '900', visibility: 'internal' };
        expect(await store.appendProvenance('acme', memory.id, extra)).toBe(true);
        expect(await store.appendProvenance('acme', memory.id, { ...extra, repo: 'ACME/New' })).toBe(false);
        expect(await store.appendProvenance('acme', memory.id, { ...sources()[1]!, url: 'https://x' })).toBe(false);
        expect((await store.getMemory('acme', memory.id))?.provenance).toEqual([...memory.provenance, extra]);
        const sampled = await store.getMemory('acme', memory.id, { provenance: 'sample' });
        expect(sampled?.provenanceCount).toBe(3);
        expect(sampled?.provenance).toEqual([...memory.provenance, extra]);
        expect((await store.listMemories('acme', { repo: 'acme/new' })).map((m) => m.id)).toEqual([memory.id]);
        const missing = await store.appendProvenance('acme', 'nope', extra).catch((e: unknown) => e);
        expect((missing as { code?: string }).code).toBe('not-found');
        // another tenant's memory of the same id is not this one
        expect(await store.appendProvenance('beta', memory.id, extra).catch((e: unknown) => e)).toMatchObject({
          code: 'not-found',
        });
      });

      it('a sampled memory put back keeps the stored provenance; a complete one replaces it', async () => {
        const store = await fresh();
        const memory = makeMemory({ provenance: sources() });
        await store.putMemory(memory);
        const sampled = (await store.getMemory('acme', memory.id, { provenance: 'sample' }))!;
        await store.putMemory({ ...sampled, support: 13, title: 'A new title for the routine' });
        const after = await store.getMemory('acme', memory.id);
        expect(after).toMatchObject({ support: 13, title: 'A new title for the routine' });
        expect(after?.provenance).toEqual(memory.provenance);
        // a source revoked: the complete list written again
        const rest = memory.provenance.filter((p) => p.repo.toLowerCase() !== 'acme/api');
        await store.putMemory({ ...after!, provenance: rest });
        expect((await store.getMemory('acme', memory.id))?.provenance).toEqual(rest);
        expect(await store.listMemories('acme', { repo: 'acme/api' })).toEqual([]);
        const sample = await store.getMemory('acme', memory.id, { provenance: 'sample' });
        expect(sample?.provenanceCount).toBe(rest.length);
        expect(sample?.provenance[0]).toEqual(rest[0]);
      });

      it('rolls an append back with the transaction it ran in', async () => {
        const store = await fresh();
        const memory = makeMemory();
        await store.putMemory(memory);
        const extra: Provenance = { ...memory.provenance[0]!, repo: 'acme/web', ref: '5' };
        await expect(
          store.tenantTransaction('acme', async () => {
            await store.appendProvenance('acme', memory.id, extra);
            await store.putMemory({ ...memory, support: 99 });
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
        expect(await store.getMemory('acme', memory.id)).toEqual(memory);
        expect((await store.getMemory('acme', memory.id, { provenance: 'sample' }))?.provenanceCount).toBe(1);
        expect(await store.listMemories('acme', { repo: 'acme/web' })).toEqual([]);
      });

      it('deletes a memory with its provenance', async () => {
        const store = await fresh();
        const memory = makeMemory({ provenance: sources() });
        await store.putMemory(memory);
        expect(await store.deleteMemory('acme', memory.id)).toBe(true);
        // a new memory under the same id starts with its own sources only
        const again = makeMemory({ id: memory.id });
        await store.putMemory(again);
        expect(await store.getMemory('acme', memory.id)).toEqual(again);
      });
    });

    it('can be closed twice', async () => {
      const store = await makeStore();
      await store.close();
      await expect(store.close()).resolves.toBeUndefined();
    });

    describe('tenant isolation', () => {
      it('never returns, counts, searches or deletes another tenant’s data', async () => {
        const store = await fresh();
        const mine = makeMemory({ tenant: 'acme', title: 'Validate empty input in parsers' });
        const theirs = { ...mine, tenant: 'other', title: 'Validate empty input in parsers too' };
        await store.putMemory(mine);
        await store.putMemory(theirs);
        await store.putVector('other', theirs.id, axisVector(4, 1), 'emb');

        expect((await store.getMemory('acme', mine.id))?.title).toBe(mine.title);
        expect((await store.getMemory('other', mine.id))?.title).toBe(theirs.title);
        expect(await store.getMemory('nobody', mine.id)).toBeUndefined();
        expect(await store.getMemories('nobody', [mine.id])).toEqual([]);
        expect(await store.listMemories('nobody')).toEqual([]);
        expect(await store.countMemories('nobody')).toBe(0);
        expect(await store.searchLexical('nobody', 'empty input parsers', { limit: 5 })).toEqual([]);
        expect(await store.searchVector('acme', axisVector(4, 1), 'emb', { limit: 5 })).toEqual([]);
        expect(await store.searchVector('nobody', axisVector(4, 1), 'emb', { limit: 5 })).toEqual([]);
        expect((await store.stats('nobody')).memories).toBe(0);

        expect(await store.deleteMemory('acme', mine.id)).toBe(true);
        expect(await store.getMemory('other', mine.id)).toBeDefined();
        expect((await store.searchLexical('other', 'empty input parsers', { limit: 5 })).map((h) => h.id)).toEqual([
          mine.id,
        ]);
        expect((await store.searchVector('other', axisVector(4, 1), 'emb', { limit: 5 })).map((h) => h.id)).toEqual([
          mine.id,
        ]);

        await store.markFixLearned('acme', 'acme/api', '7');
        expect(await store.isFixLearned('other', 'acme/api', '7')).toBe(false);
        await store.appendAudit({
          tenant: 'acme',
          actor: 'a',
          action: 'approve',
          memoryId: mine.id,
          at: '2026-01-01T00:00:00.000Z',
        });
        expect(await store.listAudit('other')).toEqual([]);
        await store.recordUsage({
          tenant: 'acme',
          memoryId: mine.id,
          repo: 'acme/web',
          runRef: 'run-1',
          at: '2026-01-01T00:00:00.000Z',
        });
        expect(await store.listUsage('other', 'run-1')).toEqual([]);
        expect((await store.stats('other')).fixes).toBe(0);
      });
    });

    describe('lexical search', () => {
      it('ranks the more relevant memory first, with positive scores', async () => {
        const store = await fresh();
        const strong = makeMemory({
          title: 'Timezone bugs in date parsing',
          description: 'Date parsing breaks across timezone offsets.',
          content: 'Add tests that parse dates with positive and negative timezone offsets.',
          tags: ['failure:timezone'],
        });
        const weak = makeMemory({
          title: 'Run the linter before committing',
          description: 'Style checks catch mistakes early.',
          content: 'Some date formatting code was also touched.',
          tags: ['check:lint'],
        });
        const none = makeMemory({
          title: 'Lock files',
          description: 'Keep the lockfile in step.',
          content: 'Regenerate it.',
          tags: [],
        });
        for (const m of [weak, none, strong]) await store.putMemory(m);
        const hits = await store.searchLexical('acme', 'date parsing breaks for users in UTC+13 timezone', {
          limit: 5,
        });
        expect(hits.map((h) => h.id)).toEqual([strong.id, weak.id]);
        expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
        expect(hits.every((h) => h.score > 0)).toBe(true);
      });

      it('matches word forms (stemming) and tags', async () => {
        const store = await fresh();
        const m = makeMemory({ title: 'Parsers need tests', description: 'x', content: 'y', tags: ['tool:pytest'] });
        await store.putMemory(m);
        expect((await store.searchLexical('acme', 'parser testing', { limit: 5 })).map((h) => h.id)).toEqual([m.id]);
        expect((await store.searchLexical('acme', 'pytest', { limit: 5 })).map((h) => h.id)).toEqual([m.id]);
      });

      it('filters by level and status, and honours the limit', async () => {
        const store = await fresh();
        const active = makeMemory({ title: 'flaky retry logic', status: 'active' });
        const proposed = makeMemory({ title: 'flaky retry logic again', status: 'proposed' });
        const workflow = makeMemory({ title: 'flaky retry logic workflow', level: 'workflow' });
        for (const m of [active, proposed, workflow]) await store.putMemory(m);
        const ids = async (o: Parameters<Store['searchLexical']>[2]) =>
          (await store.searchLexical('acme', 'flaky retry', o)).map((h) => h.id).sort();
        expect(await ids({ limit: 10, status: ['active'], level: ['insight'] })).toEqual([active.id]);
        expect(await ids({ limit: 10, status: ['proposed'] })).toEqual([proposed.id]);
        expect(await ids({ limit: 10, level: ['workflow'] })).toEqual([workflow.id]);
        expect(await ids({ limit: 10 })).toEqual([active.id, proposed.id, workflow.id].sort());
        expect(await store.searchLexical('acme', 'flaky retry', { limit: 2 })).toHaveLength(2);
        expect(await store.searchLexical('acme', 'flaky retry', { limit: 0 })).toEqual([]);
      });

      it('treats hostile query text as plain words and never throws', async () => {
        const store = await fresh();
        const m = makeMemory({ title: 'NEAR the boundary: title OR content' });
        await store.putMemory(m);
        const hostile = [
          '"NEAR( OR *',
          'title:secret',
          'AND OR NOT',
          '^*"()-+:\'',
          "'); DROP TABLE memories; --",
          '\u0000\u202e zero\u200bwidth',
          'a'.repeat(10_000),
          'x '.repeat(5_000),
          '@@ !! && || <-> :*',
        ];
        for (const q of hostile) {
          await expect(store.searchLexical('acme', q, { limit: 5 })).resolves.toBeInstanceOf(Array);
        }
        expect((await store.searchLexical('acme', 'boundary NEAR(', { limit: 5 })).map((h) => h.id)).toEqual([m.id]);
        expect(await store.countMemories('acme')).toBe(1);
      });

      it('in a large pool, finds the memories with the rare words of a query first', async () => {
        const store = await fresh();
        const rare: string[] = [];
        await store.transaction(async () => {
          for (let i = 0; i < 1200; i++) {
            const special = i % 400 === 7;
            const m = makeMemory({
              id: `bulk${i}`,
              title: `Run the tests after changing code ${special ? 'kerberos ticket renewal' : `area${i % 50}`}`,
              description: 'Verify the change with the existing test suite before merging.',
              content: `Tests catch regressions early; run them in CI on every change (${i}).`,
            });
            if (special) rare.push(m.id);
            await store.putMemory(m);
          }
        });
        const hits = await store.searchLexical('acme', 'tests fail after kerberos renewal change', {
          limit: 5,
          status: ['active'],
        });
        expect(
          hits
            .slice(0, 3)
            .map((h) => h.id)
            .sort(),
        ).toEqual(rare.sort());
        expect((await store.searchLexical('acme', 'run tests change', { limit: 5 })).length).toBe(5);
      });

      it('returns nothing for an empty or stop-word-only query', async () => {
        const store = await fresh();
        await store.putMemory(makeMemory({ title: 'the and of it' }));
        expect(await store.searchLexical('acme', '', { limit: 5 })).toEqual([]);
        expect(await store.searchLexical('acme', '   ', { limit: 5 })).toEqual([]);
        expect(await store.searchLexical('acme', 'the and of it', { limit: 5 })).toEqual([]);
        expect(await store.searchLexical('acme', '!!! ???', { limit: 5 })).toEqual([]);
      });
    });

    describe('vector search', () => {
      it('ranks by cosine similarity within one model, with level and status filters', async () => {
        const store = await fresh();
        const near = makeMemory();
        const mid = makeMemory();
        const far = makeMemory({ status: 'proposed' });
        const workflow = makeMemory({ level: 'workflow' });
        for (const m of [near, mid, far, workflow]) await store.putMemory(m);
        await store.putVector('acme', near.id, axisVector(16, 0, 0.1), 'small');
        await store.putVector('acme', mid.id, axisVector(16, 0, 1), 'small');
        await store.putVector('acme', far.id, axisVector(16, 0, 0.01), 'small');
        await store.putVector('acme', workflow.id, axisVector(16, 0, 0), 'small');
        await store.putVector('acme', mid.id, axisVector(16, 5), 'other-model');

        const hits = await store.searchVector('acme', axisVector(16, 0), 'small', {
          limit: 10,
          status: ['active'],
          level: ['insight'],
        });
        expect(hits.map((h) => h.id)).toEqual([near.id, mid.id]);
        expect(hits[0]!.score).toBeCloseTo(1 / Math.sqrt(1.01), 5);
        expect(hits[1]!.score).toBeCloseTo(1 / Math.sqrt(2), 5);
        const all = await store.searchVector('acme', axisVector(16, 0), 'small', { limit: 2 });
        expect(all.map((h) => h.id)).toEqual([workflow.id, far.id]);
        const other = await store.searchVector('acme', axisVector(16, 5), 'other-model', { limit: 10 });
        expect(other.map((h) => h.id)).toEqual([mid.id]);
        expect(await store.searchVector('acme', axisVector(16, 0), 'unknown-model', { limit: 10 })).toEqual([]);
      });

      it('loads more than a page of stored vectors and finds what exact cosine finds (recall@60 ≥ 0.95)', async () => {
        const store = await fresh();
        const dims = 32;
        const count = VECTOR_PAGE_ROWS + 300;
        const next = seeded(11);
        const gauss = () => Math.sqrt(-2 * Math.log(next() + 1e-12)) * Math.cos(2 * Math.PI * next());
        const stored: { id: string; vector: Float32Array }[] = [];
        await store.transaction(async () => {
          for (let i = 0; i < count; i++) {
            const memory = makeMemory({ status: i % 10 === 0 ? 'proposed' : 'active' });
            const vector = Float32Array.from({ length: dims }, gauss);
            await store.putMemory(memory);
            await store.putVector('acme', memory.id, vector, 'emb');
            if (i % 10 !== 0) stored.push({ id: memory.id, vector });
          }
        });
        let found = 0;
        let wanted = 0;
        for (let q = 0; q < 10; q++) {
          const query = Float32Array.from({ length: dims }, gauss);
          const exact = stored
            .map((s) => ({ id: s.id, score: cosine(s.vector, query) }))
            .sort((a, b) => b.score - a.score)
            .slice(0, 60)
            .map((h) => h.id);
          const hits = await store.searchVector('acme', query, 'emb', { limit: 60, status: ['active'] });
          const got = new Set(hits.map((h) => h.id));
          wanted += exact.length;
          found += exact.filter((id) => got.has(id)).length;
          expect(hits[0]!.score).toBeCloseTo(cosine(stored.find((s) => s.id === hits[0]!.id)!.vector, query), 5);
        }
        expect(found / wanted).toBeGreaterThanOrEqual(0.95);
      }, 60_000);

      it('sees vectors and status changes written after the first search', async () => {
        const store = await fresh();
        const a = makeMemory();
        const b = makeMemory();
        await store.putMemory(a);
        await store.putMemory(b);
        await store.putVector('acme', a.id, axisVector(8, 0), 'emb');
        expect((await store.searchVector('acme', axisVector(8, 1), 'emb', { limit: 1 }))[0]?.id).toBe(a.id);
        await store.putVector('acme', b.id, axisVector(8, 1), 'emb');
        expect((await store.searchVector('acme', axisVector(8, 1), 'emb', { limit: 1 }))[0]?.id).toBe(b.id);
        await store.putMemory({ ...b, status: 'rejected' });
        expect(
          (await store.searchVector('acme', axisVector(8, 1), 'emb', { limit: 1, status: ['active'] }))[0]?.id,
        ).toBe(a.id);
        await store.putVector('acme', a.id, axisVector(8, 2), 'emb');
        expect((await store.searchVector('acme', axisVector(8, 2), 'emb', { limit: 1 }))[0]?.id).toBe(a.id);
      });

      it('refuses a query of the wrong dimension and a vector for an unknown memory', async () => {
        const store = await fresh();
        const a = makeMemory();
        await store.putMemory(a);
        await store.putVector('acme', a.id, axisVector(8, 0), 'emb');
        await expect(store.searchVector('acme', axisVector(4, 0), 'emb', { limit: 1 })).rejects.toBeInstanceOf(
          InputError,
        );
        await expect(store.putVector('acme', 'm-missing', axisVector(8, 0), 'emb')).rejects.toThrow(/m-missing/);
      });
    });

    describe('transactions', () => {
      it('rolls back every write of a failed transaction, including its full-text and vector entries', async () => {
        const store = await fresh();
        const kept = makeMemory({ title: 'kept insight' });
        const lost = makeMemory({ title: 'rolled back insight' });
        await store.putMemory(kept);
        await store.putVector('acme', kept.id, axisVector(4, 0), 'emb');
        await store.searchVector('acme', axisVector(4, 0), 'emb', { limit: 1 });
        await expect(
          store.transaction(async () => {
            await store.putMemory(lost);
            await store.putVector('acme', lost.id, axisVector(4, 1), 'emb');
            await store.transaction(() => store.markFixLearned('acme', 'acme/api', '9'));
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
        expect(await store.getMemory('acme', lost.id)).toBeUndefined();
        expect(await store.isFixLearned('acme', 'acme/api', '9')).toBe(false);
        expect((await store.searchLexical('acme', 'rolled back insight', { limit: 5 })).map((h) => h.id)).toEqual([
          kept.id,
        ]);
        expect((await store.searchVector('acme', axisVector(4, 1), 'emb', { limit: 5 })).map((h) => h.id)).toEqual([
          kept.id,
        ]);
      });

      it('keeps concurrent transactions apart: one failing does not undo the other', async () => {
        const store = await fresh();
        const a = makeMemory();
        const b = makeMemory();
        const slow = (ms: number) => new Promise((r) => setTimeout(r, ms));
        const ok = store.transaction(async () => {
          await store.putMemory(a);
          await slow(20);
          await store.setState('k', 'from-a');
          return 'a';
        });
        const bad = store.transaction(async () => {
          await store.putMemory(b);
          await slow(5);
          throw new Error('b failed');
        });
        const outside = store.setState('outside', 'yes');
        const [okResult, badResult] = await Promise.allSettled([ok, bad, outside]);
        expect(okResult).toEqual({ status: 'fulfilled', value: 'a' });
        expect(badResult.status).toBe('rejected');
        expect(await store.getMemory('acme', a.id)).toBeDefined();
        expect(await store.getMemory('acme', b.id)).toBeUndefined();
        expect(await store.getState('k')).toBe('from-a');
        expect(await store.getState('outside')).toBe('yes');
      });

      it('returns the value of fn and joins nested transactions', async () => {
        const store = await fresh();
        const value = await store.transaction(async () => {
          await store.setState('outer', '1');
          return store.transaction(async () => {
            await store.setState('inner', '2');
            return 42;
          });
        });
        expect(value).toBe(42);
        expect(await store.getState('inner')).toBe('2');
      });
    });

    describe('fixes learned', () => {
      it('records a fix once, case-insensitively by repository, and forgets by ref or by repository', async () => {
        const store = await fresh();
        expect(await store.markFixLearned('acme', 'Acme/API', 'abc123')).toBe(true);
        expect(await store.markFixLearned('acme', 'acme/api', 'abc123')).toBe(false);
        await store.markFixLearned('acme', 'acme/api', 'def456');
        await store.markFixLearned('acme', 'acme/web', '1');
        expect(await store.isFixLearned('acme', 'acme/Api', 'abc123')).toBe(true);
        await store.unmarkFix('acme', 'acme/api', 'abc123');
        expect(await store.isFixLearned('acme', 'acme/api', 'abc123')).toBe(false);
        expect(await store.isFixLearned('acme', 'acme/api', 'def456')).toBe(true);
        await store.unmarkFix('acme', 'ACME/api');
        expect(await store.isFixLearned('acme', 'acme/api', 'def456')).toBe(false);
        expect(await store.isFixLearned('acme', 'acme/web', '1')).toBe(true);
      });

      it('records a fix learned by fallback with its reason, and clears it when the fix is learned again by the model', async () => {
        const store = await fresh();
        expect(await store.learnedFix('acme', 'acme/api', '7')).toBeUndefined();
        expect(await store.markFixLearned('acme', 'acme/api', '7', { fallback: 'timeout' })).toBe(true);
        expect(await store.learnedFix('acme', 'Acme/API', '7')).toEqual({ fallback: 'timeout' });
        expect(await store.isFixLearned('acme', 'acme/api', '7')).toBe(true);
        // without `how` (an import), the record is left as it is
        expect(await store.markFixLearned('acme', 'acme/api', '7')).toBe(false);
        expect(await store.learnedFix('acme', 'acme/api', '7')).toEqual({ fallback: 'timeout' });
        // learned again, by the model
        expect(await store.markFixLearned('acme', 'acme/api', '7', {})).toBe(false);
        expect(await store.learnedFix('acme', 'acme/api', '7')).toEqual({});
        // a rename keeps the reason
        await store.markFixLearned('acme', 'acme/api', '8', { fallback: 'circuit open' });
        await store.renameFixRepo('acme', 'acme/api', 'acme/server');
        expect(await store.learnedFix('acme', 'acme/server', '8')).toEqual({ fallback: 'circuit open' });
        expect(await store.learnedFix('other', 'acme/server', '8')).toBeUndefined();
      });

      it('moves learned fixes to a renamed repository, keeping one row when both names had it', async () => {
        const store = await fresh();
        await store.markFixLearned('acme', 'acme/old', '1');
        await store.markFixLearned('acme', 'acme/old', '2');
        await store.markFixLearned('acme', 'acme/new', '2');
        await store.markFixLearned('other', 'acme/old', '3');
        expect(await store.renameFixRepo('acme', 'Acme/Old', 'acme/NEW')).toBe(1);
        expect(await store.isFixLearned('acme', 'acme/new', '1')).toBe(true);
        expect(await store.isFixLearned('acme', 'acme/new', '2')).toBe(true);
        expect(await store.isFixLearned('acme', 'acme/old', '1')).toBe(false);
        expect(await store.isFixLearned('other', 'acme/old', '3')).toBe(true);
        expect((await store.stats('acme')).fixes).toBe(2);
        expect(await store.renameFixRepo('acme', 'acme/new', 'acme/new')).toBe(0);
      });
    });

    describe('durable jobs', () => {
      const t = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();

      it('ignores a second job with the same key, even after it is done', async () => {
        const store = await fresh();
        expect(await store.enqueueJob({ key: 'delivery-1', kind: 'learn', payload: { pr: 1 } })).toBe(true);
        expect(await store.enqueueJob({ key: 'delivery-1', kind: 'learn', payload: { pr: 2 } })).toBe(false);
        const job = await store.claimJob(t(0), t(5));
        expect(job).toMatchObject({ key: 'delivery-1', kind: 'learn', payload: { pr: 1 }, attempts: 1 });
        await store.completeJob(job!.id);
        expect(await store.enqueueJob({ key: 'delivery-1', kind: 'learn', payload: {} })).toBe(false);
        expect(await store.countJobs('done')).toBe(1);
        expect(await store.countJobs('pending')).toBe(0);
        expect(await store.claimJob(t(10), t(15))).toBeUndefined();
      });

      it('a renewed lease keeps the job; a claim that lost it can neither renew, complete nor fail it', async () => {
        const store = await fresh();
        await store.enqueueJob({ key: 'slow', kind: 'suggest', payload: {} });
        const first = await store.claimJob(t(0), t(5));
        // the heartbeat: renewed before it expired, nobody else may claim it
        expect(await store.renewJob(first!.id, first!.attempts, t(10))).toBe(true);
        expect(await store.claimJob(t(7), t(12))).toBeUndefined();
        // not renewed: expired, claimed again
        const second = await store.claimJob(t(11), t(20));
        expect(second).toMatchObject({ id: first!.id, attempts: 2 });
        expect(await store.renewJob(first!.id, first!.attempts, t(30))).toBe(false);
        expect(await store.completeJob(first!.id, first!.attempts)).toBe(false);
        expect(await store.failJob(first!.id, 'late', t(40), true, first!.attempts)).toBe(false);
        expect(await store.countJobs('pending')).toBe(1);
        expect(await store.completeJob(second!.id, second!.attempts)).toBe(true);
        expect(await store.countJobs('done')).toBe(1);
      });

      it('records many jobs in one write, ignoring keys already recorded or repeated in the batch', async () => {
        const store = await fresh();
        expect(await store.enqueueJobs([])).toEqual([]);
        await store.enqueueJob({ key: 'old', kind: 'x', payload: 0 });
        const added = await store.enqueueJobs([
          { key: 'a', kind: 'x', payload: { n: 1 } },
          { key: 'old', kind: 'x', payload: { n: 2 } },
          { key: 'b', kind: 'y', payload: null, runAfter: t(30) },
          { key: 'a', kind: 'x', payload: { n: 3 } },
        ]);
        expect(added).toEqual([true, false, true, false]);
        expect(await store.countJobs('pending')).toBe(3);
        const claimed = [await store.claimJob(t(0), t(5)), await store.claimJob(t(0), t(5))];
        expect(claimed.map((j) => j && [j.key, j.payload])).toEqual([
          ['old', 0],
          ['a', { n: 1 }],
        ]);
        for (const job of claimed) await store.completeJob(job!.id);
        expect(await store.claimJob(t(10), t(15))).toBeUndefined();
        expect((await store.claimJob(t(31), t(40)))?.key).toBe('b');
      });

      it('keeps the raw bytes recorded with a job exactly, in a single insert and in a batch', async () => {
        const store = await fresh();
        // bytes that are not UTF-8, a NUL, and a body larger than one page
        const body = Buffer.concat([Buffer.from([0xff, 0x00, 0xfe, 0x80]), Buffer.alloc(70_000, 0x7b)]);
        await store.enqueueJob({ key: 'one', kind: 'x', payload: { n: 1 }, body });
        await store.enqueueJobs([
          { key: 'two', kind: 'x', payload: { n: 2 }, body: new Uint8Array([1, 2, 3]) },
          { key: 'three', kind: 'x', payload: { n: 3 } },
        ]);
        const jobs = [
          await store.claimJob(t(0), t(5)),
          await store.claimJob(t(0), t(5)),
          await store.claimJob(t(0), t(5)),
        ];
        expect(jobs.map((j) => j?.key)).toEqual(['one', 'two', 'three']);
        expect(jobs[0]?.body?.equals(body)).toBe(true);
        expect([...(jobs[1]?.body ?? [])]).toEqual([1, 2, 3]);
        expect(jobs[2]?.body).toBeUndefined();
      });

      it('records a batch of several statements in the order given, a key repeated later keeping its first job', async () => {
        const store = await fresh();
        const jobs = Array.from({ length: 36 }, (_, i) => ({
          key: `k${i}`,
          kind: 'x',
          payload: i as unknown,
          body: Buffer.from([i]),
        }));
        jobs.push({ key: 'k3', kind: 'x', payload: 'again', body: Buffer.from([99]) });
        const added = await store.enqueueJobs(jobs);
        expect(added).toEqual([...jobs.slice(0, 36).map(() => true), false]);
        const claimed: [string, unknown, number | undefined][] = [];
        for (let job = await store.claimJob(t(0), t(5)); job; job = await store.claimJob(t(0), t(5)))
          claimed.push([job.key, job.payload, job.body?.[0]]);
        expect(claimed).toEqual(jobs.slice(0, 36).map((job, i) => [job.key, i, i]));
      });

      it('records a batch larger than one statement takes', async () => {
        const store = await fresh();
        const jobs = Array.from({ length: 1_203 }, (_, i) => ({ key: `bulk-${i}`, kind: 'x', payload: i }));
        const added = await store.enqueueJobs(jobs);
        expect(added.every(Boolean)).toBe(true);
        expect(await store.countJobs('pending')).toBe(1_203);
        expect((await store.enqueueJobs(jobs)).some(Boolean)).toBe(false);
      });

      it('leases a job to one claimer until the lease expires, then hands it out again', async () => {
        const store = await fresh();
        await store.enqueueJob({ key: 'k', kind: 'learn', payload: null });
        const first = await store.claimJob(t(0), t(5));
        expect(first?.attempts).toBe(1);
        expect(await store.claimJob(t(1), t(6))).toBeUndefined();
        expect(await store.countJobs('pending')).toBe(1);
        const again = await store.claimJob(t(5), t(10));
        expect(again?.id).toBe(first?.id);
        expect(again?.attempts).toBe(2);
      });

      it('claims jobs in due order and never before runAfter', async () => {
        const store = await fresh();
        await store.enqueueJob({ key: 'later', kind: 'x', payload: 1, runAfter: t(30) });
        await store.enqueueJob({ key: 'sooner', kind: 'x', payload: 2, runAfter: t(10) });
        expect(await store.claimJob(t(5), t(6))).toBeUndefined();
        expect((await store.claimJob(t(31), t(40)))?.key).toBe('sooner');
        expect((await store.claimJob(t(31), t(40)))?.key).toBe('later');
      });

      it('retries a failed job after its retry time and keeps a dead job out for good', async () => {
        const store = await fresh();
        await store.enqueueJob({ key: 'k', kind: 'x', payload: {} });
        const job = await store.claimJob(t(0), t(5));
        await store.failJob(job!.id, 'GitHub said 502', t(20), false);
        expect(await store.claimJob(t(10), t(15))).toBeUndefined();
        const retry = await store.claimJob(t(20), t(25));
        expect(retry).toMatchObject({ id: job!.id, attempts: 2, lastError: 'GitHub said 502' });
        await store.failJob(job!.id, 'still broken', t(30), true);
        expect(await store.claimJob(t(100), t(105))).toBeUndefined();
        expect(await store.countJobs('dead')).toBe(1);
        expect(await store.countJobs('pending')).toBe(0);
      });

      it('gives each job to exactly one of many concurrent claimers', async () => {
        const store = await fresh();
        for (let i = 0; i < 10; i++) await store.enqueueJob({ key: `job-${i}`, kind: 'x', payload: i });
        const claims = await Promise.all(Array.from({ length: 25 }, () => store.claimJob(t(0), t(5))));
        const claimed = claims.filter((j) => j !== undefined).map((j) => j.key);
        expect(claimed).toHaveLength(10);
        expect(new Set(claimed).size).toBe(10);
      });
    });

    describe('state, audit, usage, stats', () => {
      it('stores and overwrites state values', async () => {
        const store = await fresh();
        expect(await store.getState('cursor')).toBeUndefined();
        await store.setState('cursor', 'abc');
        await store.setState('cursor', 'def');
        expect(await store.getState('cursor')).toBe('def');
      });

      it('lists the audit log newest first, with a limit', async () => {
        const store = await fresh();
        await store.appendAudit({
          tenant: 'acme',
          actor: 'alice',
          action: 'approve',
          memoryId: 'm1',
          at: '2026-01-01T00:00:00.000Z',
        });
        await store.appendAudit({
          tenant: 'acme',
          actor: 'bob',
          action: 'forget',
          memoryId: 'm2',
          detail: 'asked in #12',
          at: '2026-01-02T00:00:00.000Z',
        });
        await store.appendAudit({
          tenant: 'acme',
          actor: 'carol',
          action: 'revoke-source',
          at: '2026-01-03T00:00:00.000Z',
        });
        const entries = await store.listAudit('acme');
        expect(entries.map((e) => e.actor)).toEqual(['carol', 'bob', 'alice']);
        expect(entries[1]).toEqual({
          tenant: 'acme',
          actor: 'bob',
          action: 'forget',
          memoryId: 'm2',
          detail: 'asked in #12',
          at: '2026-01-02T00:00:00.000Z',
        });
        expect(entries[0]).toEqual({
          tenant: 'acme',
          actor: 'carol',
          action: 'revoke-source',
          at: '2026-01-03T00:00:00.000Z',
        });
        expect(await store.listAudit('acme', 1)).toHaveLength(1);
      });

      it('lists the usage of one run', async () => {
        const store = await fresh();
        const at = '2026-01-01T00:00:00.000Z';
        await store.recordUsage({ tenant: 'acme', memoryId: 'm1', repo: 'acme/web', runRef: 'run-7', at });
        await store.recordUsage({ tenant: 'acme', memoryId: 'm2', repo: 'acme/web', runRef: 'run-7', at });
        await store.recordUsage({ tenant: 'acme', memoryId: 'm3', repo: 'acme/web', runRef: 'run-8', at });
        expect(await store.listUsage('acme', 'run-7')).toEqual([
          { tenant: 'acme', memoryId: 'm1', repo: 'acme/web', runRef: 'run-7', at },
          { tenant: 'acme', memoryId: 'm2', repo: 'acme/web', runRef: 'run-7', at },
        ]);
      });

      it('lists every use of a tenant since a date, oldest first, and no other tenant', async () => {
        const store = await fresh();
        const use = (memoryId: string, at: string, tenant = 'acme') =>
          store.recordUsage({ tenant, memoryId, repo: `${tenant}/web`, runRef: 'run-1', at });
        await use('m2', '2026-02-01T00:00:00.000Z');
        await use('m1', '2026-01-01T00:00:00.000Z');
        await use('m3', '2026-03-01T00:00:00.000Z', 'other');
        expect((await store.listTenantUsage('acme')).map((u) => u.memoryId)).toEqual(['m1', 'm2']);
        expect((await store.listTenantUsage('acme', '2026-01-15T00:00:00.000Z')).map((u) => u.memoryId)).toEqual([
          'm2',
        ]);
      });

      it('lists state entries by key prefix with the time they were written', async () => {
        const store = await fresh();
        await store.setState('governance:vote:acme:m1:ada', 'up');
        await store.setState('governance:vote:acme:m1:bob', 'down');
        await store.setState('governance:vote:acme2:m1:eve', 'up');
        await store.setState('governance:vote:acme_m1', 'up');
        const entries = await store.listStates('governance:vote:acme:');
        expect(entries.map((e) => [e.key, e.value])).toEqual([
          ['governance:vote:acme:m1:ada', 'up'],
          ['governance:vote:acme:m1:bob', 'down'],
        ]);
        expect(Number.isNaN(Date.parse(entries[0]!.updatedAt))).toBe(false);
      });

      it('counts memories by level and status, repositories and fixes', async () => {
        const store = await fresh();
        await store.putMemory(makeMemory());
        await store.putMemory(makeMemory({ status: 'proposed' }));
        await store.putMemory(
          makeMemory({ level: 'trajectory', provenance: [{ ...makeMemory().provenance[0]!, repo: 'acme/web' }] }),
        );
        await store.markFixLearned('acme', 'acme/api', '1');
        await store.markFixLearned('acme', 'acme/web', '2', { fallback: 'timeout' });
        const stats = await store.stats('acme');
        expect(stats).toEqual({
          memories: 3,
          byLevel: { trajectory: 1, workflow: 0, summary: 0, insight: 2 },
          byStatus: { proposed: 1, active: 2, rejected: 0, archived: 0 },
          repos: 2,
          fixes: 2,
          fixesByFallback: 1,
        });
      });
    });

    if (reopen) {
      it('keeps everything after closing and reopening the pool, vectors included', async () => {
        const store = await fresh();
        const m = makeMemory({ title: 'Durable insight about retries' });
        await store.putMemory(m);
        await store.putVector('acme', m.id, axisVector(4, 2), 'emb');
        await store.setState('cursor', 'x');
        await store.enqueueJob({ key: 'j', kind: 'x', payload: { a: 1 } });
        const again = await reopen(store);
        open.push(again);
        expect(await again.getMemory('acme', m.id)).toEqual(m);
        expect((await again.searchLexical('acme', 'retries', { limit: 1 })).map((h) => h.id)).toEqual([m.id]);
        expect((await again.searchVector('acme', axisVector(4, 2), 'emb', { limit: 1 })).map((h) => h.id)).toEqual([
          m.id,
        ]);
        expect(await again.getState('cursor')).toBe('x');
        expect(await again.countJobs('pending')).toBe(1);
      });
    }
  });
}
