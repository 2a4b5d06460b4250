// Records submissions' fingerprints for the repeat count (migration 0011), in seq order per form,
// before a job counts a submission's earlier copies. The submit path no longer indexes them: a
// content hash is random, and its index cost the SQLite writer a page per stored row.
//
// Why the count is still exact: a form's submissions commit in seq order (the submit path holds the
// form's row from its counter update, before the rows get their seq, to its commit), so when a
// submission is loaded every earlier one of its form is committed too. Recording every submission of
// the form up to the newest one loaded, and not only the job's own, records all of them, whichever
// job, worker or process got there first; fingerprint_marks says how far each form is recorded, and
// its row, locked first, makes two recorders of one form take turns (and a deletion wait for them:
// see the trigger of 0011).
//
// A recorder goes on past its own submissions, up to RECORD_AHEAD more of the form's, so that the
// jobs after it find theirs recorded (the mark comes with the rows they load) and write nothing: a
// backlog costs one write transaction per RECORD_AHEAD submissions, not one per job, and none holds
// SQLite's write lock for long.
//
// The same pass fills the data-subject index (subject_emails, migration 0014) for the same rows, so
// the mark also says how far a form's email addresses are indexed: a search finds the rest, which
// the pipeline has not reached yet, by reading them (data-subjects/store.ts). The submit path, whose
// throughput is the product's first target, writes nothing for it.
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { statement } from '../db/statement.ts';
import { subjectEmailRows } from '../data-subjects/subject-emails.ts';
import type { Transaction } from 'kysely';
import type { Tables } from '../db/tables.ts';

export const RECORD_AHEAD = 1024;

/** A form whose fingerprints must be recorded through `seq` before a submission of it is counted. */
export interface Unrecorded {
  formId: string;
  seq: number;
}

/**
 * Takes the form's mark, as a recorder does first, before a transaction deletes any of the form's
 * submissions. A recorder holds the mark while its subject_emails rows key-share-lock the submissions
 * they name, and the delete trigger of 0011 takes the mark after the deleted rows: a delete that did
 * not take it first waited on the recorder's mark while the recorder waited on its rows, and on
 * PostgreSQL one of them died of "deadlock detected" (the bulk delete answered 500). A no-op update
 * locks the row on PostgreSQL and costs SQLite nothing its write transaction does not hold already.
 */
export async function lockMarkForDelete(tx: Transaction<Tables>, formId: string): Promise<void> {
  await tx.updateTable('fingerprint_marks').set((eb) => ({ through_seq: eb.ref('through_seq') })).where('form_id', '=', formId).execute();
}

export function fingerprintRecorder(db: Db): (needs: Unrecorded[]) => Promise<void> {
  // Creates the form's mark if need be, and locks it until the commit on PostgreSQL.
  const lockMark = statement((qb, p: { formId: string }) =>
    qb.insertInto('fingerprint_marks').values({ form_id: p.formId, through_seq: 0 })
      .onConflict((oc) => oc.column('form_id').doUpdateSet((eb) => ({ through_seq: eb.ref('fingerprint_marks.through_seq') })))
      .returning('through_seq'));
  // The seq of the form's RECORD_AHEAD-th submission after `after`, or of its newest one before that.
  const aheadOfMark = statement((qb, p: { formId: string; after: number }) =>
    qb.selectFrom((sub) => sub.selectFrom('submissions').select('seq').where('form_id', '=', p.formId).where('seq', '>', p.after)
      .orderBy('seq').limit(RECORD_AHEAD).as('next'))
      .select((eb) => eb.fn.max('next.seq').as('seq')));
  const recordRange = statement((qb, p: { formId: string; after: number; through: number }) =>
    qb.insertInto('submission_fingerprints').columns(['form_id', 'fingerprint', 'seq'])
      .expression(qb.selectFrom('submissions')
        .select(['form_id', sql<string>`fingerprint`.as('fingerprint'), 'seq'])
        .where('form_id', '=', p.formId).where('seq', '>', p.after).where('seq', '<=', p.through).where('fingerprint', 'is not', null)
        // In seq order: two recorders that meet on the same rows wait for each other in one order.
        .orderBy('seq'))
      .onConflict((oc) => oc.doNothing()));
  const rangeData = statement((qb, p: { formId: string; after: number; through: number }) =>
    qb.selectFrom('submissions').select(['id', 'form_id', 'data']).where('form_id', '=', p.formId).where('seq', '>', p.after).where('seq', '<=', p.through));
  const setMark = statement((qb, p: { formId: string; through: number }) =>
    qb.updateTable('fingerprint_marks').set({ through_seq: p.through }).where('form_id', '=', p.formId).where('through_seq', '<', p.through));

  async function record(formId: string, needed: number): Promise<void> {
    await db.transaction().execute(async (tx) => {
      const through = Number((await lockMark(tx, { formId })).rows[0]?.through_seq ?? 0);
      if (through >= needed) return;
      const target = Math.max(needed, Number((await aheadOfMark(tx, { formId, after: through })).rows[0]?.seq ?? needed));
      await recordRange(tx, { formId, after: through, through: target });
      const emails = (await rangeData(tx, { formId, after: through, through: target })).rows.flatMap(subjectEmailRows);
      // 3 values a row: well below SQLite's 32,766 bound values per statement.
      for (let i = 0; i < emails.length; i += 2000) {
        await tx.insertInto('subject_emails').values(emails.slice(i, i + 2000)).onConflict((oc) => oc.doNothing()).execute();
      }
      await setMark(tx, { formId, through: target });
    });
  }

  return async (needs) => {
    // Forms in one order: two recorders of the same forms never wait on each other in a circle.
    for (const { formId, seq } of [...needs].sort((a, b) => (a.formId < b.formId ? -1 : 1))) await record(formId, seq);
  };
}
