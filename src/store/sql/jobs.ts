/**
 * The job queue, one SQL for both engines (store/sql/handle.ts): a job is claimed by one UPDATE of
 * the next due row (PostgreSQL skips rows another claimer holds), finished or failed only while
 * its claim still holds it.
 */
import type { Job, JobQueue, NewJob } from '../store.js';
import { iso, jobBody, rowToJob } from '../rows.js';
import type { SqlHandle, SqlParam } from './handle.js';

/** due jobs are claimed from the past; this is "due immediately" */
const EPOCH = new Date(0).toISOString();
/** parameters per row of a jobs INSERT (the time, shared by every row, is $1) */
const JOB_PARAMS = 5;

/** the INSERT of `rows` jobs, each row's 5 parameters after the shared time */
function insertJobsSql(rows: number): string {
  const values = Array.from({ length: rows }, (_, row) => {
    const n = 2 + row * JOB_PARAMS;
    return `($${n}, $${n + 1}, $${n + 2}, $${n + 3}, 'pending', 0, $${n + 4}, $1, $1)`;
  });
  return `INSERT INTO jobs (key, kind, payload, body, state, attempts, run_after, created_at, updated_at)
    VALUES ${values.join(', ')} ON CONFLICT (key) DO NOTHING RETURNING key`;
}

function jobParams(job: NewJob): SqlParam[] {
  return [job.key, job.kind, JSON.stringify(job.payload ?? null), jobBody(job), iso(job.runAfter ?? EPOCH)];
}

/** `WHERE id = $n`, and while the claim numbered `claim` still holds the job when one is given */
function claimedSql(first: number, claim: number | undefined): { where: string; params: SqlParam[] } {
  return claim === undefined
    ? { where: `id = $${first}`, params: [] }
    : { where: `id = $${first} AND state = 'running' AND attempts = $${first + 1}`, params: [claim] };
}

export class SqlJobQueue implements JobQueue {
  constructor(private readonly sql: SqlHandle) {}

  async enqueueJobs(jobs: NewJob[]): Promise<boolean[]> {
    if (jobs.length === 0) return [];
    const { jobRowsPerInsert: perInsert, padJobRows } = this.sql.dialect;
    const now = new Date().toISOString();
    const added = new Set<string>();
    const insert = async (chunk: NewJob[], padTo: number): Promise<void> => {
      const params: SqlParam[] = [now, ...chunk.flatMap(jobParams)];
      // padded with repeats of the last job (a repeated key is ignored)
      const rows = padJobRows ? padTo : chunk.length;
      const last = params.slice(-JOB_PARAMS);
      for (let row = chunk.length; row < rows; row += 1) params.push(...last);
      for (const row of await this.sql.returning(insertJobsSql(rows), params)) added.add(String(row.key));
    };
    if (jobs.length <= perInsert) {
      // one statement is atomic by itself: no BEGIN/COMMIT
      await insert(jobs, 2 ** Math.ceil(Math.log2(jobs.length)));
    } else {
      // statements of perInsert rows, queued on the connection together: the database runs them one
      // after the other, in order (on SQLite, only one prepared statement keeps one queue: every
      // statement has perInsert rows), without waiting for this thread between them. One SQLite
      // statement of hundreds of rows took 2–4× as long as the same rows in statements of 16
      // (29 KB webhook bodies; docs/quality.md)
      await this.sql.transaction(async () => {
        const chunks: Promise<void>[] = [];
        for (let start = 0; start < jobs.length; start += perInsert)
          chunks.push(insert(jobs.slice(start, start + perInsert), perInsert));
        // every statement settled before COMMIT or ROLLBACK: none can run after the transaction
        const failed = (await Promise.allSettled(chunks)).find((result) => result.status === 'rejected');
        if (failed) throw failed.reason;
      });
    }
    // a key repeated within the batch was added once: by its first occurrence
    return jobs.map((job) => added.delete(job.key));
  }

  async enqueueJob(job: NewJob): Promise<boolean> {
    const changed = await this.sql.run(
      `INSERT INTO jobs (key, kind, payload, body, state, attempts, run_after, created_at, updated_at)
       VALUES ($2, $3, $4, $5, 'pending', 0, $6, $1, $1) ON CONFLICT (key) DO NOTHING`,
      [new Date().toISOString(), ...jobParams(job)],
    );
    return changed > 0;
  }

  async claimJob(now: string, leaseUntil: string): Promise<Job | undefined> {
    const rows = await this.sql.returning(
      `UPDATE jobs SET state = 'running', lease_until = $1, attempts = attempts + 1, updated_at = $2
       WHERE id = (SELECT id FROM jobs WHERE (state = 'pending' AND run_after <= $2) OR (state = 'running' AND lease_until <= $2)
                   ORDER BY run_after, id LIMIT 1${this.sql.dialect.lockNextJob})
       RETURNING id, key, kind, payload, body, attempts, run_after, last_error`,
      [iso(leaseUntil), iso(now)],
    );
    return rows[0] && rowToJob(rows[0]);
  }

  async completeJob(id: number, claim?: number): Promise<boolean> {
    const { where, params } = claimedSql(2, claim);
    const changed = await this.sql.run(
      `UPDATE jobs SET state = 'done', lease_until = NULL, payload = 'null', body = NULL, updated_at = $1 WHERE ${where}`,
      [new Date().toISOString(), id, ...params],
    );
    return changed > 0;
  }

  async failJob(id: number, error: string, runAfter: string, dead: boolean, claim?: number): Promise<boolean> {
    const { where, params } = claimedSql(5, claim);
    const changed = await this.sql.run(
      `UPDATE jobs SET state = $1, last_error = $2, run_after = $3, lease_until = NULL, updated_at = $4 WHERE ${where}`,
      [dead ? 'dead' : 'pending', error, iso(runAfter), new Date().toISOString(), id, ...params],
    );
    return changed > 0;
  }

  async renewJob(id: number, claim: number, leaseUntil: string): Promise<boolean> {
    const { where, params } = claimedSql(3, claim);
    const changed = await this.sql.run(`UPDATE jobs SET lease_until = $1, updated_at = $2 WHERE ${where}`, [
      iso(leaseUntil),
      new Date().toISOString(),
      id,
      ...params,
    ]);
    return changed > 0;
  }

  async countJobs(state: 'pending' | 'done' | 'dead'): Promise<number> {
    // a running job is still to be done
    const [first, second] = state === 'pending' ? ['pending', 'running'] : [state, state];
    const rows = await this.sql.all('SELECT COUNT(*) AS n FROM jobs WHERE state IN ($1, $2)', [first, second]);
    return Number(rows[0]?.n ?? 0);
  }

  async pruneJobs(before: string): Promise<number> {
    return this.sql.run(`DELETE FROM jobs WHERE state IN ('done', 'dead') AND updated_at < $1`, [iso(before)]);
  }
}
