// Less work per stored submission.
// PostgreSQL: the deep-page block counts (0003) follow inserts with one statement per INSERT
// statement, over its new rows grouped by block, instead of a plpgsql call and an upsert per row.
// The function of 0003 still follows deletes and spam-flag changes, row by row.
// SQLite: the job queue is indexed by task first, so every look for due jobs of a task is a seek,
// whatever the other tasks have queued (deliveries looked through every queued processing job).
import { sql, type Kysely } from 'kysely';
import { LISTING_BLOCK_SIZE } from './0003_listing.ts';
import type { ColumnTypes } from './column-types.ts';

// Rows are upserted in (form_id, block) order: concurrent inserts lock block rows in one order.
const POSTGRES_FUNCTION = `create function submission_blocks_count_inserted() returns trigger language plpgsql as $$
begin
  insert into submission_blocks (form_id, block, total, spam)
  select form_id, seq / ${LISTING_BLOCK_SIZE}, count(*), sum(spam_flag::int) from inserted
  group by form_id, seq / ${LISTING_BLOCK_SIZE} order by form_id, seq / ${LISTING_BLOCK_SIZE}
  on conflict (form_id, block) do update
    set total = submission_blocks.total + excluded.total, spam = submission_blocks.spam + excluded.spam;
  return null;
end $$`;

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  if (t.engine === 'postgres') {
    await sql`drop trigger submission_blocks_insert on submissions`.execute(db);
    await sql.raw(POSTGRES_FUNCTION).execute(db);
    await sql`create trigger submission_blocks_insert after insert on submissions
      referencing new table as inserted for each statement execute function submission_blocks_count_inserted()`.execute(db);
  } else {
    await db.schema.createIndex('jobs_task_due').on('jobs').columns(['task', 'failed_at', 'run_at']).execute();
    await db.schema.dropIndex('jobs_due').execute();
  }
}
