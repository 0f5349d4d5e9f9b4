/**
 * The PostgreSQL vector store: vectors as bytea (pgvector is not required), searched through the
 * in-memory index of vector-cache.ts, which encodes them as it loads them.
 */
import { StoreError } from '../../core/errors.js';
import type { MemoryLevel, MemoryStatus } from '../../core/types.js';
import type { Row } from '../sql/handle.js';
import type { ScoredId, SearchOptions, VectorStore } from '../store.js';
import { VECTOR_PAGE_ROWS, vectorToBytes } from '../vector-cache.js';
import type { VectorSink } from '../vector-cache.js';
import type { PostgresCaches } from './caches.js';
import type { PostgresHandle } from './handle.js';

export class PostgresVectorStore implements VectorStore {
  constructor(
    private readonly handle: PostgresHandle,
    private readonly caches: PostgresCaches,
  ) {}

  async putVector(tenant: string, id: string, vector: Float32Array, model: string): Promise<void> {
    const rows = await this.handle.query(
      `INSERT INTO vectors (seq, model, dims, data)
       SELECT seq, $3, $4, $5 FROM memories WHERE tenant = $1 AND id = $2
       ON CONFLICT (seq, model) DO UPDATE SET dims = excluded.dims, data = excluded.data
       RETURNING (SELECT level FROM memories WHERE tenant = $1 AND id = $2) AS level,
                 (SELECT status FROM memories WHERE tenant = $1 AND id = $2) AS status`,
      [tenant, id, model, vector.length, vectorToBytes(vector)],
    );
    const row = rows[0];
    if (!row) throw new StoreError(`no memory ${id} in ${tenant} to attach a vector to`, 'not-found');
    this.caches.vectors.upsertVector(tenant, model, id, vector, {
      level: row.level as MemoryLevel,
      status: row.status as MemoryStatus,
    });
    this.caches.reads.invalidateMemory(tenant, id);
  }

  searchVector(tenant: string, vector: Float32Array, model: string, options: SearchOptions): Promise<ScoredId[]> {
    return this.caches.vectors.search(tenant, model, vector, options);
  }

  async listIdsWithoutVector(tenant: string, model: string, levels: MemoryLevel[]): Promise<string[]> {
    const rows = await this.handle.query(
      `SELECT m.id FROM memories m WHERE m.tenant = $1 AND m.level = ANY($2::text[])
         AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.seq = m.seq AND v.model = $3) ORDER BY m.seq`,
      [tenant, levels, model],
    );
    return rows.map((r) => String(r.id));
  }
}

/** the stored Float32 vectors of these ids (see VectorReader): what a search re-scores exactly */
export async function readVectors(
  handle: PostgresHandle,
  tenant: string,
  model: string,
  ids: string[],
): Promise<Map<string, Uint8Array>> {
  const rows = await handle.query(
    `SELECT m.id, v.data FROM memories m JOIN vectors v ON v.seq = m.seq AND v.model = $2
     WHERE m.tenant = $1 AND m.id = ANY($3::text[])`,
    [tenant, model, ids],
  );
  return new Map(rows.map((r) => [String(r.id), r.data as Buffer]));
}

/** every vector of the tenant and model, in pages by seq (see VectorLoader; the index encodes each) */
export async function loadVectors(
  handle: PostgresHandle,
  tenant: string,
  model: string,
  sink: VectorSink,
): Promise<void> {
  const page = (after: string): Promise<Row[]> =>
    handle.query(
      `SELECT v.seq, m.id, m.level, m.status, v.data FROM vectors v JOIN memories m ON m.seq = v.seq
       WHERE m.tenant = $1 AND v.model = $2 AND v.seq > $3 ORDER BY v.seq LIMIT $4`,
      [tenant, model, after, VECTOR_PAGE_ROWS],
    );
  // pipelined: the next page is read while this one is encoded into the index
  let next: Promise<Row[]> | undefined = page('-1');
  next.catch(() => undefined);
  while (next) {
    const rows: Row[] = await next;
    const last = rows[rows.length - 1];
    next = rows.length === VECTOR_PAGE_ROWS && last ? page(String(last.seq)) : undefined;
    next?.catch(() => undefined);
    for (const r of rows) {
      sink.add({
        id: String(r.id),
        level: r.level as MemoryLevel,
        status: r.status as MemoryStatus,
        data: r.data as Buffer,
      });
    }
  }
}
