// Owners' data in and out (issue 22).
// - subject_emails: the normalised email addresses of every stored submission (hashed), so a data
//   subject's submissions are found by address without reading every row. Filled by the pipeline's
//   fingerprint recorder, in seq order per form, so fingerprint_marks.through_seq says how far each
//   form is indexed (the submit path writes nothing more); rows go with their submission.
// - forms.retention_days / spam_retention_days: how long a form keeps submissions (null: for ever).
//   Forms that exist already keep everything: no owner chose a limit for them.
// - scheduled_runs: when a periodic job (the retention purge) is next due, claimed by one process.
// - audit_log.detail: counts an entry records (an erasure keeps only how many submissions it removed).
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';
import { subjectEmailRows } from '../../data-subjects/subject-emails.ts';

const BACKFILL_CHUNK = 1000;

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  let emails = db.schema
    .createTable('subject_emails')
    .addColumn('email_hash', 'text', (c) => c.notNull())
    .addColumn('submission_id', 'text', (c) => c.notNull().references('submissions.id').onDelete('cascade'))
    .addColumn('form_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('subject_emails_pk', ['email_hash', 'submission_id']);
  if (t.engine === 'sqlite') emails = emails.modifyEnd(sql`without rowid`);
  await emails.execute();
  // A deleted submission's rows are found by it (the cascade, erasure and retention purges).
  await db.schema.createIndex('subject_emails_submission').on('subject_emails').column('submission_id').execute();

  await db.schema.alterTable('forms').addColumn('retention_days', 'integer').execute();
  await db.schema.alterTable('forms').addColumn('spam_retention_days', 'integer').execute();

  await db.schema
    .createTable('scheduled_runs')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('next_run_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema.alterTable('audit_log').addColumn('detail', 'text').execute();

  // What the fingerprint recorder already went past is indexed here; the rest it indexes as it goes.
  let after = 0;
  for (;;) {
    const { rows } = await sql<{ id: string; form_id: string; seq: number | string; data: unknown }>`
      select s.id, s.form_id, s.seq, s.data from submissions s
      join fingerprint_marks m on m.form_id = s.form_id and s.seq <= m.through_seq
      where s.seq > ${after} order by s.seq limit ${BACKFILL_CHUNK}`.execute(db);
    if (rows.length === 0) break;
    const values = rows.flatMap((row) => subjectEmailRows(row));
    for (let i = 0; i < values.length; i += 500) {
      await db.insertInto('subject_emails').values(values.slice(i, i + 500)).onConflict((oc) => oc.doNothing()).execute();
    }
    after = Number(rows.at(-1)!.seq);
  }
}
