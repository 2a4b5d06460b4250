// Deep pages without scanning. A page number is an offset into the form's submissions, newest
// first; skipping 500,000 index entries to reach page 50,000 takes tens of milliseconds on either
// engine. So each form's submissions are counted per block of LISTING_BLOCK_SIZE consecutive `seq`
// values (all, and spam): a deep page sums the counts of the newer blocks to find the block that
// holds its first row, seeks there through the listing index and skips fewer than one block's rows.
// Triggers keep the counts in the same transaction as every insert, delete and spam-flag change,
// whichever code makes it, so they can never drift from the rows.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

/** `seq` values per block; changing it needs a migration that rebuilds submission_blocks. */
export const LISTING_BLOCK_SIZE = 1024;

const SQLITE_TRIGGERS = [
  `create trigger submission_blocks_insert after insert on submissions begin
     insert into submission_blocks (form_id, block, total, spam)
     values (new.form_id, new.seq / ${LISTING_BLOCK_SIZE}, 1, new.spam_flag)
     on conflict (form_id, block) do update set total = total + 1, spam = spam + excluded.spam;
   end`,
  `create trigger submission_blocks_delete after delete on submissions begin
     update submission_blocks set total = total - 1, spam = spam - old.spam_flag
     where form_id = old.form_id and block = old.seq / ${LISTING_BLOCK_SIZE};
   end`,
  `create trigger submission_blocks_spam after update of spam_flag on submissions
   when old.spam_flag <> new.spam_flag begin
     update submission_blocks set spam = spam + new.spam_flag - old.spam_flag
     where form_id = old.form_id and block = old.seq / ${LISTING_BLOCK_SIZE};
   end`,
];

// Inserts lock the form row (its counter) before the block row. A delete or a spam-flag change
// reaches the block first, so it takes the form row's lock before touching the block: the same
// order everywhere, hence no deadlock between a batch of inserts and a delete.
const POSTGRES_FUNCTION = `create function submission_blocks_count() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into submission_blocks (form_id, block, total, spam)
    values (new.form_id, new.seq / ${LISTING_BLOCK_SIZE}, 1, new.spam_flag::int)
    on conflict (form_id, block) do update
      set total = submission_blocks.total + 1, spam = submission_blocks.spam + excluded.spam;
    return null;
  end if;
  perform 1 from forms where id = old.form_id for no key update;
  if tg_op = 'DELETE' then
    update submission_blocks set total = total - 1, spam = spam - old.spam_flag::int
    where form_id = old.form_id and block = old.seq / ${LISTING_BLOCK_SIZE};
  else
    update submission_blocks set spam = spam + new.spam_flag::int - old.spam_flag::int
    where form_id = old.form_id and block = old.seq / ${LISTING_BLOCK_SIZE};
  end if;
  return null;
end $$`;

const POSTGRES_TRIGGERS = [
  `create trigger submission_blocks_insert after insert on submissions
   for each row execute function submission_blocks_count()`,
  `create trigger submission_blocks_delete after delete on submissions
   for each row execute function submission_blocks_count()`,
  `create trigger submission_blocks_spam after update of spam_flag on submissions
   for each row when (old.spam_flag is distinct from new.spam_flag) execute function submission_blocks_count()`,
];

/** Recounts every block from the rows: the backfill of this migration, and a repair after bulk loads. */
export async function rebuildSubmissionBlocks(db: Kysely<any>): Promise<void> {
  await sql`delete from submission_blocks`.execute(db);
  await sql`insert into submission_blocks (form_id, block, total, spam)
    select form_id, seq / ${sql.lit(LISTING_BLOCK_SIZE)}, count(*), sum(case when spam_flag then 1 else 0 end)
    from submissions group by form_id, seq / ${sql.lit(LISTING_BLOCK_SIZE)}`.execute(db);
}

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('submission_blocks')
    .addColumn('form_id', 'text', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('block', 'bigint', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('spam', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('submission_blocks_pk', ['form_id', 'block'])
    .execute();
  if (t.engine === 'postgres') await sql.raw(POSTGRES_FUNCTION).execute(db);
  for (const trigger of t.engine === 'postgres' ? POSTGRES_TRIGGERS : SQLITE_TRIGGERS) await sql.raw(trigger).execute(db);
  await rebuildSubmissionBlocks(db);
}
