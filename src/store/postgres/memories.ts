/**
 * The PostgreSQL memory store: memories (one row each, a bounded sample of their provenance on the
 * row, a generated tsvector), their provenance rows (memory_provenance) and repositories
 * (memory_sources), and their full-text search (lexical-search.ts).
 */
import { StoreError } from '../../core/errors.js';
import type { Memory, Provenance } from '../../core/types.js';
import {
  isSampled,
  MEMORY_COLUMNS,
  memoryRepos,
  memoryToValues,
  provenanceRow,
  rowToMemory,
  sampleWith,
  tagsText,
  withFullProvenance,
} from '../rows.js';
import type { Row } from '../sql/handle.js';
import type { MemoryFilter, MemoryStore, ReadOptions, ScoredId, SearchOptions } from '../store.js';
import type { PostgresCaches } from './caches.js';
import type { PostgresHandle } from './handle.js';
import { PostgresLexicalSearch } from './lexical-search.js';
import type { PostgresUpkeep } from './upkeep.js';

const COLUMNS = [...MEMORY_COLUMNS, 'tags_text'];
/**
 * the memory upsert; `keep` columns are left as they are on an existing row. `inserted`: the row
 * is new (a row inserted by this statement has no xmax; an updated one has the updating transaction's)
 */
function upsertMemory(keep: readonly string[]): string {
  return `INSERT INTO memories (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})
  ON CONFLICT (tenant, id) DO UPDATE SET ${COLUMNS.filter((c) => c !== 'tenant' && c !== 'id' && !keep.includes(c))
    .map((c) => `${c} = excluded.${c}`)
    .join(', ')}
  RETURNING seq, (xmax = 0) AS inserted`;
}
/** a memory with complete provenance: every column */
const UPSERT_MEMORY = upsertMemory([]);
/** a memory read with a sample of its provenance: the stored provenance, sample and count stay */
const UPSERT_MEMORY_KEEP_SOURCES = upsertMemory(['provenance', 'provenance_count']);
/** the columns a memory is read from (seq: its provenance rows) */
const READ_COLUMNS = ['seq', ...MEMORY_COLUMNS].join(', ');

export class PostgresMemoryStore implements MemoryStore {
  private readonly lexical: PostgresLexicalSearch;

  constructor(
    private readonly handle: PostgresHandle,
    private readonly caches: PostgresCaches,
    private readonly upkeep: PostgresUpkeep,
  ) {
    this.lexical = new PostgresLexicalSearch(handle, caches, upkeep, (tenant, ids) => this.readMemories(tenant, ids));
  }

  searchLexical(tenant: string, query: string, options: SearchOptions): Promise<ScoredId[]> {
    return this.lexical.search(tenant, query, options);
  }

  async putMemory(memory: Memory): Promise<void> {
    const values = [...memoryToValues(memory), tagsText(memory.tags)];
    if (isSampled(memory)) {
      await this.handle.query(UPSERT_MEMORY_KEEP_SOURCES, values);
    } else {
      await this.handle.transaction(async () => {
        const rows = await this.handle.query(UPSERT_MEMORY, values);
        const seq = rows[0]?.seq as string;
        // a new row has no provenance or sources yet: nothing to delete (two round trips fewer)
        if (rows[0]?.inserted !== true) {
          await this.handle.query('DELETE FROM memory_provenance WHERE seq = $1', [seq]);
          await this.handle.query('DELETE FROM memory_sources WHERE seq = $1', [seq]);
        }
        if (memory.provenance.length > 0) {
          const rows = memory.provenance.map((entry, i) => provenanceRow(entry, i));
          await this.handle.query(
            `INSERT INTO memory_provenance (seq, pos, repo, ref, entry)
             SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[])`,
            [seq, rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2]), rows.map((r) => r[3])],
          );
        }
        await this.handle.query(
          'INSERT INTO memory_sources (seq, repo) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING',
          [seq, memoryRepos(memory)],
        );
      });
    }
    this.noteMemoryWrite(memory.tenant, memory.id);
    this.caches.vectors.updateMeta(memory.tenant, memory.id, { level: memory.level, status: memory.status });
  }

  async appendProvenance(tenant: string, id: string, entry: Provenance): Promise<boolean> {
    const added = await this.handle.transaction(async () => {
      // the row lock orders concurrent appends to one memory
      const rows = await this.handle.query(
        'SELECT seq, provenance, provenance_count FROM memories WHERE tenant = $1 AND id = $2 FOR UPDATE',
        [tenant, id],
      );
      const row = rows[0];
      if (!row) throw new StoreError(`there is no memory "${id}" in the pool of ${tenant}`, 'not-found');
      const next = await this.handle.query(
        `SELECT (SELECT MAX(pos) FROM memory_provenance WHERE seq = $1) AS pos,
                EXISTS (SELECT 1 FROM memory_provenance WHERE seq = $1 AND repo = $2 AND ref = $3) AS dup`,
        [row.seq, entry.repo.toLowerCase(), entry.ref],
      );
      if (next[0]?.dup === true) return false;
      const last = next[0]?.pos;
      const [pos, repo, ref, json] = provenanceRow(entry, last == null ? 0 : Number(last) + 1);
      await this.handle.query(
        'INSERT INTO memory_provenance (seq, pos, repo, ref, entry) VALUES ($1, $2, $3, $4, $5)',
        [row.seq, pos, repo, ref, json],
      );
      await this.handle.query('INSERT INTO memory_sources (seq, repo) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
        row.seq,
        repo,
      ]);
      const sample = sampleWith(JSON.parse(String(row.provenance)) as Provenance[], entry);
      await this.handle.query('UPDATE memories SET provenance = $1, provenance_count = $2 WHERE seq = $3', [
        JSON.stringify(sample),
        Number(row.provenance_count) + 1,
        row.seq,
      ]);
      return true;
    });
    // no text changed: the term counts stand (as in SQLite, which counts the same writes)
    if (added) this.noteMemoryWrite(tenant, id, false);
    return added;
  }

  /** memories from their rows, with complete provenance */
  private full(rows: Row[]): Promise<Memory[]> {
    return withFullProvenance(rows, async (seqs) =>
      (
        await this.handle.query(
          'SELECT seq, entry FROM memory_provenance WHERE seq = ANY($1::bigint[]) ORDER BY seq, pos',
          [seqs],
        )
      ).map((r) => ({ seq: r.seq, entry: String(r.entry) })),
    );
  }

  async getMemory(tenant: string, id: string, options: ReadOptions = {}): Promise<Memory | undefined> {
    const rows = await this.handle.query(`SELECT ${READ_COLUMNS} FROM memories WHERE tenant = $1 AND id = $2`, [
      tenant,
      id,
    ]);
    if (!rows[0]) return undefined;
    if (options.provenance === 'sample') return rowToMemory(rows[0]);
    return (await this.full(rows))[0];
  }

  async getMemories(tenant: string, ids: string[], options: ReadOptions = {}): Promise<Memory[]> {
    if (ids.length === 0) return [];
    const rows = await this.handle.query(
      `SELECT ${READ_COLUMNS} FROM memories WHERE tenant = $1 AND id = ANY($2::text[])`,
      [tenant, ids],
    );
    const memories = options.provenance === 'sample' ? rows.map((row) => rowToMemory(row)) : await this.full(rows);
    const byId = new Map(memories.map((memory) => [memory.id, memory]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** Cached while other replicas' writes are heard; outside transactions (their writes are not everyone's). */
  async readMemories(tenant: string, ids: string[]): Promise<readonly Memory[]> {
    const sample = { provenance: 'sample' } as const;
    if (!this.caches.listening || this.handle.inTransaction) return this.getMemories(tenant, ids, sample);
    return this.caches.reads.memories(tenant, ids, (missing) => this.getMemories(tenant, missing, sample));
  }

  /** Exact while other replicas' writes are heard; undefined (nothing may be cached) otherwise. */
  async poolGeneration(tenant: string): Promise<string | undefined> {
    return this.caches.listening ? String(this.caches.reads.generation(tenant)) : undefined;
  }

  async listMemories(tenant: string, filter: MemoryFilter = {}): Promise<Memory[]> {
    const { where, params } = filterSql(tenant, filter);
    params.push(filter.limit ?? null, filter.offset ?? 0);
    const rows = await this.handle.query(
      `SELECT m.seq, ${MEMORY_COLUMNS.map((c) => `m.${c}`).join(', ')} FROM memories m WHERE ${where}
       ORDER BY m.updated_at DESC, m.id LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    return this.full(rows);
  }

  async countMemories(tenant: string, filter: MemoryFilter = {}): Promise<number> {
    const { where, params } = filterSql(tenant, filter);
    const rows = await this.handle.query(`SELECT COUNT(*)::int AS n FROM memories m WHERE ${where}`, params);
    return Number(rows[0]?.n ?? 0);
  }

  async deleteMemory(tenant: string, id: string): Promise<boolean> {
    const rows = await this.handle.query('DELETE FROM memories WHERE tenant = $1 AND id = $2 RETURNING seq', [
      tenant,
      id,
    ]);
    if (rows.length === 0) return false;
    this.noteMemoryWrite(tenant, id);
    this.caches.vectors.remove(tenant, id);
    return true;
  }

  /** after a memory row was written; `text` false: its text is unchanged (term counts stand) */
  private noteMemoryWrite(tenant: string, id: string, text = true): void {
    this.handle.noteWrite();
    if (text) this.lexical.noteWrite();
    this.upkeep.cleanWhenWritten();
    this.caches.reads.invalidateMemory(tenant, id);
  }
}

/** the WHERE clause (over alias m) and its parameters for a MemoryFilter */
function filterSql(tenant: string, filter: MemoryFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [tenant];
  let where = 'm.tenant = $1';
  if (filter.status) {
    params.push(filter.status);
    where += ` AND m.status = ANY($${params.length}::text[])`;
  }
  if (filter.level) {
    params.push(filter.level);
    where += ` AND m.level = ANY($${params.length}::text[])`;
  }
  if (filter.repo !== undefined) {
    params.push(filter.repo.toLowerCase());
    where += ` AND m.seq IN (SELECT seq FROM memory_sources WHERE repo = $${params.length})`;
  }
  return { where, params };
}
