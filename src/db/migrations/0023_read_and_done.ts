// Read and done. A submission is unread until its owner opens it (or marks it read); "done" is the
// owner's archive, beside spam: the dashboard's Inbox tab is every submission neither spam nor
// done. The listing index gains the done flag after the spam flag, so Inbox, Done and Spam pages
// stay index walks, and the per-block counts of 0003 count done (and done spam) submissions too,
// so deep pages and totals of any split stay seeks rather than scans. One trigger follows both
// flags, so a statement that changed both would still count each row once.
import { sql, type Kysely } from 'kysely';
import { LISTING_BLOCK_SIZE } from './0003_listing.ts';
import type { ColumnTypes } from './column-types.ts';

const B = LISTING_BLOCK_SIZE;

const SQLITE_TRIGGERS = [
  `create trigger submission_blocks_insert after insert on submissions begin
     insert into submission_blocks (form_id, block, total, spam, done, done_spam)
     values (new.form_id, new.seq / ${B}, 1, new.spam_flag, new.done, new.done * new.spam_flag)
     on conflict (form_id, block) do update set total = total + 1, spam = spam + excluded.spam,
       done = done + excluded.done, done_spam = done_spam + excluded.done_spam;
   end`,
  `create trigger submission_blocks_delete after delete on submissions begin
     update submission_blocks set total = total - 1, spam = spam - old.spam_flag, done = done - old.done,
       done_spam = done_spam - old.done * old.spam_flag
     where form_id = old.form_id and block = old.seq / ${B};
   end`,
  `create trigger submission_blocks_flags after update of spam_flag, done on submissions
   when old.spam_flag <> new.spam_flag or old.done <> new.done begin
     update submission_blocks set spam = spam + new.spam_flag - old.spam_flag, done = done + new.done - old.done,
       done_spam = done_spam + new.done * new.spam_flag - old.done * old.spam_flag
     where form_id = old.form_id and block = old.seq / ${B};
   end`,
];

// As in 0003, a delete or a flag change takes the form row's lock before the block row's.
const POSTGRES_ROW_FUNCTION = `create or replace function submission_blocks_count() returns trigger language plpgsql as $$
begin
  perform 1 from forms where id = old.form_id for no key update;
  if tg_op = 'DELETE' then
    update submission_blocks set total = total - 1, spam = spam - old.spam_flag::int, done = done - old.done::int,
      done_spam = done_spam - (old.done and old.spam_flag)::int
    where form_id = old.form_id and block = old.seq / ${B};
  else
    update submission_blocks set spam = spam + new.spam_flag::int - old.spam_flag::int, done = done + new.done::int - old.done::int,
      done_spam = done_spam + (new.done and new.spam_flag)::int - (old.done and old.spam_flag)::int
    where form_id = old.form_id and block = old.seq / ${B};
  end if;
  return null;
end $$`;

const POSTGRES_INSERT_FUNCTION = `create or replace function submission_blocks_count_inserted() returns trigger language plpgsql as $$
begin
  insert into submission_blocks (form_id, block, total, spam, done, done_spam)
  select form_id, seq / ${B}, count(*), sum(spam_flag::int), sum(done::int), sum((done and spam_flag)::int) from inserted
  group by form_id, seq / ${B} order by form_id, seq / ${B}
  on conflict (form_id, block) do update
    set total = submission_blocks.total + excluded.total, spam = submission_blocks.spam + excluded.spam,
      done = submission_blocks.done + excluded.done, done_spam = submission_blocks.done_spam + excluded.done_spam;
  return null;
end $$`;

/** Recounts every block from the rows, done counts included: a repair after bulk loads. */
export async function rebuildSubmissionBlocks(db: Kysely<any>): Promise<void> {
  const flag = (column: string) => sql.raw(`case when ${column} then 1 else 0 end`);
  await sql`delete from submission_blocks`.execute(db);
  await sql`insert into submission_blocks (form_id, block, total, spam, done, done_spam)
    select form_id, seq / ${sql.lit(B)}, count(*), sum(${flag('spam_flag')}), sum(${flag('done')}), sum(${flag('done and spam_flag')})
    from submissions group by form_id, seq / ${sql.lit(B)}`.execute(db);
}

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .alterTable('submissions')
    .addColumn('done', t.boolean, (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema.alterTable('submissions').addColumn('done_at', t.timestamp).execute();
  await db.schema.alterTable('submissions').addColumn('read_at', t.timestamp).execute();
  await db.schema.alterTable('submission_blocks').addColumn('done', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('submission_blocks').addColumn('done_spam', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.createIndex('submissions_form_spam_done_seq').on('submissions').columns(['form_id', 'spam_flag', 'done', 'seq desc']).execute();
  if (t.engine === 'postgres') {
    await sql`drop trigger submission_blocks_spam on submissions`.execute(db);
    await sql.raw(POSTGRES_ROW_FUNCTION).execute(db);
    await sql.raw(POSTGRES_INSERT_FUNCTION).execute(db);
    await sql`create trigger submission_blocks_flags after update of spam_flag, done on submissions
      for each row when (old.spam_flag is distinct from new.spam_flag or old.done is distinct from new.done)
      execute function submission_blocks_count()`.execute(db);
  } else {
    for (const name of ['submission_blocks_insert', 'submission_blocks_delete', 'submission_blocks_spam']) await sql.raw(`drop trigger ${name}`).execute(db);
    for (const trigger of SQLITE_TRIGGERS) await sql.raw(trigger).execute(db);
  }
  // Every existing row is not done: the new block columns' default of 0 is already their count.
}
