// PostgreSQL: a batch of submissions stored by one statement, one round trip, and counters that do
// not make one form's batches wait for each other (issue 40).
//
// Before, each group-commit batch was six statements (begin, the form's counter, the owner's
// counter, the rows, graphile-worker's add_jobs, commit), one round trip each, and every batch for
// a form held that form's counter row, its newest block row (0003) and its day row (0025) from its
// first statement to its commit: one batch at a time per form. Now:
//
// - intake_insert_submissions does what src/submissions/insert-batch.ts does, with the same
//   outcomes, and adds the jobs with graphile-worker's add_jobs: one statement in autocommit.
// - The counts an insert adds go to sharded rows, the shard picked by the backend's pid, so two
//   batches on two connections add to different rows: the form's count (form_count_shards), the
//   owner's count when no cap applies (account_count_shards), the block counts (submission_blocks)
//   and the day counts (daily_counts) gain a shard column in their keys. Readers sum the shards
//   (they summed blocks and days already). A form's row is only KEY SHARE locked (it must not be
//   deleted before the commit), which batches share.
// - Taking away (a delete, a flag changed) adds to a shard row of its own (TAKE_AWAY), below zero if
//   need be: sums stay exact. Those writers still lock the form row first (0003, 0025), so they
//   wait for each other as before, but batches touch none of their rows, nor they a batch's.
// - The free plan's cap stays exact: a capped owner's batches lock the owner's row, read its total
//   (row plus shards) and add to the row; pro owners and uncapped servers use the shards.
//
// The outcome of item i (1-based, as in the batch) is one of created, duplicate (with the stored row),
// key_reused, plan_limit, form_gone. graphile-worker's schema is a setting (INTAKE_PG_JOBS_SCHEMA),
// so add_jobs is called through EXECUTE with the schema quoted by format('%I'); task names and the
// job size come from the caller (src/pipeline/tasks.ts), so this migration does not freeze them.
//
// SQLite: only the two shard tables (empty: its one writer adds to the rows themselves, in process,
// with no round trips to save), so that readers are the same on both engines.
import { sql, type Kysely } from 'kysely';
import { LISTING_BLOCK_SIZE as B } from './0003_listing.ts';
import type { ColumnTypes } from './column-types.ts';

/** Rows per counter; a batch adds to the one its connection's backend maps to. */
export const COUNTER_SHARDS = 16;
const SHARD = `(pg_backend_pid() % ${COUNTER_SHARDS})`;
/**
 * The shard row that deletes and flag changes move: never one an insert adds to, so a batch and a
 * delete of the same form never wait for each other's counter rows (nor deadlock on them).
 */
const TAKE_AWAY = -1;

const BLOCK_FUNCTIONS = [
  `create or replace function submission_blocks_count_inserted() returns trigger language plpgsql as $$
   begin
     insert into submission_blocks (form_id, block, shard, total, spam, done, done_spam)
     select form_id, seq / ${B}, ${SHARD}, count(*), sum(spam_flag::int), sum(done::int), sum((done and spam_flag)::int) from inserted
     group by form_id, seq / ${B} order by form_id, seq / ${B}
     on conflict (form_id, block, shard) do update
       set total = submission_blocks.total + excluded.total, spam = submission_blocks.spam + excluded.spam,
         done = submission_blocks.done + excluded.done, done_spam = submission_blocks.done_spam + excluded.done_spam;
     return null;
   end $$`,
  `create or replace function submission_blocks_count() returns trigger language plpgsql as $$
   begin
     perform 1 from forms where id = old.form_id for no key update;
     -- The form itself is being deleted: its counts go with it (and a new row would refer to nothing).
     if not found then return null; end if;
     if tg_op = 'DELETE' then
       insert into submission_blocks (form_id, block, shard, total, spam, done, done_spam)
       values (old.form_id, old.seq / ${B}, ${TAKE_AWAY}, -1, -old.spam_flag::int, -old.done::int, -(old.done and old.spam_flag)::int)
       on conflict (form_id, block, shard) do update set total = submission_blocks.total + excluded.total, spam = submission_blocks.spam + excluded.spam,
         done = submission_blocks.done + excluded.done, done_spam = submission_blocks.done_spam + excluded.done_spam;
     else
       insert into submission_blocks (form_id, block, shard, total, spam, done, done_spam)
       values (old.form_id, old.seq / ${B}, ${TAKE_AWAY}, 0, new.spam_flag::int - old.spam_flag::int, new.done::int - old.done::int,
         (new.done and new.spam_flag)::int - (old.done and old.spam_flag)::int)
       on conflict (form_id, block, shard) do update set spam = submission_blocks.spam + excluded.spam,
         done = submission_blocks.done + excluded.done, done_spam = submission_blocks.done_spam + excluded.done_spam;
     end if;
     return null;
   end $$`,
];

const DAY = (row: string) => `to_char(${row}.created_at at time zone 'UTC', 'YYYY-MM-DD')`;
const COUNTS = 'received, spam, replies_drafted, replies_sent, replies_declined';
const ADD_ALL = ['received', 'spam', 'replies_drafted', 'replies_sent', 'replies_declined'].map((c) => `${c} = daily_counts.${c} + excluded.${c}`).join(', ');
const GROUPED = (rows: string) =>
  `select form_id, ${DAY(rows)} as day, count(*) as received, count(*) filter (where spam_flag) as spam,
     count(*) filter (where reply_status = 'completed') as replies_drafted, count(*) filter (where reply_status = 'sent') as replies_sent,
     count(*) filter (where reply_status = 'failed') as replies_declined
   from ${rows} group by 1, 2 order by 1, 2`;
const LANGUAGES = (rows: string) =>
  `select form_id, ${DAY(rows)} as day, original_language as language, count(*) as submissions
   from ${rows} where original_language is not null group by 1, 2, 3 order by 1, 2, 3`;

// daily_languages is not sharded: a new submission has no language yet, so inserts never reach it.
const DAY_FUNCTIONS = [
  `create or replace function daily_counts_inserted() returns trigger language plpgsql as $$
   begin
     insert into daily_counts (form_id, day, shard, ${COUNTS}) select g.form_id, g.day, ${SHARD}, ${COUNTS} from (${GROUPED('inserted')}) as g
     on conflict (form_id, day, shard) do update set ${ADD_ALL};
     insert into daily_languages (form_id, day, language, submissions) ${LANGUAGES('inserted')}
     on conflict (form_id, day, language) do update set submissions = daily_languages.submissions + excluded.submissions;
     return null;
   end $$`,
  `create or replace function daily_counts_deleted() returns trigger language plpgsql as $$
   begin
     perform 1 from forms where id in (select form_id from deleted) order by id for no key update;
     insert into daily_counts (form_id, day, shard, ${COUNTS})
     select g.form_id, g.day, ${TAKE_AWAY}, -g.received, -g.spam, -g.replies_drafted, -g.replies_sent, -g.replies_declined
     from (${GROUPED('deleted')}) as g where exists (select 1 from forms f where f.id = g.form_id)
     on conflict (form_id, day, shard) do update set ${ADD_ALL};
     update daily_languages as d set submissions = d.submissions - g.submissions
     from (${LANGUAGES('deleted')}) as g where d.form_id = g.form_id and d.day = g.day and d.language = g.language;
     return null;
   end $$`,
  `create or replace function daily_counts_updated() returns trigger language plpgsql as $$
   declare
     old_day text := ${DAY('old')};
     new_day text := ${DAY('new')};
   begin
     perform 1 from forms where id = old.form_id for no key update;
     if not found then return null; end if;
     if (old.spam_flag, old.reply_status, old_day) is distinct from (new.spam_flag, new.reply_status, new_day) then
       insert into daily_counts (form_id, day, shard, ${COUNTS})
       values (old.form_id, old_day, ${TAKE_AWAY}, -1, -old.spam_flag::int, -(old.reply_status = 'completed')::int,
         -(old.reply_status = 'sent')::int, -(old.reply_status = 'failed')::int)
       on conflict (form_id, day, shard) do update set ${ADD_ALL};
       insert into daily_counts (form_id, day, shard, ${COUNTS})
       values (new.form_id, new_day, ${TAKE_AWAY}, 1, new.spam_flag::int, (new.reply_status = 'completed')::int, (new.reply_status = 'sent')::int, (new.reply_status = 'failed')::int)
       on conflict (form_id, day, shard) do update set ${ADD_ALL};
     end if;
     if old.original_language is distinct from new.original_language or old_day <> new_day then
       if old.original_language is not null then
         update daily_languages set submissions = submissions - 1 where form_id = old.form_id and day = old_day and language = old.original_language;
       end if;
       if new.original_language is not null then
         insert into daily_languages (form_id, day, language, submissions) values (new.form_id, new_day, new.original_language, 1)
         on conflict (form_id, day, language) do update set submissions = daily_languages.submissions + 1;
       end if;
     end if;
     return null;
   end $$`,
];

/** The created submissions' job tasks and payloads, as this migration and 0045 build them (0046 adds trace context). */
const JOBS_WITHOUT_TRACES = `select array_agg(case when cardinality(c.ids) = 1 then p_one_task else p_many_task end order by c.chunk),
    array_agg(case when cardinality(c.ids) = 1 then json_build_object('submissionId', c.ids[1])
      else json_build_object('submissionIds', to_json(c.ids)) end order by c.chunk)
  into v_tasks, v_payloads
  from (
    select (n.rn - 1) / p_job_size as chunk, array_agg(n.id order by n.rn) as ids
    from (select b.id, row_number() over (order by b.i) as rn from jsonb_to_recordset(p_batch) as b(i int, id text)
          where v_kind[b.i] = 'created') as n
    group by 1
  ) as c;`;

/**
 * The batch function's text, with the parameter that names the jobs schema (here) or not (0045 on),
 * the statement that adds the jobs (this migration's EXECUTE, or 0045's static call) and the one that
 * builds their payloads (0046's carries trace context). The rest is the same in all, so it is written once.
 */
export function batchFunction(jobSchemaParameter: string, addJobs: string, queueJobs = JOBS_WITHOUT_TRACES): string {
  return `
create function intake_insert_submissions(
  p_batch jsonb, ${jobSchemaParameter}p_job_size int, p_max_attempts int, p_one_task text, p_many_task text
) returns table (out_kind text, out_row jsonb) language plpgsql as $$
declare
  v_n int := jsonb_array_length(p_batch);
  v_kind text[] := array_fill(null::text, array[v_n]);
  v_row jsonb[] := array_fill(null::jsonb, array[v_n]);
  v_expired text[] := '{}';
  v_capped text[] := '{}';
  v_inserted text[];
  v_admitted int;
  v_wanted int;
  v_total bigint;
  v_plan text;
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

  -- A form deleted meanwhile fails only its own submissions. KEY SHARE: other batches take it too,
  -- and the form cannot go before this commits.
  for r in
    select b.form_id from jsonb_to_recordset(p_batch) as b(i int, form_id text)
    where v_kind[b.i] is null group by b.form_id order by b.form_id collate "C"
  loop
    perform 1 from forms where id = r.form_id for key share;
    if not found then
      v_kind := array(select case when v_kind[b.i] is null and b.form_id = r.form_id then 'form_gone' else v_kind[b.i] end
        from jsonb_to_recordset(p_batch) as b(i int, form_id text) order by b.i);
    end if;
  end loop;

  -- The free plan's cap, by owner and cap: as many as it leaves room for, in order. The plan is
  -- read here: an upgrade counts at once. A capped owner's row stays locked until the commit, so
  -- the cap holds exactly; an owner without a cap locks nothing.
  for r in
    select b.account_id, b.cap, array_agg(b.i order by b.i) as items
    from jsonb_to_recordset(p_batch) as b(i int, account_id text, cap bigint)
    where v_kind[b.i] is null group by b.account_id, b.cap order by b.account_id collate "C", b.cap::text collate "C" nulls last
  loop
    continue when r.cap is null;
    select plan into v_plan from accounts where id = r.account_id;
    continue when v_plan = 'pro';
    v_wanted := cardinality(r.items);
    select a.submissions_total + coalesce((select sum(c.submissions) from account_count_shards c where c.account_id = a.id), 0)
      into v_total from accounts a where a.id = r.account_id for no key update;
    v_admitted := greatest(0, least(v_wanted, r.cap - coalesce(v_total, r.cap)));
    v_capped := v_capped || r.account_id;
    for k in v_admitted + 1 .. v_wanted loop
      v_kind[r.items[k]] := 'plan_limit';
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

  -- The same key stored meanwhile, by another transaction or earlier in this batch.
  for r in
    select b.i, b.form_id, b.idempotency_key, b.idempotency_hash
    from jsonb_to_recordset(p_batch) as b(i int, id text, form_id text, idempotency_key text, idempotency_hash text)
    where v_kind[b.i] is null and not (b.id = any(v_inserted)) order by b.i
  loop
    select s.idempotency_hash, to_jsonb(s) into v_hash, v_found from submissions s
      where s.form_id = r.form_id and s.idempotency_key = r.idempotency_key;
    if v_found is null then raise exception 'idempotency conflict without a stored submission'; end if;
    v_kind[r.i] := case when v_hash is not null and v_hash = r.idempotency_hash then 'duplicate' else 'key_reused' end;
    v_row[r.i] := v_found;
  end loop;
  v_kind := array(select coalesce(v_kind[k], 'created') from generate_series(1, v_n) as k order by k);

  -- What was created is counted: forms and uncapped owners in their shard, capped owners in their row.
  insert into form_count_shards (form_id, shard, submissions)
  select b.form_id, ${SHARD}, count(*) from jsonb_to_recordset(p_batch) as b(i int, form_id text)
  where v_kind[b.i] = 'created' group by b.form_id order by b.form_id collate "C"
  on conflict (form_id, shard) do update set submissions = form_count_shards.submissions + excluded.submissions;
  for r in
    select b.account_id, count(*)::int as n from jsonb_to_recordset(p_batch) as b(i int, account_id text)
    where v_kind[b.i] = 'created' group by b.account_id order by b.account_id collate "C"
  loop
    if r.account_id = any(v_capped) then
      update accounts set submissions_total = submissions_total + r.n where id = r.account_id;
    else
      insert into account_count_shards (account_id, shard, submissions) values (r.account_id, ${SHARD}, r.n)
      on conflict (account_id, shard) do update set submissions = account_count_shards.submissions + excluded.submissions;
    end if;
  end loop;

  -- Their processing jobs, in the same transaction: one per p_job_size submissions (processingJobsFor).
  ${queueJobs}
  if v_tasks is not null then
    ${addJobs}
  end if;

  return query select v_kind[k], v_row[k] from generate_series(1, v_n) as k order by k;
end $$`;
}

const BATCH_FUNCTION = batchFunction('p_job_schema text, ', `execute format('select count(*) from %1$I.add_jobs(array(
        select (t.task, t.payload, null, null, $3::smallint, null, null, null)::%1$I.job_spec
        from unnest($1::text[], $2::json[]) as t(task, payload)))', p_job_schema)
      using v_tasks, v_payloads, p_max_attempts;`);

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema.createTable('form_count_shards')
    .addColumn('form_id', 'text', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('shard', 'integer', (c) => c.notNull())
    .addColumn('submissions', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('form_count_shards_pk', ['form_id', 'shard'])
    .execute();
  await db.schema.createTable('account_count_shards')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('shard', 'integer', (c) => c.notNull())
    .addColumn('submissions', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('account_count_shards_pk', ['account_id', 'shard'])
    .execute();
  if (t.engine !== 'postgres') return;
  for (const [table, key] of [['submission_blocks', 'form_id, block'], ['daily_counts', 'form_id, day']] as const) {
    await sql.raw(`alter table ${table} add column shard integer not null default 0`).execute(db);
    await sql.raw(`alter table ${table} drop constraint ${table}_pk, add constraint ${table}_pk primary key (${key}, shard)`).execute(db);
  }
  for (const fn of [...BLOCK_FUNCTIONS, ...DAY_FUNCTIONS, BATCH_FUNCTION]) await sql.raw(fn).execute(db);
}
