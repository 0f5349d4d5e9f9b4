/** The usage log (which memories were used where), one SQL for both engines. */
import type { UsageLog, UsageRecord } from '../store.js';
import { rowToUsage } from '../rows.js';
import type { SqlHandle } from './handle.js';

export class SqlUsageLog implements UsageLog {
  constructor(private readonly sql: SqlHandle) {}

  async recordUsage(usage: UsageRecord): Promise<void> {
    await this.sql.run('INSERT INTO usage (tenant, memory_id, repo, run_ref, at) VALUES ($1, $2, $3, $4, $5)', [
      usage.tenant,
      usage.memoryId,
      usage.repo,
      usage.runRef,
      usage.at,
    ]);
  }

  async listUsage(tenant: string, runRef: string): Promise<UsageRecord[]> {
    const rows = await this.sql.all('SELECT * FROM usage WHERE tenant = $1 AND run_ref = $2 ORDER BY seq', [
      tenant,
      runRef,
    ]);
    return rows.map(rowToUsage);
  }

  async listTenantUsage(tenant: string, since?: string): Promise<UsageRecord[]> {
    const rows = await this.sql.all('SELECT * FROM usage WHERE tenant = $1 AND at >= $2 ORDER BY at, seq', [
      tenant,
      since ?? '',
    ]);
    return rows.map(rowToUsage);
  }
}
