/**
 * The data step of schema version 7 (migrations.ts), on both databases: every memory's identity
 * columns (lesson, routines, facet, examples, writer) from the tags, content and model that held
 * it before, read by the one function that reads them (core/knowledge/identity.ts legacyIdentity,
 * which the pool file reader uses too). Inside the migration's transaction.
 */
import { legacyIdentity } from '../core/knowledge/identity.js';
import type { MemoryLevel } from '../core/types.js';
import type { MigrationSql } from './migrations.js';

/** Rows read per page by the identity backfill. */
const IDENTITY_PAGE = 1000;

type LegacyRow = { seq: number | string; level: string; tags: string; content: string; model: string };

/** The identity columns of one page of rows: seq, lesson, routines, facet, examples, writer. */
function identityValues(rows: LegacyRow[]): [number | string, string | null, string, string | null, string, string][] {
  return rows.map((row) => {
    const identity = legacyIdentity({
      level: row.level as MemoryLevel,
      tags: JSON.parse(row.tags) as string[],
      content: row.content,
      model: row.model,
    });
    return [
      row.seq,
      identity.lesson,
      JSON.stringify(identity.routines),
      identity.facet,
      JSON.stringify(identity.examples),
      identity.writer,
    ];
  });
}

/** Fills the identity columns of every memory from its tags, content and model, in pages in seq order. */
export async function backfillIdentity(db: MigrationSql, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const p = dialect === 'sqlite' ? () => '?' : (i: number) => `$${i}`;
  let after: number | string = -1;
  for (;;) {
    const rows: LegacyRow[] = await db.all<LegacyRow>(
      `SELECT seq, level, tags, content, model FROM memories WHERE seq > ${p(1)} ORDER BY seq LIMIT ${IDENTITY_PAGE}`,
      [after],
    );
    const values = identityValues(rows);
    if (dialect === 'sqlite') {
      for (const [seq, ...identity] of values)
        await db.run(
          'UPDATE memories SET lesson = ?, routines = ?, facet = ?, examples = ?, writer = ? WHERE seq = ?',
          [...identity, seq],
        );
    } else if (values.length > 0) {
      // one statement a page: the columns of each row as arrays, matched by seq
      const column = (i: number) => values.map((row) => row[i] ?? null);
      await db.run(
        `UPDATE memories m SET lesson = u.lesson, routines = u.routines, facet = u.facet, examples = u.examples, writer = u.writer
         FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
           AS u(seq, lesson, routines, facet, examples, writer)
         WHERE m.seq = u.seq`,
        [0, 1, 2, 3, 4, 5].map(column),
      );
    }
    const last: LegacyRow | undefined = rows[rows.length - 1];
    if (!last || rows.length < IDENTITY_PAGE) return;
    after = last.seq;
  }
}
