// PostgreSQL: the batch function adds its jobs by a static call instead of EXECUTE (issue 40).
//
// 0044's intake_insert_submissions called graphile-worker's add_jobs through EXECUTE, because the
// jobs schema is a setting (INTAKE_PG_JOBS_SCHEMA) that a migration cannot know. EXECUTE parses and
// plans its statement at every call: on a quiet host `perf` put it at 11 of PostgreSQL's 42 points
// per submission. Now the batch function calls intake_add_processing_jobs, statically (plpgsql keeps
// its plan for the session), and that small function, which names the jobs schema in its own text,
// is written at every start by src/jobs/processing-jobs-bridge.ts for the schema configured then
// (after graphile-worker's own migrations). Its plan is kept too.
//
// It also plans its statements once per session (plan_cache_mode = force_generic_plan, for the
// function's duration, add_jobs included): by default plpgsql's statements were planned afresh at
// every call (custom plans, GetCachedPlan about a sixth of PostgreSQL's time per submission), as
// their cost estimates barely depend on the values: a batch is read through jsonb_to_recordset, whose
// row estimate is fixed. Measured alternated with the static call alone: 12 % less CPU in
// PostgreSQL per submission (docs/performance.md).
//
// The function loses its p_job_schema parameter: a caller passing a schema would suggest the call
// goes there, when the bridge decides. SQLite: nothing (its queue is Intake's own).
import { sql, type Kysely } from 'kysely';
import { batchFunction } from './0044_one_statement_batch.ts';
import type { ColumnTypes } from './column-types.ts';

const BATCH_FUNCTION = batchFunction('', 'perform intake_add_processing_jobs(v_tasks, v_payloads, p_max_attempts::smallint);');

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  if (t.engine !== 'postgres') return;
  await sql`drop function intake_insert_submissions(jsonb, text, int, int, text, text)`.execute(db);
  await sql.raw(BATCH_FUNCTION).execute(db);
  await sql`alter function intake_insert_submissions(jsonb, int, int, text, text) set plan_cache_mode = force_generic_plan`.execute(db);
}
