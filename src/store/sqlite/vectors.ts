/**
 * The SQLite vector store: vectors as Float32 BLOBs beside an 8-bit code of each (vector_codes),
 * searched through the in-memory index of vector-cache.ts, which loads the codes and re-scores
 * the best candidates against the stored vectors.
 */
import { StoreError } from '../../core/errors.js';
import type { MemoryLevel, MemoryStatus } from '../../core/types.js';
import { encodeVector } from '../../core/retrieval/vector-index.js';
import type { SqliteConnection } from '../sqlite-connection.js';
import type { ScoredId, SearchOptions, VectorStore } from '../store.js';
import { tagCharSql, tagsFromChars, VECTOR_PAGE_ROWS, vectorToBytes } from '../vector-cache.js';
import type { StoredCodes, VectorSink } from '../vector-cache.js';
import type { SqliteCaches } from './caches.js';
import type { SqliteHandle } from './handle.js';

export class SqliteVectorStore implements VectorStore {
  private readonly db: SqliteConnection;

  constructor(
    private readonly handle: SqliteHandle,
    private readonly caches: SqliteCaches,
  ) {
    this.db = handle.db;
  }

  async putVector(tenant: string, id: string, vector: Float32Array, model: string): Promise<void> {
    // one writer at a time (the write queue), so nothing changes between the lookup and the inserts;
    // the vector and its code (what the vector index loads) are written together
    const row = await this.handle.transaction(async () => {
      const memory = await this.db.get<{ seq: number; level: MemoryLevel; status: MemoryStatus }>(
        'SELECT seq, level, status FROM memories WHERE tenant = ? AND id = ?',
        [tenant, id],
      );
      if (!memory) throw new StoreError(`no memory ${id} in ${tenant} to attach a vector to`, 'not-found');
      await this.db.run(
        `INSERT INTO vectors (seq, model, dims, data) VALUES (?, ?, ?, ?)
         ON CONFLICT (seq, model) DO UPDATE SET dims = excluded.dims, data = excluded.data`,
        [memory.seq, model, vector.length, vectorToBytes(vector)],
      );
      await this.db.run(
        `INSERT INTO vector_codes (seq, model, code) VALUES (?, ?, ?)
         ON CONFLICT (seq, model) DO UPDATE SET code = excluded.code`,
        [memory.seq, model, Buffer.from(encodeVector(vector))],
      );
      return memory;
    });
    this.caches.vectors.upsertVector(tenant, model, id, vector, { level: row.level, status: row.status });
    this.caches.reads.invalidateMemory(tenant, id);
  }

  async searchVector(tenant: string, vector: Float32Array, model: string, options: SearchOptions): Promise<ScoredId[]> {
    await this.caches.syncWithOtherWriters();
    return this.caches.vectors.search(tenant, model, vector, options);
  }

  async listIdsWithoutVector(tenant: string, model: string, levels: MemoryLevel[]): Promise<string[]> {
    const rows = await this.db.all<{ id: string }>(
      `SELECT m.id FROM memories m WHERE m.tenant = ? AND m.level IN (SELECT value FROM json_each(?))
         AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.seq = m.seq AND v.model = ?) ORDER BY m.seq`,
      [tenant, JSON.stringify(levels), model],
    );
    return rows.map((r) => r.id);
  }
}

/**
 * Every vector code of the tenant and model (see VectorLoader), in pages by seq: each page is one
 * row of aggregates (the page's ids, levels and statuses as JSON arrays, its codes concatenated
 * into one blob), so reading 100,000 codes makes ~50 rows, not 100,000 row objects.
 */
export async function loadVectors(
  db: SqliteConnection,
  tenant: string,
  model: string,
  sink: VectorSink,
): Promise<void> {
  const first = await db.get<{ n: number }>(
    `SELECT length(c.code) AS n FROM vector_codes c CROSS JOIN memories m INDEXED BY memories_cover ON m.seq = c.seq
     WHERE m.tenant = ? AND c.model = ? LIMIT 1`,
    [tenant, model],
  );
  const stride = first?.n ?? 0;
  if (stride <= 4) return;
  type PageRow = { n: number; last: number | null; ids: string; tags: string; codes: Buffer };
  // CROSS JOIN: walk the codes in key order (each page a range of the primary key); joined the
  // other way round, SQLite sorted every page from the tenant's whole index (quadratic). Every
  // aggregate sees the rows in the same order, so ids[i], tag i and code i are one row's.
  const pageSql = (aggregate: boolean) => {
    const rows = `SELECT c.seq, m.id, ${tagCharSql('m.level', 'm.status')} AS tag, c.code
       FROM vector_codes c CROSS JOIN memories m INDEXED BY memories_cover ON m.seq = c.seq
       WHERE m.tenant = ? AND c.model = ? AND c.seq > ? AND length(c.code) = ? ORDER BY c.seq LIMIT ?`;
    return aggregate
      ? `SELECT COUNT(*) AS n, MAX(p.seq) AS last, json_group_array(p.id) AS ids, group_concat(p.tag, '') AS tags,
           CAST(group_concat(p.code, '') AS BLOB) AS codes FROM (${rows}) p`
      : rows;
  };
  const page = (after: number): Promise<PageRow | undefined> =>
    db.get<PageRow>(pageSql(true), [tenant, model, after, stride, VECTOR_PAGE_ROWS]);
  const add = async (row: PageRow, after: number): Promise<void> => {
    const codes: StoredCodes = {
      ids: JSON.parse(row.ids) as string[],
      tags: tagsFromChars(row.tags),
      dims: stride - 4,
      codes: row.codes,
    };
    if (sink.addCodes(codes)) return;
    // (never seen) the concatenation did not give n codes: the same page row by row
    type CodeRow = { id: string; tag: string; code: Buffer };
    const rows = await db.all<CodeRow>(pageSql(false), [tenant, model, after, stride, VECTOR_PAGE_ROWS]);
    for (const r of rows) sink.addCodes({ ids: [r.id], tags: tagsFromChars(r.tag), dims: stride - 4, codes: r.code });
  };
  // pipelined: the next page is read (on SQLite's thread) while this one is copied into the index
  let after = -1;
  let next: Promise<PageRow | undefined> | undefined = page(after);
  while (next) {
    const row: PageRow | undefined = await next;
    if (!row || !row.n || row.last === null) return;
    const from = after;
    after = row.last;
    next = row.n === VECTOR_PAGE_ROWS ? page(after) : undefined;
    next?.catch(() => undefined);
    await add(row, from);
  }
}

/** the stored Float32 vectors of these ids (see VectorReader): what a search re-scores exactly */
export async function readVectors(
  db: SqliteConnection,
  tenant: string,
  model: string,
  ids: string[],
): Promise<Map<string, Uint8Array>> {
  const rows = await db.all<{ id: string; data: Buffer }>(
    `SELECT m.id, v.data FROM memories m CROSS JOIN vectors v ON v.seq = m.seq AND v.model = ?
     WHERE m.tenant = ? AND m.id IN (SELECT value FROM json_each(?))`,
    [model, tenant, JSON.stringify(ids)],
  );
  return new Map(rows.map((r) => [r.id, r.data]));
}
