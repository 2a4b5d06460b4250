// The processing pipeline: per-submission step state, spam corrections, credit charges, the
// owner's language and the form's intent. SQLite keeps its job queue in its own file (`jobs`);
// PostgreSQL's jobs live in graphile-worker's schema, whose crashed workers are found through
// the leases their processes renew (`worker_leases`).
import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('forms').addColumn('intent', 'text').execute();
  await db.schema.alterTable('accounts').addColumn('language', 'text', (c) => c.notNull().defaultTo('en')).execute();

  // Steps already finished, so a retried job never repeats one (no second charge, no second send).
  await db.schema.alterTable('submissions').addColumn('pipeline_steps', t.json).execute();
  // Hash of the content and its sender: repeated identical content is a spam signal.
  await db.schema.alterTable('submissions').addColumn('fingerprint', 'text').execute();
  await db.schema.alterTable('submissions').addColumn('processed_at', t.timestamp).execute();
  await db.schema.alterTable('submissions').addColumn('spam_corrected_at', t.timestamp).execute();
  await db.schema.alterTable('submissions').addColumn('spam_corrected_by', 'text').execute();
  await db.schema.createIndex('submissions_form_fingerprint').on('submissions').columns(['form_id', 'fingerprint']).execute();

  // One row per charged step: the primary key is what makes a charge happen at most once.
  await db.schema
    .createTable('credit_charges')
    .addColumn('submission_id', 'text', (c) => c.notNull())
    .addColumn('step', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('cost', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('credit_charges_pk', ['submission_id', 'step'])
    .execute();

  if (t.engine === 'sqlite') {
    await t
      .autoIncrementKey(db.schema.createTable('jobs'), 'id')
      .addColumn('task', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('run_at', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('max_attempts', 'integer', (c) => c.notNull())
      .addColumn('locked_by', 'text')
      .addColumn('locked_until', 'text')
      .addColumn('last_error', 'text')
      .addColumn('failed_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('jobs_due').on('jobs').columns(['failed_at', 'run_at']).execute();
  } else {
    await db.schema
      .createTable('worker_leases')
      .addColumn('worker_id', 'text', (c) => c.primaryKey())
      .addColumn('renewed_at', 'timestamptz', (c) => c.notNull())
      .execute();
  }
}
