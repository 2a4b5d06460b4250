// Per form, where the spam thresholds sit (docs/spam.md, "Sensitivity"): `low`, `balanced`, `high`.
// Existing forms keep today's verdicts: `balanced` is the operating point they were judged at.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('forms').addColumn('spam_sensitivity', 'text', (c) => c.notNull().defaultTo('balanced')).execute();
}
