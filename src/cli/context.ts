/**
 * What every command is given: the io, the global flags (--db, --tenant), the pool opener and
 * the tenant rule. Commands stay small: parse flags, call a service, print.
 */
import type { Command } from 'commander';
import { InputError } from '../core/errors.js';
import { tenantOf } from '../core/ids.js';
import { defaultPoolLocation, openStore } from '../store/open-store.js';
import type { Store } from '../store/store.js';
import type { Logger } from '../services/ports.js';
import type { CliIo } from './io.js';
import { createCliLogger } from './logger.js';

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

  /** Opens the pool (a command hears no other replicas: it keeps no cache), runs fn, closes the pool whatever happens. */
  async withStore<T>(fn: (store: Store) => Promise<T>): Promise<T> {
    const store = await openStore(this.poolLocation, this.logger, { listen: false });
    try {
      return await fn(store);
    } finally {
      await store.close();
    }
  }

  /**
   * The tenant a command works in: --tenant, else the owner of the given repo, else the only
   * tenant in the pool.
   */
  async tenant(store: Store, repo?: string): Promise<string> {
    const flag = this.globals.tenant?.trim();
    if (flag) return flag.toLowerCase();
    if (repo) return tenantOf(repo);
    const tenants = await store.listTenants();
    if (tenants.length === 1 && tenants[0]) return tenants[0];
    if (tenants.length === 0)
      throw new InputError('the pool is empty: run `memory-transfer learn` first (or pass --tenant)');
    throw new InputError(`the pool holds several tenants (${tenants.join(', ')}): pass --tenant`);
  }

  /** Prints a JSON document on stdout. */
  json(value: unknown): void {
    this.io.out(`${JSON.stringify(value, null, 2)}\n`);
  }

  print(text = ''): void {
    this.io.out(`${text}\n`);
  }
}
