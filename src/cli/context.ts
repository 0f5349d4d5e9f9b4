/**
 * What every command is given: the io, the global flags (--db, --tenant), the pool opener and
 * the tenant rule. Commands stay small: parse flags, call a service, print.
 */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { InputError, StoreError } from '../core/errors.js';
import { tenantOf } from '../core/ids.js';
import { defaultTenant, parseTenant, setDefaultTenant, severalTenants } from './default-tenant.js';
import { defaultPoolLocation, isPostgresLocation, openStore } from '../store/open-store.js';
import type { Store } from '../store/store.js';
import type { Logger } from '../ports/index.js';
import type { CliIo } from './io.js';
import { createCliLogger } from './logger.js';

const LEARN_FIRST =
  'learn into it first (`memory-transfer learn --git DIR`), or point --db (or MEMORY_TRANSFER_DB) at your pool';

export interface GlobalFlags {
  db?: string;
  tenant?: string;
}

export class CliContext {
  readonly logger: Logger;
  /** a command sets this for a non-error outcome other than 0 (e.g. recall --fail-empty) */
  exitCode = 0;

  constructor(
    readonly io: CliIo,
    private readonly program: Command,
  ) {
    this.logger = createCliLogger(io);
  }

  get globals(): GlobalFlags {
    return this.program.opts<GlobalFlags>();
  }

  /** --db, else MEMORY_TRANSFER_DB, else ./.memory-transfer/pool.db (relative to the working folder) */
  get poolLocation(): string {
    return this.globals.db?.trim() || defaultPoolLocation(this.io.env);
  }

  /**
   * Opens the pool for a command that writes (created and migrated as needed; a command hears no
   * other replicas: it keeps no cache), runs fn, closes the pool whatever happens.
   */
  async withStore<T>(fn: (store: Store) => Promise<T>, options: { mustExist?: boolean } = {}): Promise<T> {
    const location = this.poolLocation;
    if (options.mustExist && !isPostgresLocation(location) && location !== ':memory:' && !existsSync(location))
      throw new InputError(`there is no pool at ${location}: ${LEARN_FIRST}`);
    return this.using(await openStore(location, this.logger, { listen: false }), fn);
  }

  /** For commands that change memories already in the pool: a missing pool is an error, never created. */
  changeStore<T>(fn: (store: Store) => Promise<T>): Promise<T> {
    return this.withStore(fn, { mustExist: true });
  }

  /**
   * Opens the pool for a command that only reads: a missing pool is an error naming what to do,
   * and nothing is created, migrated or written.
   */
  async readStore<T>(fn: (store: Store) => Promise<T>): Promise<T> {
    let store: Store;
    try {
      store = await openStore(this.poolLocation, this.logger, { listen: false, readOnly: true });
    } catch (error) {
      if (error instanceof StoreError && error.code === 'not-found') {
        throw new InputError(`${error.message}: ${LEARN_FIRST}`);
      }
      throw error;
    }
    return this.using(store, fn);
  }

  private async using<T>(store: Store, fn: (store: Store) => Promise<T>): Promise<T> {
    try {
      return await fn(store);
    } finally {
      await store.close();
    }
  }

  /**
   * The tenant a command reads or changes: --tenant, else the pool's default tenant (chosen when
   * the pool was made, `memory-transfer tenant` changes it), else (pools made before defaults, or
   * by the App) the owner of the given repo, else the only tenant in the pool.
   */
  async tenant(store: Store, repo?: string): Promise<string> {
    const flag = this.flagTenant();
    if (flag) return flag;
    const chosen = await defaultTenant(store);
    if (chosen) return chosen;
    if (repo) return tenantOf(repo);
    const tenants = await store.listTenants();
    if (tenants.length === 1 && tenants[0]) return tenants[0];
    if (tenants.length === 0)
      throw new InputError('the pool is empty: run `memory-transfer learn` first (or pass --tenant)');
    throw severalTenants(tenants);
  }

  /**
   * The tenant a command that learns writes into: --tenant, else the pool's default tenant, else
   * the only tenant of an older pool (then recorded as its default); undefined for an empty pool
   * (the caller makes its first tenant the default with setDefaultTenant). Several tenants and no
   * default: --tenant is required.
   */
  async learningTenant(store: Store): Promise<string | undefined> {
    const flag = this.flagTenant();
    const chosen = await defaultTenant(store);
    if (flag) {
      if (!chosen && (await store.listTenants()).length === 0) await this.setDefaultTenant(store, flag);
      return flag;
    }
    if (chosen) return chosen;
    const tenants = await store.listTenants();
    if (tenants.length === 0) return undefined;
    if (tenants.length > 1) throw severalTenants(tenants);
    const only = tenants[0] ?? '';
    await setDefaultTenant(store, only);
    return only;
  }

  /**
   * learningTenant() without writing anything (the pool is opened read-only, if it exists): what a
   * learn can take its source's fixes to, before the pool is created or changed. Undefined for a
   * missing, empty or older pool.
   */
  async peekLearningTenant(): Promise<string | undefined> {
    const flag = this.flagTenant();
    if (flag) return flag;
    let store: Store;
    try {
      store = await openStore(this.poolLocation, this.logger, { listen: false, readOnly: true });
    } catch (error) {
      if (error instanceof StoreError && (error.code === 'not-found' || error.code === 'older-schema'))
        return undefined;
      throw error;
    }
    return this.using(store, async () => {
      const chosen = await defaultTenant(store);
      if (chosen) return chosen;
      const tenants = await store.listTenants();
      if (tenants.length > 1) throw severalTenants(tenants);
      return tenants[0];
    });
  }

  /** Records the pool's default tenant and says so on stderr. */
  async setDefaultTenant(store: Store, tenant: string): Promise<void> {
    await setDefaultTenant(store, tenant);
    this.io.err(
      `memory-transfer: the pool's default tenant is now ${tenant}: everything learned goes there unless --tenant names another (change it with \`memory-transfer tenant NAME\`)\n`,
    );
  }

  private flagTenant(): string | undefined {
    const flag = this.globals.tenant?.trim();
    return flag ? parseTenant(flag, '--tenant') : undefined;
  }

  /** Prints a JSON document on stdout. */
  json(value: unknown): void {
    this.io.out(`${JSON.stringify(value, null, 2)}\n`);
  }

  print(text = ''): void {
    this.io.out(`${text}\n`);
  }
}
