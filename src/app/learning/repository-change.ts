/**
 * A repository changed: keep what was learned from it in step (the rules live in
 * src/services/governance.ts).
 * - privatized: its memories become at least as private as the repository now is;
 * - publicized: nothing widens automatically (knowledge learned while private stays private
 *   until an admin shares it wider);
 * - renamed (or moved within the organization): provenance and the learned-fix records follow
 *   the new name;
 * - deleted, or transferred out of the organization: what was learned only from it is removed,
 *   and it is stripped from the provenance of merged insights (audit log: revoke-source).
 */
import { revokeSource, updateRepoVisibility } from '../../services/governance.js';
import { mostPrivate } from '../../core/visibility.js';
import { tenantOf } from '../../core/ids.js';
import type { Memory, Provenance } from '../../core/types.js';
import type { AppDeps } from '../deps.js';
import type { RepositoryChangeJob } from './events.js';

const PAGE = 200;
const ACTOR = 'system:repository';

function fromRepo(entry: Provenance, repoId: number, names: string[]): boolean {
  if (entry.repoId !== undefined) return entry.repoId === repoId;
  return names.includes(entry.repo.toLowerCase());
}

/** Every memory of the tenant with a provenance entry in one of these repositories. */
async function memoriesFrom(deps: AppDeps, tenant: string, names: string[]): Promise<Memory[]> {
  const seen = new Map<string, Memory>();
  for (const repo of names) {
    for (let offset = 0; ; offset += PAGE) {
      const page = await deps.store.listMemories(tenant, {
        repo,
        status: ['proposed', 'active', 'rejected', 'archived'],
        limit: PAGE,
        offset,
      });
      for (const memory of page) seen.set(memory.id, memory);
      if (page.length < PAGE) break;
    }
  }
  return [...seen.values()];
}

export async function applyRepositoryChange(deps: AppDeps, job: RepositoryChangeJob): Promise<void> {
  const previous = job.previousFullName ?? job.fullName;
  const tenant = tenantOf(previous);
  const now = deps.clock.now();
  const log = { action: job.action, repo: job.fullName, previous: job.previousFullName };

  if (job.action === 'privatized' || job.action === 'publicized') {
    const changed = await updateRepoVisibility(deps.store, tenant, job.fullName, job.visibility, {
      actor: ACTOR,
      repoId: job.repoId,
      now,
    });
    deps.logger.info('repository visibility changed', {
      ...log,
      visibility: job.visibility,
      memoriesChanged: changed.length,
    });
    return;
  }

  const leftOrg = job.action === 'deleted' || (job.action === 'transferred' && tenantOf(job.fullName) !== tenant);
  if (leftOrg) {
    const result = await revokeSource(deps.store, tenant, previous, undefined, {
      actor: ACTOR,
      detail: `repository ${job.action}`,
      repoId: job.repoId,
      now,
    });
    deps.logger.info('repository left the organization: what was learned only from it is revoked', {
      ...log,
      removed: result.removed.length,
      stripped: result.stripped.length,
    });
    return;
  }

  // renamed, or transferred within the organization: provenance follows the new name
  const names = [...new Set([job.fullName.toLowerCase(), previous.toLowerCase()])];
  // read and rewritten under the tenant's lock: a learn merging into one of them meanwhile is kept
  const memories = await deps.store.tenantTransaction(tenant, async () => {
    const memories = await memoriesFrom(deps, tenant, names);
    for (const memory of memories) {
      const provenance = memory.provenance.map((entry) => {
        if (!fromRepo(entry, job.repoId, names)) return entry;
        const url = entry.url?.replace(`/${entry.repo}/`, `/${job.fullName}/`);
        return { ...entry, repo: job.fullName, ...(url ? { url } : {}) };
      });
      const visibility = mostPrivate([memory.visibility, ...provenance.map((p) => p.visibility)]);
      await deps.store.putMemory({ ...memory, provenance, visibility, updatedAt: now.toISOString() });
    }
    return memories;
  });
  // the fixes learned under the old name count under the new one: an old event delivered again
  // (GitHub answers it under the new name) is not learned a second time
  const fixes = await deps.store.renameFixRepo(tenant, previous, job.fullName);
  deps.logger.info('memories follow the renamed repository', { ...log, memories: memories.length, fixes });
}
