// get_submission_stats counts a form's submissions per day by arrival (with their spam flag) and
// replies by the time they were sent: two range walks of these indexes, which also carry the
// flag, so the counting never reads the rows themselves nor any submission outside the range.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('submissions_form_created').on('submissions').columns(['form_id', 'created_at', 'spam_flag']).execute();
  await db.schema.createIndex('submissions_form_replied').on('submissions').columns(['form_id', 'replied_at']).execute();
}
