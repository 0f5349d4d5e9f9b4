/**
 * Row mapping, the one place both stores turn domain values into columns and back.
 * Memory scalars are columns (filterable, indexable); nested parts are JSON text.
 */
import { StoreError } from '../core/errors.js';
import { MEMORY_LEVELS, MEMORY_STATUSES } from '../core/types.js';
import type { AuditEntry, Memory, MemoryBody, Provenance } from '../core/types.js';
import type { Job, NewJob, PoolStats, UsageRecord } from './store.js';

type Row = Record<string, unknown>;

/** Column names in insert order (both stores use the same columns; PostgreSQL adds tags_text). */
export const MEMORY_COLUMNS = [
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
] as const;

export type MemoryValue = string | number | null;

/** The values for MEMORY_COLUMNS, in order. */
export function memoryToValues(memory: Memory): MemoryValue[] {
  return [
    memory.tenant,
    memory.id,
    memory.level,
    memory.status,
    memory.visibility,
    memory.title,
    memory.description,
    memory.content,
    JSON.stringify(memory.tags),
    JSON.stringify(memory.evidence),
    JSON.stringify(memory.provenance),
    JSON.stringify(memory.body),
    memory.sharedWiderBy ?? null,
    memory.votes.up,
    memory.votes.down,
    memory.support,
    memory.uses,
    memory.outcomes.success,
    memory.outcomes.failure,
    memory.model,
    memory.createdAt,
    memory.updatedAt,
    memory.lastUsedAt ?? null,
  ];
}

/** Text indexed for full-text search from the tags: "lang:typescript" → "lang typescript". */
export function tagsText(tags: string[]): string {
  return tags
    .join(' ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The lower-cased repositories a memory was learned from (for MemoryFilter.repo). */
export function memoryRepos(memory: Memory): string[] {
  return [...new Set(memory.provenance.map((p) => p.repo.toLowerCase()))];
}

export function rowToMemory(row: Record<string, unknown>): Memory {
  const memory: Memory = {
    id: String(row.id),
    tenant: String(row.tenant),
    level: row.level as Memory['level'],
    title: String(row.title),
    description: String(row.description),
    content: String(row.content),
    body: JSON.parse(String(row.body)) as MemoryBody,
    tags: JSON.parse(String(row.tags)) as string[],
    evidence: JSON.parse(String(row.evidence)) as string[],
    provenance: JSON.parse(String(row.provenance)) as Provenance[],
    visibility: row.visibility as Memory['visibility'],
    status: row.status as Memory['status'],
    votes: { up: Number(row.votes_up), down: Number(row.votes_down) },
    support: Number(row.support),
    uses: Number(row.uses),
    outcomes: { success: Number(row.outcomes_success), failure: Number(row.outcomes_failure) },
    model: String(row.model),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
  };
  if (row.shared_wider_by != null) memory.sharedWiderBy = String(row.shared_wider_by);
  if (row.last_used_at != null) memory.lastUsedAt = String(row.last_used_at);
  return memory;
}

/** ISO 8601 in the one canonical form, so times compare as strings */
export function iso(time: string): string {
  const date = new Date(time);
  if (Number.isNaN(date.getTime())) throw new StoreError(`not a valid time: ${JSON.stringify(time)}`, 'conflict');
  return date.toISOString();
}

/** a job's raw bytes as a query parameter (BLOB / BYTEA; null when it has none) */
export function jobBody(job: NewJob): Buffer | null {
  if (!job.body) return null;
  return Buffer.isBuffer(job.body) ? job.body : Buffer.from(job.body.buffer, job.body.byteOffset, job.body.byteLength);
}

export function rowToJob(row: Row): Job {
  const job: Job = {
    id: Number(row.id),
    key: String(row.key),
    kind: String(row.kind),
    payload: JSON.parse(String(row.payload)) as unknown,
    attempts: Number(row.attempts),
    runAfter: String(row.run_after),
  };
  if (row.last_error != null) job.lastError = String(row.last_error);
  if (row.body != null) job.body = Buffer.isBuffer(row.body) ? row.body : Buffer.from(row.body as Uint8Array);
  return job;
}

export function rowToAudit(row: Row): AuditEntry {
  const entry: AuditEntry = {
    tenant: String(row.tenant),
    actor: String(row.actor),
    action: row.action as AuditEntry['action'],
    at: String(row.at),
  };
  if (row.memory_id != null) entry.memoryId = String(row.memory_id);
  if (row.detail != null) entry.detail = String(row.detail);
  return entry;
}

export function rowToUsage(row: Row): UsageRecord {
  return {
    tenant: String(row.tenant),
    memoryId: String(row.memory_id),
    repo: String(row.repo),
    runRef: String(row.run_ref),
    at: String(row.at),
  };
}

export function statsFrom(
  groups: { level: string; status: string; n: number | string }[],
  repos: number,
  fixes: number,
  fixesByFallback = 0,
): PoolStats {
  const byLevel: Record<string, number> = Object.fromEntries(MEMORY_LEVELS.map((l) => [l, 0]));
  const byStatus: Record<string, number> = Object.fromEntries(MEMORY_STATUSES.map((s) => [s, 0]));
  let memories = 0;
  for (const g of groups) {
    const n = Number(g.n);
    memories += n;
    byLevel[g.level] = (byLevel[g.level] ?? 0) + n;
    byStatus[g.status] = (byStatus[g.status] ?? 0) + n;
  }
  return {
    memories,
    byLevel,
    byStatus,
    repos: Number(repos),
    fixes: Number(fixes),
    fixesByFallback: Number(fixesByFallback),
  };
}
