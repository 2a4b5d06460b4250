// PostgreSQL: intake_add_processing_jobs, the one place that names graphile-worker's schema inside
// the database. The batch function (migrations 0044, 0045) calls it statically, so PostgreSQL plans
// the add_jobs call once per session instead of at every batch, as EXECUTE did.
//
// A migration cannot know INTAKE_PG_JOBS_SCHEMA, so this runs at every start, after graphile-worker's
// migrations, and rewrites the function only when its text names another schema. All processes on
// one Intake schema must share the jobs schema anyway (jobs added to one are never seen by workers of
// another); a start with a different one moves every later batch's jobs to it. Two processes starting
// together take a transaction-level advisory lock, so only one rewrites it.
import type pg from 'pg';
import { loadPg } from '../db/pg.ts';

/** The function's body for `schema`, as pg_proc.prosrc holds it (compared to decide on a rewrite). */
export function bridgeBody(schema: string): string {
  const s = loadPg().escapeIdentifier(schema);
  return `
begin
  perform count(*) from ${s}.add_jobs(array(
    select (t.task, t.payload, null, null, p_max_attempts, null, null, null)::${s}.job_spec
    from unnest(p_tasks, p_payloads) as t(task, payload)));
end `;
}

/** Writes intake_add_processing_jobs in the connection's current schema for `jobsSchema`, unless it is so already. */
export async function ensureProcessingJobsBridge(pool: pg.Pool, jobsSchema: string): Promise<void> {
  const body = bridgeBody(jobsSchema);
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(`select pg_advisory_xact_lock(hashtext('intake_add_processing_jobs'), hashtext(current_schema()))`);
    const { rows } = await client.query<{ prosrc: string }>(
      `select prosrc from pg_proc where proname = 'intake_add_processing_jobs' and pronamespace = current_schema()::regnamespace`);
    if (rows[0]?.prosrc !== body) {
      await client.query(`create or replace function intake_add_processing_jobs(p_tasks text[], p_payloads json[], p_max_attempts smallint)
        returns void language plpgsql as $$${body}$$`);
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
