/** PostgreSQL Store (placeholder until implemented). */
import { StoreError } from '../core/errors.js';
import type { Logger } from '../services/ports.js';
import type { Store } from './store.js';

export interface PostgresStoreOptions {
  logger?: Logger;
  /** schema to use (created if missing); default "public" */
  schema?: string;
}

export const PostgresStore = {
  open(location: string, _options: PostgresStoreOptions = {}): Promise<Store> {
    return Promise.reject(
      new StoreError(`PostgreSQL pools are not supported yet (${location.replace(/\/\/[^@/]*@/, '//')})`, 'io'),
    );
  },
};
