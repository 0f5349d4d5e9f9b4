/**
 * approve / reject / forget / restore / share / edit from the command line, through the governance service (the same
 * code as the App's commands and dashboard: audit entry in the same transaction).
 */
import { userInfo } from 'node:os';
import { InputError } from '../core/errors.js';
import type { Memory } from '../core/types.js';
import { approve, edit, forget, reject, restore, shareWider, type MemoryEdit } from '../services/governance.js';
import type { Store } from '../store/store.js';
import type { CliContext } from './context.js';

export type GovernanceAction = 'approve' | 'reject' | 'forget' | 'restore' | 'share';

/** The audit log's actor for a local admin: `cli:<os user>`. */
export function actor(ctx: CliContext): string {
  let name = ctx.io.env.USER ?? '';
  try {
    name = userInfo().username || name;
  } catch {
    // no user database entry (containers): keep $USER
  }
  return `cli:${name || 'unknown'}`;
}

/** Applies the action; returns the memory as it was before (for the confirmation line). */
export async function govern(
  ctx: CliContext,
  store: Store,
  action: GovernanceAction,
  id: string,
): Promise<Memory | undefined> {
  const tenant = await ctx.tenant(store);
  const before = await store.getMemory(tenant, id);
  if (action === 'restore' && before?.status === 'active') {
    throw new InputError(
      `memory ${id} is already active: restore puts back an archived or rejected memory (see \`memory-transfer list --status archived\`)`,
    );
  }
  const by = { actor: actor(ctx), detail: 'memory-transfer CLI' };
  if (action === 'approve') await approve(store, tenant, id, by);
  else if (action === 'reject') await reject(store, tenant, id, by);
  else if (action === 'restore') await restore(store, tenant, id, by);
  else if (action === 'share') await shareWider(store, tenant, id, by);
  else await forget(store, tenant, id, by);
  return before;
}

/** Edits a memory's text (screened, audited); returns it before and after. */
export async function editAsAdmin(
  ctx: CliContext,
  store: Store,
  id: string,
  changes: MemoryEdit,
): Promise<{ before: Memory; after: Memory }> {
  const tenant = await ctx.tenant(store);
  const before = await store.getMemory(tenant, id);
  const after = await edit(store, tenant, id, changes, { actor: actor(ctx), detail: 'memory-transfer CLI' });
  return { before: before ?? after, after };
}
