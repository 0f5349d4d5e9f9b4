/**
 * The one place that decides whether a memory may be shown to a requester (tenant, status,
 * visibility). Used by recall for the CLI, the App's comments, the recall API and pool files.
 */
import type { Memory, MemoryStatus, Requester, Visibility } from './types.js';

const RANK: Record<Visibility, number> = { public: 0, internal: 1, private: 2 };

/** The most private of the given visibilities (private when none is given). */
export function mostPrivate(visibilities: Visibility[]): Visibility {
  if (visibilities.length === 0) return 'private';
  return visibilities.reduce((a, b) => (RANK[b] > RANK[a] ? b : a));
}

/** May knowledge from a source of this visibility flow to a reader of that visibility? */
export function flowsTo(source: Visibility, reader: Visibility): boolean {
  return RANK[reader] >= RANK[source];
}

export const DEFAULT_RECALL_STATUSES: MemoryStatus[] = ['active'];

/**
 * True when the requester may see the memory: same tenant, an allowed status, and (for a
 * requester in a repository) a reader at least as private as every source, unless an admin
 * shared it wider within the org.
 */
export function maySee(memory: Memory, requester: Requester): boolean {
  if (memory.tenant !== requester.tenant) return false;
  const statuses = requester.statuses ?? DEFAULT_RECALL_STATUSES;
  if (!statuses.includes(memory.status)) return false;
  if (requester.repo === undefined && requester.visibility === undefined) return true;
  if (memory.sharedWiderBy) return true;
  const reader = requester.visibility ?? 'public';
  return flowsTo(memory.visibility, reader);
}

/**
 * May the reader open a link to this source? Only same-org readers in a repository at least as
 * private as the source, or the source repository itself.
 */
export function mayLinkSource(source: { repo: string; visibility: Visibility }, requester: Requester): boolean {
  if (requester.repo !== undefined && requester.repo.toLowerCase() === source.repo.toLowerCase()) return true;
  if (requester.repo === undefined && requester.visibility === undefined) return true;
  return flowsTo(source.visibility, requester.visibility ?? 'public');
}
