/**
 * Who looks at the report or the dashboard, and what they may see of the pool. Built on the one
 * visibility rule (./visibility.ts): a local admin (the CLI's `report`) sees all of its tenant; a
 * signed-in member of the organization sees what is public or internal in it, and what comes
 * from private repositories only when they can read every private repository it was learned in
 * (or an admin shared it wider). A source is named only to a viewer who may open it; the others
 * are counted as "a private repository". Fail closed: unknown visibilities count as private, and
 * knowledge of another organization is never shown to a member.
 */
import { tenantOf } from '../ids.js';
import type { Memory, Provenance } from '../types.js';
import { effectiveVisibility } from '../visibility.js';

export interface MemberAccess {
  login: string;
  /** owner/name of the organization's repositories the member can read (any case) */
  readable: readonly string[];
  /** owner/name of the repositories the member can write to (push or more) */
  writable: readonly string[];
}

export interface Viewer {
  tenant: string;
  /** absent: a local admin (the CLI), who sees everything of its tenant and changes nothing from a page */
  member?: MemberAccess;
}

/** The label of a source or receiving repository the viewer may not name. */
export const HIDDEN_REPO = 'a private repository';

function same(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

function has(list: readonly string[], repo: string): boolean {
  return list.some((r) => same(r, repo));
}

/** May the viewer read this repository by name? Public and internal sources of their own organization, or one they can read. */
export function mayNameRepo(viewer: Viewer, repo: string, visibility?: Provenance['visibility']): boolean {
  if (!same(tenantOf(repo), viewer.tenant)) return false;
  if (!viewer.member) return true;
  if (visibility === 'public' || visibility === 'internal') return true;
  return has(viewer.member.readable, repo);
}

/** May the viewer see this memory (any status)? */
export function viewerMaySee(memory: Memory, viewer: Viewer): boolean {
  if (!same(memory.tenant, viewer.tenant)) return false;
  if (!viewer.member) return true;
  if (memory.provenance.some((p) => !same(p.tenant, memory.tenant))) return false;
  if (memory.sharedWiderBy) return true;
  const privateSources = memory.provenance.filter((p) => p.visibility !== 'public' && p.visibility !== 'internal');
  if (privateSources.length > 0) return privateSources.every((p) => mayNameRepo(viewer, p.repo));
  if (effectiveVisibility(memory) === 'private') return memory.provenance.some((p) => mayNameRepo(viewer, p.repo));
  return true;
}

/** May the viewer approve, reject, edit or forget this memory? Write access to a repository it was learned in. */
export function viewerMayChange(memory: Memory, viewer: Viewer): boolean {
  if (!viewer.member || !viewerMaySee(memory, viewer)) return false;
  const { writable } = viewer.member;
  return memory.provenance.some((p) => same(tenantOf(p.repo), viewer.tenant) && has(writable, p.repo));
}
