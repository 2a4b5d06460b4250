// PostgreSQL: a batch of submissions stored by one statement, one round trip (issue 40). Before,
// each group-commit batch was six statements (begin, the form's counter, the owner's counter, the
// rows, graphile-worker's add_jobs, commit), each a round trip, all while the form's counter row was
// locked. This function does what src/submissions/insert-batch.ts does, in the same order and with
// the same outcomes, so a call in autocommit stores the rows, their Idempotency-Keys, the counters
// and the processing jobs, and commits, before its answer comes back.
//
// The outcome of item i (1-based, as in the batch) is one of created, duplicate (with the stored row),
// key_reused, plan_limit, form_gone. Rows are locked in insert-batch.ts's order: forms, then owners,
// each sorted by id, so this path and the other one never deadlock each other.
//
// graphile-worker's schema is a setting (INTAKE_PG_JOBS_SCHEMA), so its add_jobs is called through
// EXECUTE with the schema quoted by format('%I'). Task names and the job size come from the caller
// (src/pipeline/tasks.ts), so this function does not freeze them.
//
// SQLite: nothing. Its batches run in the writer thread, in process, with no round trips to save.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

const FUNCTION = `
create function intake_insert_submissions(
  p_batch jsonb, p_job_schema text, p_job_size int, p_max_attempts int, p_one_task text, p_many_task text
) returns table (out_kind text, out_row jsonb) language plpgsql as $$
declare
  v_n int := jsonb_array_length(p_batch);
  v_kind text[] := array_fill(null::text, array[v_n]);
  v_row jsonb[] := array_fill(null::jsonb, array[v_n]);
  v_expired text[] := '{}';
  v_inserted text[];
  v_admitted int;
  v_wanted int;
  v_total bigint;
  v_hash text;
  v_found jsonb;
  v_tasks text[];
  v_payloads json[];
  r record;
begin
  -- A replayed Idempotency-Key answers with the submission stored first, but only to the same
  -- request; a key older than 24 hours is released and starts a new submission.
  for r in
    select b.i, s.id as s_id, s.idempotency_hash as s_hash, to_jsonb(s) as s_row, (b.created_at - s.created_at) > interval '24 hours' as expired,
      b.idempotency_hash as b_hash
    from jsonb_to_recordset(p_batch) as b(i int, form_id text, idempotency_key text, idempotency_hash text, created_at timestamptz)
    join submissions s on s.form_id = b.form_id and s.idempotency_key = b.idempotency_key
    where b.idempotency_key is not null
  loop
    if r.expired then
      v_expired := v_expired || r.s_id;
    else
      v_kind[r.i] := case when r.s_hash is not null and r.s_hash = r.b_hash then 'duplicate' else 'key_reused' end;
      v_row[r.i] := r.s_row;
    end if;
  end loop;
  if cardinality(v_expired) > 0 then
    update submissions set idempotency_key = null, idempotency_hash = null where id = any(v_expired);
  end if;

  -- The forms' counters, once per form; a form deleted meanwhile fails only its own submissions.
  for r in
    select b.form_id, count(*)::int as n from jsonb_to_recordset(p_batch) as b(i int, form_id text)
    where v_kind[b.i] is null group by b.form_id order by b.form_id collate "C"
  loop
    update forms set submission_count = submission_count + r.n where id = r.form_id;
    if not found then
      v_kind := array(select case when v_kind[b.i] is null and b.form_id = r.form_id then 'form_gone' else v_kind[b.i] end
        from jsonb_to_recordset(p_batch) as b(i int, form_id text) order by b.i);
    end if;
  end loop;

  -- The owners' counters, by owner and cap: as many as the free plan's cap leaves room for, in order.
  -- The plan is read here, in the transaction: an upgrade counts at once.
  for r in
    select b.account_id, b.cap, array_agg(b.i order by b.i) as items, array_agg(b.form_id order by b.i) as forms
    from jsonb_to_recordset(p_batch) as b(i int, form_id text, account_id text, cap bigint)
    where v_kind[b.i] is null group by b.account_id, b.cap order by b.account_id collate "C", b.cap::text collate "C" nulls last
  loop
    v_wanted := cardinality(r.items);
    update accounts set submissions_total = submissions_total + v_wanted
      where id = r.account_id and (r.cap is null or plan = 'pro' or submissions_total <= r.cap - v_wanted);
    if found or r.cap is null then
      v_admitted := v_wanted;
    else
      select submissions_total into v_total from accounts where id = r.account_id;
      v_admitted := greatest(0, least(v_wanted, r.cap - coalesce(v_total, r.cap)));
      if v_admitted > 0 then
        update accounts set submissions_total = submissions_total + v_admitted where id = r.account_id;
      end if;
    end if;
    for k in v_admitted + 1 .. v_wanted loop
      v_kind[r.items[k]] := 'plan_limit';
      update forms set submission_count = submission_count - 1 where id = r.forms[k];
    end loop;
  end loop;

  -- The rows, in batch order (their seq follows it), skipping any whose key is taken.
  with stored as (
    insert into submissions (id, form_id, version_id, data, metadata, idempotency_key, idempotency_hash, fingerprint,
      processing_status, spam_flag, reply_status, created_at)
    select b.id, b.form_id, b.version_id, b.data, b.metadata, b.idempotency_key, b.idempotency_hash, b.fingerprint,
      'pending', false, 'pending', b.created_at
    from jsonb_to_recordset(p_batch) as b(i int, id text, form_id text, version_id text, data jsonb, metadata jsonb,
      idempotency_key text, idempotency_hash text, fingerprint text, created_at timestamptz)
    where v_kind[b.i] is null order by b.i
    on conflict (form_id, idempotency_key) do nothing returning id
  ) select coalesce(array_agg(id), '{}') into v_inserted from stored;

  -- The same key stored meanwhile, by another transaction or earlier in this batch: counted back.
  for r in
    select b.i, b.form_id, b.account_id, b.idempotency_key, b.idempotency_hash
    from jsonb_to_recordset(p_batch) as b(i int, id text, form_id text, account_id text, idempotency_key text, idempotency_hash text)
    where v_kind[b.i] is null and not (b.id = any(v_inserted)) order by b.i
  loop
    update forms set submission_count = submission_count - 1 where id = r.form_id;
    update accounts set submissions_total = submissions_total - 1 where id = r.account_id;
    select s.idempotency_hash, to_jsonb(s) into v_hash, v_found from submissions s
      where s.form_id = r.form_id and s.idempotency_key = r.idempotency_key;
    if v_found is null then raise exception 'idempotency conflict without a stored submission'; end if;
    v_kind[r.i] := case when v_hash is not null and v_hash = r.idempotency_hash then 'duplicate' else 'key_reused' end;
    v_row[r.i] := v_found;
  end loop;
  v_kind := array(select coalesce(v_kind[k], 'created') from generate_series(1, v_n) as k order by k);

  -- Their processing jobs, in the same transaction: one per p_job_size submissions (processingJobsFor).
  select array_agg(case when cardinality(c.ids) = 1 then p_one_task else p_many_task end order by c.chunk),
    array_agg(case when cardinality(c.ids) = 1 then json_build_object('submissionId', c.ids[1])
      else json_build_object('submissionIds', to_json(c.ids)) end order by c.chunk)
  into v_tasks, v_payloads
  from (
    select (n.rn - 1) / p_job_size as chunk, array_agg(n.id order by n.rn) as ids
    from (select b.id, row_number() over (order by b.i) as rn from jsonb_to_recordset(p_batch) as b(i int, id text)
          where v_kind[b.i] = 'created') as n
    group by 1
  ) as c;
  if v_tasks is not null then
    execute format('select count(*) from %1$I.add_jobs(array(
        select (t.task, t.payload, null, null, $3::smallint, null, null, null)::%1$I.job_spec
        from unnest($1::text[], $2::json[]) as t(task, payload)))', p_job_schema)
      using v_tasks, v_payloads, p_max_attempts;
  end if;

  return query select v_kind[k], v_row[k] from generate_series(1, v_n) as k order by k;
end $$`;

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  if (t.engine === 'postgres') await sql.raw(FUNCTION).execute(db);
}
