// Erasure reaches everything derived from a person (issue 32).
// - submission_summaries: a model's summary of a form's submissions, kept apart from any one of
//   them (it was stored as an analysis of the newest submission of its sample, so erasing another
//   person of the sample left it, and a data-subject export of the newest one's author handed it
//   over). submission_summary_sources records every submission it was made from; deleting any of
//   them, by whichever code (erasure, retention, the owner's delete), deletes the summary: the
//   source row goes by its foreign key, and a trigger on that takes the summary along.
// - Summaries kept the old way are deleted: which submissions they read was not recorded.
// - credit_charges: a charge of a variant (a translation into one language) was keyed
//   `<submission id>:translation:de`, out of reach of the exact-id lookups of erasure. The variant
//   moves into `step` (`translation:de`), a summary's charge is keyed by the summary, and charges
//   whose submission is gone already are made anonymous (`erased:<random>`), keeping their amounts.
// - subject_emails: addresses written with a lookalike that folded into ASCII (the Kelvin sign,
//   U+212A, NFC-normalises to K; U+1FEF to a backtick) were indexed as the ASCII address. Those
//   submissions are indexed again with today's rule, which refuses them.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';
import { subjectEmailRows } from '../../data-subjects/subject-emails.ts';

const SQLITE_TRIGGER = `create trigger submission_summary_sources_delete after delete on submission_summary_sources begin
    delete from submission_summaries where id = old.summary_id;
  end`;

const POSTGRES_FUNCTION = `create function submission_summaries_forget() returns trigger language plpgsql as $$
begin
  delete from submission_summaries where id in (select summary_id from gone);
  return null;
end $$`;

/** The characters that NFC or lower-casing turned into an address character of ASCII. */
const FOLDED_INTO_ASCII = ['\u212A', '\u1FEF'];

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('submission_summaries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('form_id', 'text', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('submission_summaries_form').on('submission_summaries').column('form_id').execute();

  let sources = db.schema
    .createTable('submission_summary_sources')
    .addColumn('submission_id', 'text', (c) => c.notNull().references('submissions.id').onDelete('cascade'))
    .addColumn('summary_id', 'text', (c) => c.notNull().references('submission_summaries.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('submission_summary_sources_pk', ['submission_id', 'summary_id']);
  if (t.engine === 'sqlite') sources = sources.modifyEnd(sql`without rowid`);
  await sources.execute();
  // The summary's own cascade finds its sources by it.
  await db.schema.createIndex('submission_summary_sources_summary').on('submission_summary_sources').column('summary_id').execute();

  if (t.engine === 'postgres') {
    await sql.raw(POSTGRES_FUNCTION).execute(db);
    await sql`create trigger submission_summary_sources_delete after delete on submission_summary_sources
      referencing old table as gone for each statement execute function submission_summaries_forget()`.execute(db);
  } else {
    await sql.raw(SQLITE_TRIGGER).execute(db);
  }

  await db.deleteFrom('submission_analyses').where('kind', 'like', 'summary:%').execute();

  const keyed = await db.selectFrom('credit_charges').select(['submission_id', 'step']).where('submission_id', 'like', '%:%').execute();
  for (const row of keyed as Array<{ submission_id: string; step: string }>) {
    const [id, ...rest] = row.submission_id.split(':');
    const variant = rest.join(':');
    const exists = await db.selectFrom('submissions').select('id').where('id', '=', id!).executeTakeFirst();
    const to = row.step === 'summary'
      ? { submission_id: `summary:${rest.at(-1)}`, step: 'summary' }
      : { submission_id: exists ? id! : `erased:${randomUUID()}`, step: variant.startsWith(`${row.step}:`) ? variant : `${row.step}:${variant}` };
    await db.updateTable('credit_charges').set(to).where('submission_id', '=', row.submission_id).where('step', '=', row.step).execute();
  }
  const orphans = await db.selectFrom('credit_charges as c').select(['c.submission_id', 'c.step'])
    .where('c.submission_id', 'not like', '%:%')
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('submissions as s').select('s.id').whereRef('s.id', '=', 'c.submission_id'))))
    .execute();
  for (const row of orphans as Array<{ submission_id: string; step: string }>) {
    await db.updateTable('credit_charges').set({ submission_id: `erased:${randomUUID()}` })
      .where('submission_id', '=', row.submission_id).where('step', '=', row.step).execute();
  }

  const text = t.engine === 'postgres' ? sql`cast(s.data as text)` : sql`s.data`;
  const folded = await db.selectFrom('submissions as s').select(['s.id', 's.form_id', 's.data'])
    .where(({ and, or, exists, selectFrom }) => and([
      or(FOLDED_INTO_ASCII.map((c) => sql<boolean>`${text} like ${`%${c}%`}`)),
      exists(selectFrom('subject_emails as e').select('e.submission_id').whereRef('e.submission_id', '=', 's.id')),
    ]))
    .execute();
  for (const row of folded as Array<{ id: string; form_id: string; data: unknown }>) {
    await db.deleteFrom('subject_emails').where('submission_id', '=', row.id).execute();
    const rows = subjectEmailRows(row);
    if (rows.length > 0) await db.insertInto('subject_emails').values(rows).onConflict((oc) => oc.doNothing()).execute();
  }
}
