/** The key-value state (cursors, caches, comment ids, settings), one SQL for both engines. */
import type { StateEntry, StateStore } from '../store.js';
import type { SqlHandle } from './handle.js';

export class SqlStateStore implements StateStore {
  constructor(private readonly sql: SqlHandle) {}

  async getState(key: string): Promise<string | undefined> {
    const rows = await this.sql.all('SELECT value FROM state WHERE key = $1', [key]);
    return rows[0] ? String(rows[0].value) : undefined;
  }

  async setState(key: string, value: string): Promise<void> {
    await this.sql.run(
      `INSERT INTO state (key, value, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      [key, value, new Date().toISOString()],
    );
  }

  async listStates(prefix: string): Promise<StateEntry[]> {
    const rows = await this.sql.all(
      `SELECT key, value, updated_at FROM state WHERE substr(key, 1, length($1)) = $1 ORDER BY key${this.sql.dialect.byteOrder}`,
      [prefix],
    );
    return rows.map((row) => ({ key: String(row.key), value: String(row.value), updatedAt: String(row.updated_at) }));
  }
}
