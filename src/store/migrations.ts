/**
 * Versioned schema migrations for both stores. Policy (docs/storage.md): migrations are only ever
 * appended, never edited once released; each runs in one transaction together with the bump of
 * `schema_version`; a pool whose version is newer than the code's is refused (never downgraded).
 */
import { StoreError } from '../core/errors.js';
import { encodeVector } from '../core/retrieval/vector-index.js';
import { backfillIdentity } from './identity-backfill.js';
import type { Logger } from '../ports/index.js';
import { bytesToVector } from './vector-cache.js';

/**
 * What a migration's data step may run: the migrating connection, inside the migration's
 * transaction. Parameters are written `?` on SQLite and `$1`, `$2`, … on PostgreSQL.
 */
export interface MigrationSql {
  /** parameters: strings, numbers, bytes, null, and on PostgreSQL arrays of those */
  all<T>(sql: string, params?: unknown[]): Promise<T[]>;
  run(sql: string, params?: unknown[]): Promise<unknown>;
}

export interface Migration {
  version: number;
  description: string;
  sqlite: string;
  postgres: string;
  /** what SQL alone cannot do on SQLite, run after `sqlite` in the same transaction */
  sqliteData?: (db: MigrationSql) => Promise<void>;
  /** what SQL alone cannot do on PostgreSQL, run after `postgres` in the same transaction */
  postgresData?: (db: MigrationSql) => Promise<void>;
  /**
   * A command that only reads may read a SQLite pool without this migration as it is: the store
   * reads its rows without what the migration adds (rows.ts rowToMemory derives it).
   */
  sqliteReadsWithout?: boolean;
}

/**
 * One contentless FTS5 table per memory level, kept in step with `memories` by triggers (the same
 * SQL for each level, written once here).
 */
const FTS_LEVELS = ['insight', 'workflow', 'summary', 'trajectory'] as const;
const FTS_TABLES = FTS_LEVELS.map(
  (level) => `CREATE VIRTUAL TABLE fts_${level} USING fts5 (
  title, description, content, tags,
  content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2'
);`,
).join('\n');
const FTS_TRIGGERS = FTS_LEVELS.map(
  (level) => `CREATE TRIGGER fts_${level}_insert AFTER INSERT ON memories WHEN NEW.level = '${level}' BEGIN
  INSERT INTO fts_${level} (rowid, title, description, content, tags) VALUES (NEW.seq, NEW.title, NEW.description, NEW.content, NEW.tags);
END;
CREATE TRIGGER fts_${level}_update AFTER UPDATE ON memories
  WHEN (OLD.level = '${level}' OR NEW.level = '${level}') AND (OLD.level IS NOT NEW.level OR OLD.title IS NOT NEW.title
    OR OLD.description IS NOT NEW.description OR OLD.content IS NOT NEW.content OR OLD.tags IS NOT NEW.tags) BEGIN
  DELETE FROM fts_${level} WHERE rowid = OLD.seq AND OLD.level = '${level}';
  INSERT INTO fts_${level} (rowid, title, description, content, tags)
    SELECT NEW.seq, NEW.title, NEW.description, NEW.content, NEW.tags WHERE NEW.level = '${level}';
END;
CREATE TRIGGER fts_${level}_delete AFTER DELETE ON memories WHEN OLD.level = '${level}' BEGIN
  DELETE FROM fts_${level} WHERE rowid = OLD.seq;
END;`,
).join('\n');

const SQLITE_V1 = `
CREATE TABLE memories (
  seq INTEGER PRIMARY KEY,
  tenant TEXT NOT NULL,
  id TEXT NOT NULL,
  level TEXT NOT NULL,
  status TEXT NOT NULL,
  visibility TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  content TEXT NOT NULL,
  tags TEXT NOT NULL,
  evidence TEXT NOT NULL,
  provenance TEXT NOT NULL,
  body TEXT NOT NULL,
  shared_wider_by TEXT,
  votes_up INTEGER NOT NULL,
  votes_down INTEGER NOT NULL,
  support INTEGER NOT NULL,
  uses INTEGER NOT NULL,
  outcomes_success INTEGER NOT NULL,
  outcomes_failure INTEGER NOT NULL,
  model TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  last_used_at TEXT,
  UNIQUE (tenant, id)
);
CREATE INDEX memories_filter ON memories (tenant, status, level);
CREATE INDEX memories_recent ON memories (tenant, updated_at);
CREATE INDEX memories_cover ON memories (seq, tenant, status, level, id);
CREATE TABLE memory_sources (
  seq INTEGER NOT NULL REFERENCES memories (seq) ON DELETE CASCADE,
  repo TEXT NOT NULL,
  PRIMARY KEY (seq, repo)
) WITHOUT ROWID;
CREATE INDEX memory_sources_repo ON memory_sources (repo, seq);
${FTS_TABLES}
-- the full-text tables and memory_sources follow the memories rows through triggers, inside the
-- same statement (tags are indexed as their JSON text: the tokenizer splits "lang:typescript")
CREATE TRIGGER memory_sources_insert AFTER INSERT ON memories BEGIN
  INSERT OR IGNORE INTO memory_sources (seq, repo)
    SELECT DISTINCT NEW.seq, lower(json_extract(value, '$.repo')) FROM json_each(NEW.provenance) WHERE json_extract(value, '$.repo') IS NOT NULL;
END;
CREATE TRIGGER memory_sources_update AFTER UPDATE OF provenance ON memories WHEN OLD.provenance IS NOT NEW.provenance BEGIN
  DELETE FROM memory_sources WHERE seq = OLD.seq;
  INSERT OR IGNORE INTO memory_sources (seq, repo)
    SELECT DISTINCT NEW.seq, lower(json_extract(value, '$.repo')) FROM json_each(NEW.provenance) WHERE json_extract(value, '$.repo') IS NOT NULL;
END;
${FTS_TRIGGERS}
CREATE TABLE vectors (
  seq INTEGER NOT NULL REFERENCES memories (seq) ON DELETE CASCADE,
  model TEXT NOT NULL,
  dims INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (seq, model)
) WITHOUT ROWID;
CREATE TABLE fixes (
  tenant TEXT NOT NULL,
  repo TEXT NOT NULL,
  ref TEXT NOT NULL,
  learned_at TEXT NOT NULL,
  PRIMARY KEY (tenant, repo, ref)
) WITHOUT ROWID;
CREATE TABLE jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  key TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL,
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  run_after TEXT NOT NULL,
  lease_until TEXT,
  last_error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX jobs_due ON jobs (state, run_after, id);
CREATE TABLE state (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE audit (
  seq INTEGER PRIMARY KEY,
  tenant TEXT NOT NULL,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  memory_id TEXT,
  detail TEXT,
  at TEXT NOT NULL
);
CREATE INDEX audit_tenant ON audit (tenant, seq);
CREATE TABLE usage (
  seq INTEGER PRIMARY KEY,
  tenant TEXT NOT NULL,
  memory_id TEXT NOT NULL,
  repo TEXT NOT NULL,
  run_ref TEXT NOT NULL,
  at TEXT NOT NULL
);
CREATE INDEX usage_run ON usage (tenant, run_ref);
`;

const POSTGRES_V1 = `
CREATE TABLE memories (
  seq BIGSERIAL PRIMARY KEY,
  tenant TEXT NOT NULL,
  id TEXT NOT NULL,
  level TEXT NOT NULL,
  status TEXT NOT NULL,
  visibility TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  content TEXT NOT NULL,
  tags TEXT NOT NULL,
  tags_text TEXT NOT NULL,
  evidence TEXT NOT NULL,
  provenance TEXT NOT NULL,
  body TEXT NOT NULL,
  shared_wider_by TEXT,
  votes_up INTEGER NOT NULL,
  votes_down INTEGER NOT NULL,
  support INTEGER NOT NULL,
  uses INTEGER NOT NULL,
  outcomes_success INTEGER NOT NULL,
  outcomes_failure INTEGER NOT NULL,
  model TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  last_used_at TEXT,
  fts tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', title), 'A') ||
    setweight(to_tsvector('english', description), 'B') ||
    setweight(to_tsvector('english', tags_text), 'B') ||
    setweight(to_tsvector('english', content), 'C')
  ) STORED,
  UNIQUE (tenant, id)
);
CREATE INDEX memories_filter ON memories (tenant, status, level);
CREATE INDEX memories_recent ON memories (tenant, updated_at);
CREATE INDEX memories_fts ON memories USING GIN (fts);
CREATE TABLE memory_sources (
  seq BIGINT NOT NULL REFERENCES memories (seq) ON DELETE CASCADE,
  repo TEXT NOT NULL,
  PRIMARY KEY (seq, repo)
);
CREATE INDEX memory_sources_repo ON memory_sources (repo, seq);
CREATE TABLE vectors (
  seq BIGINT NOT NULL REFERENCES memories (seq) ON DELETE CASCADE,
  model TEXT NOT NULL,
  dims INTEGER NOT NULL,
  data BYTEA NOT NULL,
  PRIMARY KEY (seq, model)
);
CREATE TABLE fixes (
  tenant TEXT NOT NULL,
  repo TEXT NOT NULL,
  ref TEXT NOT NULL,
  learned_at TEXT NOT NULL,
  PRIMARY KEY (tenant, repo, ref)
);
CREATE TABLE jobs (
  id BIGSERIAL PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL,
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  run_after TEXT NOT NULL,
  lease_until TEXT,
  last_error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX jobs_due ON jobs (state, run_after, id);
CREATE TABLE state (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE audit (
  seq BIGSERIAL PRIMARY KEY,
  tenant TEXT NOT NULL,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  memory_id TEXT,
  detail TEXT,
  at TEXT NOT NULL
);
CREATE INDEX audit_tenant ON audit (tenant, seq);
CREATE TABLE usage (
  seq BIGSERIAL PRIMARY KEY,
  tenant TEXT NOT NULL,
  memory_id TEXT NOT NULL,
  repo TEXT NOT NULL,
  run_ref TEXT NOT NULL,
  at TEXT NOT NULL
);
CREATE INDEX usage_run ON usage (tenant, run_ref);
`;

/**
 * v4: provenance in its own table. Every entry of every memory's provenance array becomes one
 * memory_provenance row (its position, lower-cased repository and ref beside the entry's JSON text,
 * kept as it was); the memory row keeps a sample (the first entry of each distinct repository, in
 * order, at most five: rows.ts sampleProvenance) and the count. memory_sources is kept by the stores
 * from then on (the triggers read the whole array, which the row no longer holds).
 */
const SQLITE_V4 = `
DROP TRIGGER memory_sources_insert;
DROP TRIGGER memory_sources_update;
CREATE TABLE memory_provenance (
  seq INTEGER NOT NULL REFERENCES memories (seq) ON DELETE CASCADE,
  pos INTEGER NOT NULL,
  repo TEXT NOT NULL,
  ref TEXT NOT NULL,
  entry TEXT NOT NULL,
  PRIMARY KEY (seq, pos)
) WITHOUT ROWID;
CREATE INDEX memory_provenance_fix ON memory_provenance (seq, repo, ref);
INSERT INTO memory_provenance (seq, pos, repo, ref, entry)
  SELECT m.seq, CAST(j.key AS INTEGER), lower(COALESCE(json_extract(j.value, '$.repo'), '')),
         COALESCE(CAST(json_extract(j.value, '$.ref') AS TEXT), ''), j.value
  FROM memories m, json_each(m.provenance) j;
ALTER TABLE memories ADD COLUMN provenance_count INTEGER NOT NULL DEFAULT 0;
UPDATE memories SET
  provenance_count = json_array_length(provenance),
  provenance = (SELECT json_group_array(json(f.entry)) FROM (
    SELECT p.entry FROM memory_provenance p
    WHERE p.seq = memories.seq AND p.pos = (SELECT MIN(q.pos) FROM memory_provenance q WHERE q.seq = p.seq AND q.repo = p.repo)
    ORDER BY p.pos LIMIT 5) f);
`;

const POSTGRES_V4 = `
CREATE TABLE memory_provenance (
  seq BIGINT NOT NULL REFERENCES memories (seq) ON DELETE CASCADE,
  pos INTEGER NOT NULL,
  repo TEXT NOT NULL,
  ref TEXT NOT NULL,
  entry TEXT NOT NULL,
  PRIMARY KEY (seq, pos)
);
CREATE INDEX memory_provenance_fix ON memory_provenance (seq, repo, ref);
INSERT INTO memory_provenance (seq, pos, repo, ref, entry)
  SELECT m.seq, (e.ord - 1)::int, lower(COALESCE(e.value->>'repo', '')), COALESCE(e.value->>'ref', ''), e.value::text
  FROM memories m CROSS JOIN LATERAL json_array_elements(m.provenance::json) WITH ORDINALITY AS e(value, ord);
ALTER TABLE memories ADD COLUMN provenance_count INTEGER NOT NULL DEFAULT 0;
UPDATE memories m SET
  provenance_count = json_array_length(m.provenance::json),
  provenance = COALESCE((SELECT '[' || string_agg(f.entry, ',' ORDER BY f.pos) || ']' FROM (
    SELECT d.entry, d.pos FROM (
      SELECT DISTINCT ON (p.repo) p.entry, p.pos FROM memory_provenance p WHERE p.seq = m.seq ORDER BY p.repo, p.pos
    ) d ORDER BY d.pos LIMIT 5) f), '[]');
`;

/**
 * Version 5 (SQLite): the int8 code of every stored vector (core/retrieval/vector-index.ts), 516 bytes at 512
 * dimensions, in its own table, so a row fits in its b-tree page (a 2 KB float vector sits in an
 * overflow page) and loading the vector index reads a quarter of the bytes. A code follows its vector:
 * written with it (putVector) and deleted with it (the foreign key). PostgreSQL computes the codes
 * when it loads the index (no table).
 */
const SQLITE_V5 = `
CREATE TABLE vector_codes (
  seq INTEGER NOT NULL,
  model TEXT NOT NULL,
  code BLOB NOT NULL,
  PRIMARY KEY (seq, model),
  FOREIGN KEY (seq, model) REFERENCES vectors (seq, model) ON DELETE CASCADE
) WITHOUT ROWID;
`;

/** fills vector_codes from every stored vector, in pages in key order */
async function fillVectorCodes(db: MigrationSql): Promise<void> {
  type Row = { seq: number; model: string; data: Buffer };
  let after: [number, string] = [-1, ''];
  for (;;) {
    const rows = await db.all<Row>(
      'SELECT seq, model, data FROM vectors WHERE (seq, model) > (?, ?) ORDER BY seq, model LIMIT 1024',
      after,
    );
    for (const row of rows) {
      if (row.data.byteLength === 0 || row.data.byteLength % 4 !== 0) continue;
      await db.run('INSERT INTO vector_codes (seq, model, code) VALUES (?, ?, ?)', [
        row.seq,
        row.model,
        Buffer.from(encodeVector(bytesToVector(row.data))),
      ]);
    }
    const last = rows[rows.length - 1];
    if (!last || rows.length < 1024) return;
    after = [last.seq, last.model];
  }
}

/**
 * Version 6 (PostgreSQL): the stored tsvector stays in the row, compressed (STORAGE MAIN), instead of
 * out of line in the TOAST table (EXTENDED, the default for tsvector). Learning rewrites an insight's
 * row on every merge; with the vector out of line each rewrite also wrote TOAST chunks and their
 * index, and the dead chunks outgrew what autovacuum reclaimed, so the pages written per learned fix
 * grew with the pool (docs/quality.md). A catalog change only: rows move in as they are next
 * written. SQLite keeps no stored vector: nothing to do there, and a read-only command still opens a
 * version 5 pool (oldestReadableVersion).
 */
const POSTGRES_V6 = 'ALTER TABLE memories ALTER COLUMN fts SET STORAGE MAIN;';

/**
 * Version 7: an insight's identity in columns of its own (Memory's `lesson`, `routines`, `facet`,
 * `examples`, `writer`; src/core/types.ts MemoryIdentity) instead of strings read back from its
 * tags, content and model. Every existing row gets them from those strings, as the code before
 * read them (core/knowledge/identity.ts legacyIdentity, the pool file reader's too), in the
 * migration's transaction; the tags and content stay as they are.
 */
const IDENTITY_COLUMNS = `
ALTER TABLE memories ADD COLUMN lesson TEXT;
ALTER TABLE memories ADD COLUMN routines TEXT NOT NULL DEFAULT '[]';
ALTER TABLE memories ADD COLUMN facet TEXT;
ALTER TABLE memories ADD COLUMN examples TEXT NOT NULL DEFAULT '[]';
ALTER TABLE memories ADD COLUMN writer TEXT NOT NULL DEFAULT 'rules';
`;

/** Append only. The code's schema version is the last entry's version. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'memories, full-text index, vectors, fixes, jobs, state, audit, usage',
    sqlite: SQLITE_V1,
    postgres: POSTGRES_V1,
  },
  {
    version: 2,
    description: 'jobs carry raw bytes (a webhook delivery as received), stored as they are',
    sqlite: 'ALTER TABLE jobs ADD COLUMN body BLOB;',
    postgres: 'ALTER TABLE jobs ADD COLUMN body BYTEA;',
  },
  {
    version: 3,
    description: 'a learned fix records why the rules wrote it when the model failed (learned by fallback)',
    sqlite: 'ALTER TABLE fixes ADD COLUMN fallback TEXT;',
    postgres: 'ALTER TABLE fixes ADD COLUMN fallback TEXT;',
  },
  {
    version: 4,
    description: 'provenance in its own table; a memory row keeps a sample of its sources and their count',
    sqlite: SQLITE_V4,
    postgres: POSTGRES_V4,
  },
  {
    version: 5,
    description: 'SQLite keeps an int8 code of every vector beside it (the vector index loads the codes)',
    sqlite: SQLITE_V5,
    sqliteData: fillVectorCodes,
    postgres: "COMMENT ON TABLE vectors IS 'Float32 vectors; the vector index computes their int8 codes when it loads'",
  },
  {
    version: 6,
    description: "PostgreSQL keeps a memory's full-text vector in its row (compressed), not in the TOAST table",
    sqlite: '',
    postgres: POSTGRES_V6,
  },
  {
    version: 7,
    description: "an insight's identity (lesson, routines, facet, examples, writer) in columns of its own",
    sqlite: IDENTITY_COLUMNS,
    sqliteData: (db) => backfillIdentity(db, 'sqlite'),
    sqliteReadsWithout: true,
    postgres: IDENTITY_COLUMNS,
    postgresData: (db) => backfillIdentity(db, 'postgres'),
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/**
 * The oldest schema version a command that only reads can use as it is: every later migration is a
 * no-op for this dialect (no SQL, no data step) or, on SQLite, one whose additions the store derives
 * when it reads a row without them (`sqliteReadsWithout`), so refusing the pool would only send its
 * user to run a writing command for nothing.
 */
export function oldestReadableVersion(dialect: 'sqlite' | 'postgres'): number {
  let version = SCHEMA_VERSION;
  for (const migration of [...MIGRATIONS].reverse()) {
    const sql = dialect === 'sqlite' ? migration.sqlite : migration.postgres;
    const data = dialect === 'sqlite' ? migration.sqliteData : migration.postgresData;
    const readable = dialect === 'sqlite' && migration.sqliteReadsWithout === true;
    if ((sql.trim() !== '' || data) && !readable) break;
    version = migration.version - 1;
  }
  return version;
}

/** the shadow tables SQLite's FTS5 keeps beside each full-text table */
const FTS5_SHADOWS = ['_data', '_idx', '_content', '_docsize', '_config'];

/**
 * Every table a memory-transfer SQLite pool may hold, of any schema version up to this one: the
 * tables the migrations create (with FTS5's shadow tables) and schema_version. A file holding any
 * other table belongs to another program and is refused before anything is written to it.
 */
export function ownedSqliteTables(): Set<string> {
  const owned = new Set(['schema_version']);
  for (const migration of MIGRATIONS) {
    for (const match of migration.sqlite.matchAll(/CREATE (VIRTUAL )?TABLE (?:IF NOT EXISTS )?(\w+)/gi)) {
      const name = (match[2] ?? '').toLowerCase();
      owned.add(name);
      if (match[1]) for (const suffix of FTS5_SHADOWS) owned.add(`${name}${suffix}`);
    }
  }
  return owned;
}

/** What a store gives the migration runner. */
export interface MigrationTarget {
  dialect: 'sqlite' | 'postgres';
  /** the pool file or database, for messages */
  location: string;
  /** creates the schema_version table if missing; 0 for a fresh pool */
  readVersion(): Promise<number>;
  /** runs the migration's SQL (then its data step, if any) and records its version, in one transaction */
  apply(sql: string, version: number, data?: (db: MigrationSql) => Promise<void>): Promise<void>;
}

export function assertKnownVersion(found: number, location: string): void {
  if (found > SCHEMA_VERSION) {
    throw new StoreError(
      `the pool ${location} has schema version ${found}, newer than this memory-transfer understands (up to ${SCHEMA_VERSION}); upgrade memory-transfer to use it`,
      'newer-schema',
    );
  }
}

/** A read-only command met a pool of an older schema: it never migrates, a command that writes does. */
export function olderSchemaError(location: string, found: number): StoreError {
  return new StoreError(
    `the pool ${location} has schema version ${found}, older than this memory-transfer's (${SCHEMA_VERSION}); a command that only reads never upgrades it: run one that writes first (learn, import)`,
    'older-schema',
  );
}

/** Brings the schema up to SCHEMA_VERSION; refuses a newer pool. */
export async function runMigrations(target: MigrationTarget, logger: Logger): Promise<void> {
  const found = await target.readVersion();
  assertKnownVersion(found, target.location);
  for (const migration of MIGRATIONS) {
    if (migration.version <= found) continue;
    logger.info('migrating pool schema', {
      location: target.location,
      version: migration.version,
      description: migration.description,
    });
    if (target.dialect === 'sqlite') await target.apply(migration.sqlite, migration.version, migration.sqliteData);
    else await target.apply(migration.postgres, migration.version, migration.postgresData);
  }
}
