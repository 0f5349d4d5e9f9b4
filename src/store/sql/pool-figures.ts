/** What spans the roles of a pool (PoolAdmin): its tenants and a tenant's figures, one SQL for both engines. */
import type { PoolStats } from '../store.js';
import { statsFrom } from '../rows.js';
import type { SqlHandle } from './handle.js';

/** every tenant with memories, learned fixes, audit entries or usage */
export async function listTenants(sql: SqlHandle): Promise<string[]> {
  const rows = await sql.all(
    `SELECT tenant FROM memories UNION SELECT tenant FROM fixes UNION SELECT tenant FROM audit UNION SELECT tenant FROM usage
     ORDER BY tenant`,
  );
  return rows.map((r) => String(r.tenant));
}

export async function poolStats(sql: SqlHandle, tenant: string): Promise<PoolStats> {
  const groups = await sql.all(
    'SELECT level, status, COUNT(*) AS n FROM memories WHERE tenant = $1 GROUP BY level, status',
    [tenant],
  );
  const repos = await sql.all(
    'SELECT COUNT(DISTINCT s.repo) AS n FROM memory_sources s JOIN memories m ON m.seq = s.seq WHERE m.tenant = $1',
    [tenant],
  );
  const fixes = await sql.all('SELECT COUNT(*) AS n, COUNT(fallback) AS f FROM fixes WHERE tenant = $1', [tenant]);
  return statsFrom(
    groups.map((g) => ({ level: String(g.level), status: String(g.status), n: Number(g.n) })),
    Number(repos[0]?.n ?? 0),
    Number(fixes[0]?.n ?? 0),
    Number(fixes[0]?.f ?? 0),
  );
}
