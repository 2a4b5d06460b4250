// Teams (issue 39): the audit log names the member who acted (their email when they did), beside the
// key or grant they acted through. Entries from before stay null: they were the account's own.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('audit_log').addColumn('member_email', 'text').execute();
}
