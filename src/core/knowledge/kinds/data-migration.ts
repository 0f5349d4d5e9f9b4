/** The routine kind data-migration (schema migrations): its cues, routines and lessons. */
import { defineKind } from '../entry.js';

/** Data an earlier version stored, broken by an upgrade ("existing rows … after upgrading", "after the update … old entries"). */
const STORED_DATA_AFTER_UPGRADE =
  /\b(existing|old|older|stored|saved) (rows?|records?|entries|data|databases?|posts?|notes|documents|items|state|caches?|preferences|settings|sessions|profiles)\b.{0,80}\b(after|since) (the |an? )?(upgrad|updat|migrat)\w*|\b(after|since|when) (the |an? )?(upgrad|updat|migrat)\w*.{0,120}\b(existing|old|older|stored|saved) (rows?|records?|entries|data|posts?|notes|documents|items|preferences|settings|sessions|profiles)\b/i;

/** New data is fine where old data broke; a rollback, an irreversible step, a migration tool. */
const MIGRATION_TOOLING =
  /\bnew (rows?|records?|entries|posts?|notes|documents|items|ones) (are|look|work|show)\b|\brollback\b|\birreversible\b|\balembic\b|\bdb:(migrate|rollback)\b/i;

export const dataMigration = defineKind({
  kind: 'data-migration',
  template: {
    label: 'schema migrations',
    title: 'Run migrations against a fresh and a populated database',
    description: 'Schema migrations can work on an empty database and fail on real data, or fail to roll back.',
    check:
      'After touching a migration, run the migration tests against a fresh database and one seeded with representative data, apply and roll back, and compare the resulting schema with the expected one.',
    why: 'Such a failure shows on the populated run, not on the empty one.',
    also: 'run the migrations on a populated database',
    step: 'Apply and roll back migrations on a fresh and on a seeded database.',
  },
  learnedRule: 'Run the migrations that touch the {p} on a fresh database',
  vocabulary: 'migration schema database',
  // "schema" alone is as often a JSON, validation or GraphQL schema as a database's
  textCues: [
    [/\bmigrat(e|es|ed|ing|ion|ions)\b|\bdatabase\b|\bsql\b(?! injection)/i, 1.2],
    [/\b(database|db|sql|table) schemas?\b|\bschema (migrations?|changes?|versions?)\b|\balter table\b/i, 1.2],
    [STORED_DATA_AFTER_UPGRADE, 1.5],
    [MIGRATION_TOOLING, 1],
  ],
  files: {
    evidence: 'database migrations or schema',
    cues: [[/(^|\/)(migrations?|migrate)\/|\.sql$|(^|\/)schema\./i, 1.2]],
  },
  lessons: [
    {
      id: 'schema-migration',
      title: 'Run every migration against a fresh database and against a copy of the current one',
      description:
        'A migration that works on the author’s database fails on an empty one or on real data with unexpected rows.',
      check:
        'Apply all migrations to an empty database and to a copy with realistic data in CI, then run the tests; test the rollback where one exists.',
      cues: [
        [/\bmigrat\w*\b|\bdatabase\b|\bsql\b(?! injection)|\b(database|db|sql|table) schemas?\b|\balter table\b/i, 0.9],
        // a column or a table is also a TOML table, a Markdown table or a text column
        [
          /\b(database|db|sql) (columns?|tables?)\b|\b(add|drop|rename)(s|ed|ing)? (a |the )?(columns?|tables?)\b/i,
          0.9,
        ],
        [STORED_DATA_AFTER_UPGRADE, 1.2],
        [MIGRATION_TOOLING, 0.6],
      ],
    },
  ],
});
