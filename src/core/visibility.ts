/**
 * The one place that decides whether a memory may be shown to a requester (tenant, status,
 * visibility). Used by recall for the CLI, the App's comments, the recall API and pool files.
 *
 * Fail closed: tenants compare case-insensitively and never mix; a memory is as private as the
 * most private of its stored visibility and every provenance entry (so a stale `visibility`
 * field cannot widen it); a provenance entry of another tenant, or a visibility value this
 * version does not know, makes the memory unreadable to repositories; a requester in a
 * repository without a known visibility reads as public.
 */
import { tenantOf } from './ids.js';
import type { Memory, MemoryStatus, Requester, Visibility } from './types.js';

const RANK: Record<Visibility, number> = { public: 0, internal: 1, private: 2 };

function isVisibility(value: unknown): value is Visibility {
  return typeof value === 'string' && Object.hasOwn(RANK, value);
}

/** An unknown value read as a source is treated as private; read as a reader, as public. */
function sourceRank(value: unknown): number {
  return isVisibility(value) ? RANK[value] : RANK.private;
}
function readerRank(value: unknown): number {
  return isVisibility(value) ? RANK[value] : RANK.public;
}

/** The most private of the given visibilities (private when none is given or one is unknown). */
export function mostPrivate(visibilities: Visibility[]): Visibility {
  if (visibilities.length === 0) return 'private';
  let most: Visibility = 'public';
  for (const visibility of visibilities) {
    if (!isVisibility(visibility)) return 'private';
    if (RANK[visibility] > RANK[most]) most = visibility;
  }
  return most;
}

/** May knowledge from a source of this visibility flow to a reader of that visibility? */
export function flowsTo(source: Visibility, reader: Visibility): boolean {
  return readerRank(reader) >= sourceRank(source);
}

/**
 * The visibility of a repository named by hand (`recall --repo`, `mcp --repo`, the MCP `repo`
 * argument of a local server) when none is given: private, as `learn` records its sources. In a
 * workflow a repository reads with the visibility its event says (public when it does not say).
 */
export const DEFAULT_REPO_VISIBILITY: Visibility = 'private';

export const DEFAULT_RECALL_STATUSES: MemoryStatus[] = ['active'];

function sameTenant(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** The memory's effective visibility: the most private of its field and every source. */
export function effectiveVisibility(memory: Pick<Memory, 'visibility' | 'provenance'>): Visibility {
  return mostPrivate([memory.visibility, ...memory.provenance.map((p) => p.visibility)]);
}

/**
 * True when the requester may see the memory: same tenant, an allowed status, and (for a
 * requester in a repository) a reader at least as private as every source, unless an admin
 * shared it wider within the org. A local admin (no repo, no visibility) sees every visibility
 * of its own tenant.
 */
export function maySee(memory: Memory, requester: Requester): boolean {
  if (!sameTenant(memory.tenant, requester.tenant)) return false;
  const statuses = requester.statuses ?? DEFAULT_RECALL_STATUSES;
  if (!statuses.includes(memory.status)) return false;
  if (requester.repo === undefined && requester.visibility === undefined) return true;
  // knowledge of another organization never reaches a repository, shared wider or not
  if (memory.provenance.some((p) => !sameTenant(p.tenant, memory.tenant))) return false;
  if (memory.sharedWiderBy) return true;
  return flowsTo(effectiveVisibility(memory), requester.visibility ?? 'public');
}

/**
 * May the reader be told of this source (and open a link to it)? A local admin (no repository, no
 * visibility) of its own pool, whatever the owners of the repositories learned into it (the CLI's
 * one pool); a reader in a repository never across organizations: the source repository itself,
 * or a reader at least as private as the source.
 */
export function mayLinkSource(source: { repo: string; visibility: Visibility }, requester: Requester): boolean {
  if (requester.repo === undefined && requester.visibility === undefined) return true;
  if (!sameTenant(tenantOf(source.repo), requester.tenant)) return false;
  if (requester.repo !== undefined && requester.repo.toLowerCase() === source.repo.toLowerCase()) return true;
  return flowsTo(source.visibility, requester.visibility ?? 'public');
}

/**
 * May this memory's level be served to the requester? Only insights transfer. The concrete levels
 * (summary, workflow, trajectory: a fix's own text, steps and commands, screened but not written
 * for other readers) are served only in the repository every one of their sources is in, whatever
 * the mode (CLI, recall API, pool file). A local admin (no repository, no visibility) reads every
 * level of its own pool; a reader with a visibility but no repository is nobody's home.
 * A source and a reader that both carry a repository id compare by id (a repository deleted and
 * created again under the same name is another repository).
 */
export function mayServeLevel(memory: Pick<Memory, 'level' | 'provenance'>, requester: Requester): boolean {
  if (memory.level === 'insight') return true;
  if (requester.repo === undefined) return requester.visibility === undefined;
  const home = requester.repo.toLowerCase();
  return (
    memory.provenance.length > 0 &&
    memory.provenance.every((p) =>
      p.repoId !== undefined && requester.repoId !== undefined
        ? p.repoId === requester.repoId
        : p.repo.toLowerCase() === home,
    )
  );
}
