/** The audit log (who did what to which memory), one SQL for both engines. */
import type { AuditEntry } from '../../core/types.js';
import type { AuditLog } from '../store.js';
import { rowToAudit } from '../rows.js';
import type { SqlHandle } from './handle.js';

export class SqlAuditLog implements AuditLog {
  constructor(private readonly sql: SqlHandle) {}

  async appendAudit(entry: AuditEntry): Promise<void> {
    await this.sql.run(
      'INSERT INTO audit (tenant, actor, action, memory_id, detail, at) VALUES ($1, $2, $3, $4, $5, $6)',
      [entry.tenant, entry.actor, entry.action, entry.memoryId ?? null, entry.detail ?? null, entry.at],
    );
  }

  async listAudit(tenant: string, limit = 100): Promise<AuditEntry[]> {
    const rows = await this.sql.all('SELECT * FROM audit WHERE tenant = $1 ORDER BY seq DESC LIMIT $2', [
      tenant,
      limit,
    ]);
    return rows.map(rowToAudit);
  }
}
