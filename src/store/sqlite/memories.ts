/**
 * The SQLite memory store: memories (one row each, a bounded sample of their provenance on the
 * row), their provenance rows (memory_provenance) and repositories (memory_sources), and their
 * full-text search (lexical-search.ts). Triggers keep the FTS5 tables in step with the rows.
 */
import { StoreError } from '../../core/errors.js';
import type { Memory, Provenance } from '../../core/types.js';
import {
  isSampled,
  MEMORY_COLUMNS,
  memoryToValues,
  provenanceRow,
  rowToMemory,
  sampleWith,
  withFullProvenance,
} from '../rows.js';
import type { SqliteConnection, SqlValue } from '../sqlite-connection.js';
import type { MemoryFilter, MemoryStore, ReadOptions, ScoredId, SearchOptions } from '../store.js';
import type { SqliteCaches } from './caches.js';
import type { SqliteHandle } from './handle.js';
import { FTS_TABLES, SqliteLexicalSearch } from './lexical-search.js';

/** the memory upsert; `keep` columns are left as they are on an existing row */
function upsertMemory(keep: readonly string[]): string {
  return `INSERT INTO memories (${MEMORY_COLUMNS.join(', ')}) VALUES (${MEMORY_COLUMNS.map(() => '?').join(', ')})
  ON CONFLICT (tenant, id) DO UPDATE SET ${MEMORY_COLUMNS.filter(
    (c) => c !== 'tenant' && c !== 'id' && !keep.includes(c),
  )
    .map((c) => `${c} = excluded.${c}`)
    .join(', ')}
  RETURNING seq`;
}
/** a memory with complete provenance: every column */
const UPSERT_MEMORY = upsertMemory([]);
/** a memory read with a sample of its provenance: the stored provenance, sample and count stay */
const UPSERT_MEMORY_KEEP_SOURCES = upsertMemory(['provenance', 'provenance_count']);

export class SqliteMemoryStore implements MemoryStore {
  private readonly db: SqliteConnection;
  private readonly lexical: SqliteLexicalSearch;

  constructor(
    private readonly handle: SqliteHandle,
    private readonly caches: SqliteCaches,
  ) {
    this.db = handle.db;
    this.lexical = new SqliteLexicalSearch(handle, caches, (tenant, ids) =>
      this.getMemories(tenant, ids, { provenance: 'sample' }),
    );
  }

  searchLexical(tenant: string, query: string, options: SearchOptions): Promise<ScoredId[]> {
    return this.lexical.search(tenant, query, options);
  }

  async putMemory(memory: Memory): Promise<void> {
    // triggers keep the full-text tables in step; the store keeps memory_provenance and memory_sources
    if (isSampled(memory)) {
      await this.handle.write(() => this.db.get(UPSERT_MEMORY_KEEP_SOURCES, memoryToValues(memory)));
    } else {
      await this.handle.transaction(async () => {
        const row = await this.db.get<{ seq: number }>(UPSERT_MEMORY, memoryToValues(memory));
        await this.replaceProvenance(Number(row?.seq), memory.provenance);
      });
    }
    this.caches.reads.invalidateMemory(memory.tenant, memory.id);
    this.lexical.noteWrite();
    this.caches.vectors.updateMeta(memory.tenant, memory.id, { level: memory.level, status: memory.status });
  }

  async appendProvenance(tenant: string, id: string, entry: Provenance): Promise<boolean> {
    const added = await this.handle.transaction(async () => {
      const row = await this.db.get<{ seq: number; provenance: string; provenance_count: number }>(
        'SELECT seq, provenance, provenance_count FROM memories WHERE tenant = ? AND id = ?',
        [tenant, id],
      );
      if (!row) throw new StoreError(`there is no memory "${id}" in the pool of ${tenant}`, 'not-found');
      const next = await this.db.get<{ pos: number | null; dup: number }>(
        `SELECT (SELECT MAX(pos) FROM memory_provenance WHERE seq = ?) AS pos,
                EXISTS (SELECT 1 FROM memory_provenance WHERE seq = ? AND repo = ? AND ref = ?) AS dup`,
        [row.seq, row.seq, entry.repo.toLowerCase(), entry.ref],
      );
      if (next?.dup) return false;
      const [pos, repo, ref, json] = provenanceRow(entry, next?.pos == null ? 0 : next.pos + 1);
      await this.db.run('INSERT INTO memory_provenance (seq, pos, repo, ref, entry) VALUES (?, ?, ?, ?, ?)', [
        row.seq,
        pos,
        repo,
        ref,
        json,
      ]);
      await this.db.run('INSERT OR IGNORE INTO memory_sources (seq, repo) VALUES (?, ?)', [row.seq, repo]);
      const sample = sampleWith(JSON.parse(row.provenance) as Provenance[], entry);
      await this.db.run('UPDATE memories SET provenance = ?, provenance_count = ? WHERE seq = ?', [
        JSON.stringify(sample),
        row.provenance_count + 1,
        row.seq,
      ]);
      return true;
    });
    if (added) this.caches.reads.invalidateMemory(tenant, id);
    return added;
  }

  /** a memory's provenance rows (and the repositories it is filtered by) become exactly `entries` */
  private async replaceProvenance(seq: number, entries: Provenance[]): Promise<void> {
    await this.db.run('DELETE FROM memory_provenance WHERE seq = ?', [seq]);
    await this.db.run('DELETE FROM memory_sources WHERE seq = ?', [seq]);
    if (entries.length === 0) return;
    // one statement for any number of entries: the array is unpacked by SQLite
    const rows = entries.map((entry, i) => provenanceRow(entry, i));
    await this.db.run(
      `INSERT INTO memory_provenance (seq, pos, repo, ref, entry)
       SELECT ?, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]')
       FROM json_each(?)`,
      [seq, JSON.stringify(rows)],
    );
    await this.db.run(
      "INSERT OR IGNORE INTO memory_sources (seq, repo) SELECT DISTINCT ?, json_extract(value, '$[1]') FROM json_each(?)",
      [seq, JSON.stringify(rows)],
    );
  }

  /** memories from their rows, with complete provenance */
  private full(rows: Record<string, unknown>[]): Promise<Memory[]> {
    return withFullProvenance(rows, (seqs) =>
      this.db.all<{ seq: number; entry: string }>(
        'SELECT seq, entry FROM memory_provenance WHERE seq IN (SELECT value FROM json_each(?)) ORDER BY seq, pos',
        [JSON.stringify(seqs.map(Number))],
      ),
    );
  }

  async getMemory(tenant: string, id: string, options: ReadOptions = {}): Promise<Memory | undefined> {
    const row = await this.db.get('SELECT * FROM memories WHERE tenant = ? AND id = ?', [tenant, id]);
    if (!row) return undefined;
    if (options.provenance === 'sample') return rowToMemory(row);
    return (await this.full([row]))[0];
  }

  async getMemories(tenant: string, ids: string[], options: ReadOptions = {}): Promise<Memory[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.all(
      'SELECT * FROM memories WHERE tenant = ? AND id IN (SELECT value FROM json_each(?))',
      [tenant, JSON.stringify(ids)],
    );
    const memories = options.provenance === 'sample' ? rows.map((row) => rowToMemory(row)) : await this.full(rows);
    const byId = new Map(memories.map((memory) => [memory.id, memory]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async poolGeneration(tenant: string): Promise<string> {
    await this.caches.syncWithOtherWriters();
    return String(this.caches.reads.generation(tenant));
  }

  async readMemories(tenant: string, ids: string[]): Promise<readonly Memory[]> {
    if (ids.length === 0) return [];
    await this.caches.syncWithOtherWriters();
    return this.caches.reads.memories(tenant, ids, (missing) =>
      this.getMemories(tenant, missing, { provenance: 'sample' }),
    );
  }

  async listMemories(tenant: string, filter: MemoryFilter = {}): Promise<Memory[]> {
    const { where, params } = filterSql(tenant, filter);
    const rows = await this.db.all(
      `SELECT m.* FROM memories m WHERE ${where} ORDER BY m.updated_at DESC, m.id LIMIT ? OFFSET ?`,
      [...params, filter.limit ?? -1, filter.offset ?? 0],
    );
    return this.full(rows);
  }

  async countMemories(tenant: string, filter: MemoryFilter = {}): Promise<number> {
    const { where, params } = filterSql(tenant, filter);
    const row = await this.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM memories m WHERE ${where}`, params);
    return row?.n ?? 0;
  }

  async deleteMemory(tenant: string, id: string): Promise<boolean> {
    // triggers and foreign keys remove its full-text entry, sources and vectors
    const result = await this.handle.write(() =>
      this.db.run('DELETE FROM memories WHERE tenant = ? AND id = ?', [tenant, id]),
    );
    if (result.changes === 0) return false;
    this.caches.reads.invalidateMemory(tenant, id);
    this.lexical.noteWrite();
    this.caches.vectors.remove(tenant, id);
    return true;
  }

  /** FTS5 keeps deleted tokens in its segments until they are merged; then the WAL is truncated. */
  async purgeDeleted(): Promise<void> {
    await this.handle.serialized(async () => {
      for (const table of Object.values(FTS_TABLES))
        await this.db.exec(`INSERT INTO ${table}(${table}) VALUES('optimize')`);
      await this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    });
  }
}

/** the WHERE clause (over alias m) and its parameters for a MemoryFilter */
function filterSql(tenant: string, filter: MemoryFilter): { where: string; params: SqlValue[] } {
  let where = 'm.tenant = ?';
  const params: SqlValue[] = [tenant];
  if (filter.status) {
    where += ' AND m.status IN (SELECT value FROM json_each(?))';
    params.push(JSON.stringify(filter.status));
  }
  if (filter.level) {
    where += ' AND m.level IN (SELECT value FROM json_each(?))';
    params.push(JSON.stringify(filter.level));
  }
  if (filter.repo !== undefined) {
    where += ' AND m.seq IN (SELECT seq FROM memory_sources WHERE repo = ?)';
    params.push(filter.repo.toLowerCase());
  }
  return { where, params };
}
