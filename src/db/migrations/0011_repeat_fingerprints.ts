// Repeat detection indexed by the pipeline, not by the submit path. The (form_id, fingerprint)
// index on submissions took a random leaf page for every stored row, so every group commit wrote
// about one page of it per submission: over 40 % of the SQLite writer's CPU and 60 % of the bytes it
// wrote. The pipeline, which is the only reader, now records fingerprints itself, in seq order per
// form (fingerprint_marks says how far), before it counts a submission's earlier copies.
// A deleted submission's fingerprint leaves with it (a trigger, whichever code deletes).
// See pipeline/fingerprint-store.ts for why the count stays exact.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

const SQLITE_TRIGGER = `create trigger submission_fingerprints_delete after delete on submissions
  when old.fingerprint is not null begin
    delete from submission_fingerprints where form_id = old.form_id and fingerprint = old.fingerprint and seq = old.seq;
  end`;

// The form's mark is locked first: a recorder at work on the form (which holds it) commits before
// this looks, so what it recorded of the deleted rows is seen and removed, and one that comes after
// no longer sees them. (On SQLite, write transactions take turns anyway.)
const POSTGRES_FUNCTION = `create function submission_fingerprints_forget() returns trigger language plpgsql as $$
begin
  perform 1 from fingerprint_marks where form_id in (select form_id from deleted) order by form_id for update;
  delete from submission_fingerprints f using deleted d
  where f.form_id = d.form_id and f.fingerprint = d.fingerprint and f.seq = d.seq;
  return null;
end $$`;

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  let fingerprints = db.schema
    .createTable('submission_fingerprints')
    .addColumn('form_id', 'text', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('submission_fingerprints_pk', ['form_id', 'fingerprint', 'seq']);
  if (t.engine === 'sqlite') fingerprints = fingerprints.modifyEnd(sql`without rowid`);
  await fingerprints.execute();

  // Every submission of the form up to through_seq has its fingerprint recorded.
  await db.schema
    .createTable('fingerprint_marks')
    .addColumn('form_id', 'text', (c) => c.primaryKey().references('forms.id').onDelete('cascade'))
    .addColumn('through_seq', 'bigint', (c) => c.notNull())
    .execute();

  await sql`insert into submission_fingerprints (form_id, fingerprint, seq)
    select form_id, fingerprint, seq from submissions where fingerprint is not null`.execute(db);
  await sql`insert into fingerprint_marks (form_id, through_seq)
    select form_id, max(seq) from submissions group by form_id`.execute(db);
  await db.schema.dropIndex('submissions_form_fingerprint').execute();

  if (t.engine === 'postgres') {
    await sql.raw(POSTGRES_FUNCTION).execute(db);
    await sql`create trigger submission_fingerprints_delete after delete on submissions
      referencing old table as deleted for each statement execute function submission_fingerprints_forget()`.execute(db);
  } else {
    await sql.raw(SQLITE_TRIGGER).execute(db);
  }
}
