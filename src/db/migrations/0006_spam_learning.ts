// What each account's spam corrections taught (src/pipeline/spam/owner-feedback.ts): per hashed text
// feature, in how many of the account's corrected submissions it appeared as spam and as not spam.
// The row with feature -1 counts the corrected submissions themselves.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

export async function up(db: Kysely<any>, _t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('spam_feedback')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('feature', 'integer', (c) => c.notNull())
    .addColumn('spam', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ham', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('spam_feedback_pk', ['account_id', 'feature'])
    .execute();
}
