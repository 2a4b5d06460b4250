// PostgreSQL: the one-statement batch carries each submission's trace context into its job (issue 40).
//
// Until now the batch function (0044, 0045) built job payloads of ids only, so with tracing on
// (OTEL_EXPORTER_OTLP_ENDPOINT set) every batch took the transaction path instead, six round trips,
// for the processing job to name its request's span as parent. Now a batch item may carry
// `traceparent` and `due_at` (src/submissions/postgres-batch.ts), and the payloads are what
// processingJobsFor (src/pipeline/tasks.ts) builds on the other paths: `traceparent` and `dueAt` for
// a job of one, `traceparents` by position (null for an untraced one) and `dueAt` for a batch job,
// and ids alone when no item of the job is traced. SQLite: nothing (its jobs are built in process).
import { sql, type Kysely } from 'kysely';
import { batchFunction } from './0044_one_statement_batch.ts';
import type { ColumnTypes } from './column-types.ts';

const TRACED_JOBS = `select array_agg(case when cardinality(c.ids) = 1 then p_one_task else p_many_task end order by c.chunk),
    array_agg(case
      when c.due_at is null and cardinality(c.ids) = 1 then json_build_object('submissionId', c.ids[1])
      when c.due_at is null then json_build_object('submissionIds', to_json(c.ids))
      when cardinality(c.ids) = 1 then json_build_object('submissionId', c.ids[1], 'traceparent', c.traceparents[1], 'dueAt', c.due_at)
      else json_build_object('submissionIds', to_json(c.ids), 'traceparents', to_json(c.traceparents), 'dueAt', c.due_at) end order by c.chunk)
  into v_tasks, v_payloads
  from (
    select (n.rn - 1) / p_job_size as chunk, array_agg(n.id order by n.rn) as ids,
      array_agg(n.traceparent order by n.rn) as traceparents, max(n.due_at) as due_at
    from (select b.id, b.traceparent, b.due_at, row_number() over (order by b.i) as rn
          from jsonb_to_recordset(p_batch) as b(i int, id text, traceparent text, due_at bigint)
          where v_kind[b.i] = 'created') as n
    group by 1
  ) as c;`;

const BATCH_FUNCTION = batchFunction('', 'perform intake_add_processing_jobs(v_tasks, v_payloads, p_max_attempts::smallint);', TRACED_JOBS);

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  if (t.engine !== 'postgres') return;
  await sql`drop function intake_insert_submissions(jsonb, int, int, text, text)`.execute(db);
  await sql.raw(BATCH_FUNCTION).execute(db);
  // As 0045: plans kept for the session (a new function starts without the setting).
  await sql`alter function intake_insert_submissions(jsonb, int, int, text, text) set plan_cache_mode = force_generic_plan`.execute(db);
}
