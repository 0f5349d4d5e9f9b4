/**
 * approve / reject / forget from the command line, each with its audit entry.
 * INTERIM: writes through the store; moves to src/services/governance.ts (owner: security) when
 * that lands, so the App, the dashboard and the CLI share one implementation.
 */
import { userInfo } from 'node:os';
import { NotFoundError } from '../core/errors.js';
import type { AuditEntry, Memory } from '../core/types.js';
import type { Store } from '../store/store.js';
import type { CliContext } from './context.js';

export type GovernanceAction = 'approve' | 'reject' | 'forget';

function actor(ctx: CliContext): string {
  let name = ctx.io.env.USER ?? '';
  try {
    name = userInfo().username || name;
  } catch {
    // no user database entry (containers): keep $USER
  }
  return `cli:${name || 'unknown'}`;
}

export async function govern(ctx: CliContext, store: Store, action: GovernanceAction, id: string): Promise<Memory> {
  const tenant = await ctx.tenant(store);
  const memory = await store.getMemory(tenant, id);
  if (!memory) throw new NotFoundError(`no memory ${id} in ${tenant}`);
  const at = new Date().toISOString();
  const audit: AuditEntry = { tenant, actor: actor(ctx), action, memoryId: id, at };
  await store.transaction(async () => {
    if (action === 'forget') await store.deleteMemory(tenant, id);
    else await store.putMemory({ ...memory, status: action === 'approve' ? 'active' : 'rejected', updatedAt: at });
    await store.appendAudit(audit);
  });
  return memory;
}
