/**
 * The pool's default tenant: the CLI's "one pool". A pool made by the CLI records the tenant it
 * was made with (the owner of the first repository learned, or --tenant) in its state table, and
 * every command works there unless --tenant names another: repositories of different owners learn
 * into one pool. The App ignores it and keeps one tenant per organization.
 */
import { InputError } from '../core/errors.js';
import type { Store } from '../store/store.js';

export const DEFAULT_TENANT_KEY = 'pool:default-tenant';

const TENANT = /^[a-z0-9][a-z0-9_.-]{0,99}$/;

/** A tenant name from the command line (lower-cased), or an InputError naming the input. */
export function parseTenant(value: string, input: string): string {
  const tenant = value.trim().toLowerCase();
  if (TENANT.test(tenant)) return tenant;
  throw new InputError(
    `${input}: must be an organization or user name (letters, digits, - _ .), e.g. acme; got ${JSON.stringify(value)}`,
  );
}

export async function defaultTenant(store: Store): Promise<string | undefined> {
  const value = await store.getState(DEFAULT_TENANT_KEY);
  return value && TENANT.test(value) ? value : undefined;
}

export function setDefaultTenant(store: Store, tenant: string): Promise<void> {
  return store.setState(DEFAULT_TENANT_KEY, tenant);
}

export function severalTenants(tenants: string[]): InputError {
  const first = tenants[0] ?? 'acme';
  return new InputError(
    `the pool holds several tenants (${tenants.join(', ')}) and no default one: pass --tenant (e.g. --tenant ${first}), or make one the default with \`memory-transfer tenant ${first}\``,
  );
}
