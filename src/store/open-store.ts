/**
 * Opens the pool named by a location: `postgres://` or `postgresql://` → PostgreSQL (optionally
 * `?schema=NAME`), anything else is a SQLite file path (its folder is created). The schema is
 * migrated before it is returned; read-only, nothing is created or migrated and the schema must
 * already be this version's.
 */
import type { Logger } from '../ports/index.js';
import { silentLogger } from '../ports/index.js';
import { SqliteStore } from './sqlite-store.js';
import type { Store } from './store.js';

export const DEFAULT_POOL_PATH = './.memory-transfer/pool.db';

/** MEMORY_TRANSFER_DB when set (non-empty), else ./.memory-transfer/pool.db. The env is passed in. */
export function defaultPoolLocation(env: Record<string, string | undefined>): string {
  const value = env.MEMORY_TRANSFER_DB?.trim();
  return value ? value : DEFAULT_POOL_PATH;
}

export function isPostgresLocation(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

export interface OpenStoreOptions {
  /**
   * PostgreSQL: hear other replicas' writes to keep caches exact (default true). A one-shot command
   * (the CLI) caches nothing worth it: false spares it a connection and the listener's start.
   */
  listen?: boolean;
  /**
   * open for reading only (stats, list, show, recall, export, audit): a missing pool is an error,
   * never created; an older schema is an error, never migrated; nothing is written
   */
  readOnly?: boolean;
}

export async function openStore(
  location: string,
  logger: Logger = silentLogger,
  options: OpenStoreOptions = {},
): Promise<Store> {
  const store: Store = isPostgresLocation(location)
    ? await openPostgres(location, logger, options)
    : await SqliteStore.open(location, { logger, ...(options.readOnly ? { readOnly: true } : {}) });
  try {
    if (options.readOnly) await store.verifySchema();
    else await store.migrate();
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
  return store;
}

/** `?schema=NAME` in a PostgreSQL location selects the schema (default public); pg never sees it */
async function openPostgres(location: string, logger: Logger, options: OpenStoreOptions): Promise<Store> {
  const { PostgresStore } = await import('./postgres-store.js');
  const url = new URL(location);
  const schema = url.searchParams.get('schema') ?? undefined;
  url.searchParams.delete('schema');
  return PostgresStore.open(url.toString(), {
    logger,
    schema,
    ...(options.listen === false ? { listen: false } : {}),
    ...(options.readOnly ? { readOnly: true } : {}),
  });
}
