/**
 * A pool as the release before provenance moved to its own table (schema version 3) wrote it.
 *
 * __tests__/fixtures/pools/v3-provenance.db was written by that release's own code (commit af67bed,
 * `learnFixes` with the rules abstractor over 18 fixes of 8 repositories, then the concrete levels of
 * all but the first fix forgotten; generator kept beside it as make-v3-pool.ts.txt): two insights
 * carry 9 sources each, from more repositories than a memory row keeps inline.
 * For PostgreSQL, `writeV3Postgres` writes the same rows into a fresh schema exactly as that release
 * did: the schema of migrations 1–3, every column of the row as it was (provenance as the whole JSON
 * array), memory_sources filled from it, as its putMemory did.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import sqlite3 from 'sqlite3';
import { expect } from 'vitest';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { PROVENANCE_SAMPLE, rowToMemory, sampleProvenance, tagsText } from '../../src/store/rows.js';
import type { Store } from '../../src/store/store.js';
import type { Memory, Provenance } from '../../src/core/types.js';

export const V3_POOL = fileURLToPath(new URL('../fixtures/pools/v3-provenance.db', import.meta.url));

export type V3Row = Record<string, string | number | null>;

/** a copy of the fixture at `path` (the fixture itself is never written) */
export function copyV3Pool(path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  copyFileSync(V3_POOL, path);
}

/** every memory row of a version-3 pool file, read with plain SQL (no store code) */
export function readV3Rows(path: string): Promise<{ memories: V3Row[]; sources: { id: string; repo: string }[] }> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(path, sqlite3.OPEN_READONLY);
    db.all('SELECT * FROM memories ORDER BY seq', (error, memories: V3Row[]) => {
      if (error) return reject(error);
      db.all(
        'SELECT m.id, s.repo FROM memory_sources s JOIN memories m ON m.seq = s.seq ORDER BY m.id, s.repo',
        (error2, sources: { id: string; repo: string }[]) => {
          db.close();
          if (error2) reject(error2);
          else resolve({ memories, sources });
        },
      );
    });
  });
}

/** the memory a version-3 row holds, provenance complete (what every read must still return) */
export function v3Memory(row: V3Row): Memory {
  return rowToMemory(row, JSON.parse(String(row.provenance)) as Provenance[]);
}

const V3_COLUMNS = [
  'seq',
  'tenant',
  'id',
  'level',
  'status',
  'visibility',
  'title',
  'description',
  'content',
  'tags',
  'evidence',
  'provenance',
  'body',
  'shared_wider_by',
  'votes_up',
  'votes_down',
  'support',
  'uses',
  'outcomes_success',
  'outcomes_failure',
  'model',
  'created_at',
  'updated_at',
  'last_used_at',
];

/** a schema at version 3 holding these rows, written the way the version-3 release wrote them */
export async function writeV3Postgres(client: pg.Client, schema: string, rows: V3Row[]): Promise<void> {
  await client.query(`CREATE SCHEMA "${schema}"`);
  await client.query(`SET search_path = "${schema}"`);
  await client.query('CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
  for (const migration of MIGRATIONS.filter((m) => m.version <= 3)) {
    await client.query(migration.postgres);
    await client.query('INSERT INTO schema_version (version, applied_at) VALUES ($1, $2)', [
      migration.version,
      '2026-01-01T00:00:00.000Z',
    ]);
  }
  for (const row of rows) {
    const columns = [...V3_COLUMNS, 'tags_text'];
    const values = [...V3_COLUMNS.map((c) => row[c] ?? null), tagsText(JSON.parse(String(row.tags)) as string[])];
    await client.query(
      `INSERT INTO memories (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
      values,
    );
    const repos = [...new Set((JSON.parse(String(row.provenance)) as Provenance[]).map((p) => p.repo.toLowerCase()))];
    await client.query('INSERT INTO memory_sources (seq, repo) SELECT $1, unnest($2::text[])', [row.seq, repos]);
  }
  // the sequence continues after the rows copied with their seq
  await client.query("SELECT setval(pg_get_serial_sequence('memories', 'seq'), (SELECT MAX(seq) FROM memories))");
  await client.query('SET search_path = public');
}

/**
 * What a store migrated from version 3 must give back: every memory as it was, provenance complete
 * and in order; a bounded sample with the count for recall; the same repositories per memory; and a
 * merge afterwards appends one source.
 */
export async function expectMigratedWithoutLoss(
  store: Store,
  before: { memories: V3Row[]; sources: { id: string; repo: string }[] },
): Promise<void> {
  const expected = before.memories.map(v3Memory);
  const wide = expected.filter((m) => new Set(m.provenance.map((p) => p.repo.toLowerCase())).size > PROVENANCE_SAMPLE);
  expect(wide.length).toBeGreaterThan(0);
  for (const memory of expected) {
    expect(await store.getMemory(memory.tenant, memory.id)).toEqual(memory);
    const sampled = await store.getMemory(memory.tenant, memory.id, { provenance: 'sample' });
    expect(sampled).toEqual({
      ...memory,
      provenance: sampleProvenance(memory.provenance),
      provenanceCount: memory.provenance.length,
    });
  }
  const listed = await store.listMemories('acme');
  const byId = (a: Memory, b: Memory) => a.id.localeCompare(b.id);
  expect([...listed].sort(byId)).toEqual([...expected].sort(byId));
  for (const repo of new Set(before.sources.map((s) => s.repo))) {
    const ids = before.sources
      .filter((s) => s.repo === repo)
      .map((s) => s.id)
      .sort();
    expect((await store.listMemories('acme', { repo })).map((m) => m.id).sort()).toEqual(ids);
  }
  // a merge after the upgrade: one more source at the end of the whole list
  const target = wide[0]!;
  const extra: Provenance = { ...target.provenance[0]!, repo: 'acme/late', ref: '999' };
  expect(await store.appendProvenance('acme', target.id, extra)).toBe(true);
  expect((await store.getMemory('acme', target.id))?.provenance).toEqual([...target.provenance, extra]);
  expect((await store.getMemory('acme', target.id, { provenance: 'sample' }))?.provenanceCount).toBe(
    target.provenance.length + 1,
  );
}
