/**
 * Row mapping, the one place both stores turn domain values into columns and back.
 * Memory scalars are columns (filterable, indexable); nested parts are JSON text (the identity's
 * `routines` and `examples` too: arrays of strings).
 */
import { StoreError } from '../core/errors.js';
import { legacyIdentity, type FullIdentity } from '../core/knowledge/identity.js';
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
  'provenance_count',
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
  'lesson',
  'routines',
  'facet',
  'examples',
  'writer',
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
    JSON.stringify(sampleProvenance(memory.provenance)),
    memory.provenanceCount ?? memory.provenance.length,
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
    memory.lesson,
    JSON.stringify(memory.routines),
    memory.facet,
    JSON.stringify(memory.examples),
    memory.writer,
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

/** How many provenance entries the memory row keeps inline (the rest live in memory_provenance only). */
export const PROVENANCE_SAMPLE = 5;

/**
 * The representative sources a memory row keeps inline: the first entry of each distinct
 * repository, in order, at most PROVENANCE_SAMPLE (so the origin comes first, and "every source is
 * in repository X" reads the same on the sample as on the whole list).
 */
export function sampleProvenance(entries: readonly Provenance[]): Provenance[] {
  const seen = new Set<string>();
  const sample: Provenance[] = [];
  for (const entry of entries) {
    if (sample.length >= PROVENANCE_SAMPLE) break;
    const repo = entry.repo.toLowerCase();
    if (seen.has(repo)) continue;
    seen.add(repo);
    sample.push(entry);
  }
  return sample;
}

/** The sample after one more entry is appended to the whole list (same result as sampling it again). */
export function sampleWith(sample: readonly Provenance[], entry: Provenance): Provenance[] {
  const repo = entry.repo.toLowerCase();
  if (sample.length >= PROVENANCE_SAMPLE || sample.some((p) => p.repo.toLowerCase() === repo)) return [...sample];
  return [...sample, entry];
}

/** A memory whose provenance is a sample (read for recall or learning), not the whole list. */
export function isSampled(memory: Memory): boolean {
  return memory.provenanceCount !== undefined;
}

/** The values of one memory_provenance row: position, lower-cased repo, ref, the entry as JSON. */
export function provenanceRow(entry: Provenance, pos: number): [number, string, string, string] {
  return [pos, entry.repo.toLowerCase(), entry.ref, JSON.stringify(entry)];
}

/**
 * A memory from its row. With `full` (the memory_provenance entries, in order) the provenance is
 * complete; without, it is the row's sample and `provenanceCount` says how many there are. A row
 * whose sample is the whole list (one entry per distinct repository, five at most) is complete as it is.
 */
export function rowToMemory(row: Record<string, unknown>, full?: Provenance[]): Memory {
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
    provenance: full ?? (JSON.parse(String(row.provenance)) as Provenance[]),
    visibility: row.visibility as Memory['visibility'],
    status: row.status as Memory['status'],
    votes: { up: Number(row.votes_up), down: Number(row.votes_down) },
    support: Number(row.support),
    uses: Number(row.uses),
    outcomes: { success: Number(row.outcomes_success), failure: Number(row.outcomes_failure) },
    model: String(row.model),
    ...identityOf(row),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
  };
  if (row.shared_wider_by != null) memory.sharedWiderBy = String(row.shared_wider_by);
  if (row.last_used_at != null) memory.lastUsedAt = String(row.last_used_at);
  if (!full) memory.provenanceCount = Number(row.provenance_count);
  return memory;
}

/**
 * A row's identity: its columns; a row of a pool before schema 7 (read as it is by a command that
 * only reads: `sqliteReadsWithout`) has none, and gets what its tags, content and model held.
 */
function identityOf(row: Row): FullIdentity {
  if (row.writer === undefined)
    return legacyIdentity({
      level: row.level as Memory['level'],
      tags: JSON.parse(String(row.tags)) as string[],
      content: String(row.content),
      model: String(row.model),
    });
  return {
    lesson: row.lesson == null ? null : String(row.lesson),
    routines: JSON.parse(String(row.routines)) as string[],
    facet: row.facet == null ? null : String(row.facet),
    examples: JSON.parse(String(row.examples)) as string[],
    writer: row.writer as Memory['writer'],
  };
}

/** One memory_provenance row as read back. */
export interface ProvenanceEntryRow {
  seq: unknown;
  entry: string;
}

/**
 * Memories with complete provenance from their rows: a row whose sample is its whole list is used
 * as it is; the others get their entries, in order, from memory_provenance (one `load` for all).
 */
export async function withFullProvenance(
  rows: Row[],
  load: (seqs: string[]) => Promise<ProvenanceEntryRow[]>,
): Promise<Memory[]> {
  const memories = rows.map((row) => rowToMemory(row));
  const wanted = new Map<string, Memory>();
  memories.forEach((memory, i) => {
    if (memory.provenanceCount !== memory.provenance.length) wanted.set(String(rows[i]?.seq), memory);
    delete memory.provenanceCount;
  });
  if (wanted.size === 0) return memories;
  const entries = new Map<string, Provenance[]>();
  for (const row of await load([...wanted.keys()])) {
    const seq = String(row.seq);
    let list = entries.get(seq);
    if (!list) entries.set(seq, (list = []));
    list.push(JSON.parse(row.entry) as Provenance);
  }
  for (const [seq, memory] of wanted) memory.provenance = entries.get(seq) ?? [];
  return memories;
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
