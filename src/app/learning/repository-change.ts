/**
 * A repository changed: keep what was learned from it in step.
 * - privatized: its memories become at least as private as the repository now is;
 * - publicized: nothing widens automatically (knowledge learned while private stays private
 *   until an admin shares it wider);
 * - renamed: provenance follows the new name;
 * - deleted, or transferred out of the organization: what was learned only from it is removed,
 *   and it is stripped from the provenance of merged insights.
 */
import { mostPrivate } from '../../core/visibility.js';
import { tenantOf } from '../../core/ids.js';
import type { Memory, Provenance, Visibility } from '../../core/types.js';
import type { AppDeps } from '../deps.js';
import type { RepositoryChangeJob } from './events.js';

const RANK: Record<Visibility, number> = { public: 0, internal: 1, private: 2 };
const PAGE = 200;

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
  const names = [...new Set([job.fullName.toLowerCase(), previous.toLowerCase()])];
  const memories = await memoriesFrom(deps, tenant, names);
  const log = { action: job.action, repo: job.fullName, previous: job.previousFullName, memories: memories.length };
  const now = deps.clock.now().toISOString();

  if (job.action === 'publicized') {
    deps.logger.info('repository made public: its memories keep their visibility', log);
    return;
  }

  const leftOrg = job.action === 'deleted' || (job.action === 'transferred' && tenantOf(job.fullName) !== tenant);
  if (leftOrg) {
    await revokeRepository(deps, tenant, previous, job.repoId, memories, `repository ${job.action}: ${previous}`);
    deps.logger.info('repository left the organization: what was learned only from it is revoked', log);
    return;
  }

  await deps.store.transaction(async () => {
    for (const memory of memories) {
      const provenance = memory.provenance.map((entry) => {
        if (!fromRepo(entry, job.repoId, names)) return entry;
        if (job.action === 'privatized') {
          return RANK[job.visibility] > RANK[entry.visibility] ? { ...entry, visibility: job.visibility } : entry;
        }
        // renamed, or transferred within the organization
        const url = entry.url?.replace(`/${entry.repo}/`, `/${job.fullName}/`);
        return { ...entry, repo: job.fullName, ...(url ? { url } : {}) };
      });
      const visibility = mostPrivate([memory.visibility, ...provenance.map((p) => p.visibility)]);
      await deps.store.putMemory({ ...memory, provenance, visibility, updatedAt: now });
    }
  });
  deps.logger.info('memories updated after a repository change', log);
}

/**
 * Removes what was learned only from the repository and strips it from the provenance of
 * memories merged with other sources; records it in the audit log.
 */
export async function revokeRepository(
  deps: AppDeps,
  tenant: string,
  repo: string,
  repoId: number | undefined,
  memories: Memory[],
  reason: string,
): Promise<{ removed: number; stripped: number }> {
  let removed = 0;
  let stripped = 0;
  const names = [repo.toLowerCase()];
  const now = deps.clock.now().toISOString();
  await deps.store.transaction(async () => {
    for (const memory of memories) {
      const rest = memory.provenance.filter((entry) => !(repoId !== undefined ? fromRepo(entry, repoId, names) : names.includes(entry.repo.toLowerCase())));
      if (rest.length === memory.provenance.length) continue;
      if (rest.length === 0) {
        await deps.store.deleteMemory(tenant, memory.id);
        removed += 1;
      } else {
        const support = Math.max(1, memory.support - (memory.provenance.length - rest.length));
        await deps.store.putMemory({ ...memory, provenance: rest, support, visibility: mostPrivate(rest.map((p) => p.visibility)), updatedAt: now });
        stripped += 1;
      }
    }
    await deps.store.unmarkFix(tenant, repo);
    await deps.store.appendAudit({ tenant, actor: 'github', action: 'revoke-source', detail: `${reason} (${removed} removed, ${stripped} stripped)`, at: now });
  });
  return { removed, stripped };
}
