// Records submissions' fingerprints for the repeat count (migration 0011), in seq order per form,
// before a job counts a submission's earlier copies. The submit path no longer indexes them: a
// content hash is random, and its index cost the SQLite writer a page per stored row.
//
// Why the count is still exact: a form's submissions commit in seq order (the submit path holds the
// form's row from its counter update, before the rows get their seq, to its commit), so when a
// submission is loaded every earlier one of its form is committed too. Recording every submission of
// the form up to the newest one loaded, and not only the job's own, records all of them, whichever
// job, worker or process got there first; fingerprint_marks says how far each form is recorded, and
// its row, locked first, makes two recorders of one form take turns.
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Engine } from '../db/migrations/column-types.ts';
import { statement } from '../db/statement.ts';

type IdsIn = (ids: unknown) => ReturnType<typeof sql<string>>;

export function fingerprintRecorder(db: Db, engine: Engine, idsIn: IdsIn): (ids: string) => Promise<void> {
  const newestPerForm = statement((qb, p: { ids: string }) =>
    qb.selectFrom('submissions').select((eb) => ['form_id', eb.fn.max('seq').as('seq')]).where('id', 'in', idsIn(p.ids)).groupBy('form_id'));
  // Creates the form's mark if need be, and locks it until the commit on PostgreSQL.
  const lockMark = statement((qb, p: { formId: string }) =>
    qb.insertInto('fingerprint_marks').values({ form_id: p.formId, through_seq: 0 })
      .onConflict((oc) => oc.column('form_id').doUpdateSet((eb) => ({ through_seq: eb.ref('fingerprint_marks.through_seq') })))
      .returning('through_seq'));
  const recordRange = statement((qb, p: { formId: string; after: number | string; through: number | string }) => {
    let rows = qb.selectFrom('submissions')
      .select(['form_id', sql<string>`fingerprint`.as('fingerprint'), 'seq'])
      .where('form_id', '=', p.formId).where('seq', '>', p.after).where('seq', '<=', p.through).where('fingerprint', 'is not', null)
      .orderBy('seq');
    // A submission deleted meanwhile is either skipped or waits for this commit, after which its
    // delete trigger removes what was recorded: no fingerprint outlives its submission. (SQLite
    // runs one write transaction at a time.)
    if (engine === 'postgres') rows = rows.forKeyShare();
    return qb.insertInto('submission_fingerprints').columns(['form_id', 'fingerprint', 'seq']).expression(rows).onConflict((oc) => oc.doNothing());
  });
  const setMark = statement((qb, p: { formId: string; through: number | string }) =>
    qb.updateTable('fingerprint_marks').set({ through_seq: p.through }).where('form_id', '=', p.formId).where('through_seq', '<', p.through));

  return async (ids) => {
    const { rows } = await newestPerForm(db, { ids });
    // Forms in one order: two recorders of the same forms never wait on each other in a circle.
    for (const { form_id: formId, seq } of rows.sort((a, b) => (a.form_id < b.form_id ? -1 : 1))) {
      await db.transaction().execute(async (tx) => {
        const through = (await lockMark(tx, { formId })).rows[0]?.through_seq ?? 0;
        if (Number(through) >= Number(seq)) return;
        await recordRange(tx, { formId, after: through, through: seq });
        await setMark(tx, { formId, through: seq });
      });
    }
  };
}
