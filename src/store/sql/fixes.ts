/**
 * The fix ledger (fixes already learned, by tenant, repository and ref), one SQL for both engines.
 * Repositories are recorded in lower case: a fix counts once whatever case names its repository.
 */
import type { FixLedger, LearnedFix } from '../store.js';
import type { SqlHandle } from './handle.js';

export class SqlFixLedger implements FixLedger {
  constructor(private readonly sql: SqlHandle) {}

  async markFixLearned(tenant: string, repo: string, ref: string, how?: LearnedFix): Promise<boolean> {
    const key = [tenant, repo.toLowerCase(), ref];
    const fallback = how?.fallback ?? null;
    const added = await this.sql.run(
      'INSERT INTO fixes (tenant, repo, ref, learned_at, fallback) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING',
      [...key, new Date().toISOString(), fallback],
    );
    if (added === 0 && how)
      await this.sql.run('UPDATE fixes SET fallback = $4 WHERE tenant = $1 AND repo = $2 AND ref = $3', [
        ...key,
        fallback,
      ]);
    return added > 0;
  }

  async isFixLearned(tenant: string, repo: string, ref: string): Promise<boolean> {
    return (await this.learnedFix(tenant, repo, ref)) !== undefined;
  }

  async learnedFix(tenant: string, repo: string, ref: string): Promise<LearnedFix | undefined> {
    const rows = await this.sql.all('SELECT fallback FROM fixes WHERE tenant = $1 AND repo = $2 AND ref = $3', [
      tenant,
      repo.toLowerCase(),
      ref,
    ]);
    const row = rows[0];
    if (!row) return undefined;
    return row.fallback == null ? {} : { fallback: String(row.fallback) };
  }

  async unmarkFix(tenant: string, repo: string, ref?: string): Promise<void> {
    if (ref === undefined)
      await this.sql.run('DELETE FROM fixes WHERE tenant = $1 AND repo = $2', [tenant, repo.toLowerCase()]);
    else
      await this.sql.run('DELETE FROM fixes WHERE tenant = $1 AND repo = $2 AND ref = $3', [
        tenant,
        repo.toLowerCase(),
        ref,
      ]);
  }

  async renameFixRepo(tenant: string, from: string, to: string): Promise<number> {
    const [source, target] = [from.toLowerCase(), to.toLowerCase()];
    if (source === target) return 0;
    return this.sql.transaction(async () => {
      // (the SELECT has a WHERE clause: SQLite reads ON CONFLICT after it unambiguously)
      const moved = await this.sql.run(
        `INSERT INTO fixes (tenant, repo, ref, learned_at, fallback) SELECT tenant, $1, ref, learned_at, fallback FROM fixes
         WHERE tenant = $2 AND repo = $3 ON CONFLICT DO NOTHING`,
        [target, tenant, source],
      );
      await this.sql.run('DELETE FROM fixes WHERE tenant = $1 AND repo = $2', [tenant, source]);
      return moved;
    });
  }
}
