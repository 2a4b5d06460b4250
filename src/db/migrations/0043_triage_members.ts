// Teams (issue 39): a submission says which member last marked it read, done, spam or not spam, and
// who last edited and who sent its reply: their email when they did, as the audit log keeps it
// (0042), so a member removed later is still named. Null: nobody did, it was done before teams, or
// the pipeline did it (a drafted reply, a reply sent automatically).
import type { Kysely } from 'kysely';

export const COLUMNS = ['read_by', 'done_by', 'spam_marked_by', 'reply_edited_by', 'reply_sent_by'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const column of COLUMNS) await db.schema.alterTable('submissions').addColumn(column, 'text').execute();
}
