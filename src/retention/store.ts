// The only code that finds and deletes submissions past their form's retention. Oldest first along
// the form's listing indexes (seq order, and its spam-only one), a small batch per transaction, so
// neither the submit path nor the inbox waits on a purge: on SQLite each batch holds the write lock
// for a moment, on PostgreSQL it locks only its own rows and the form's counter row.
import type { Db } from '../db/database.ts';
import type { Engine } from '../db/migrations/column-types.ts';
import { toIso } from '../db/values.ts';
import { deleteSubmissions } from '../data-subjects/store.ts';

/** Submissions per transaction. */
export const PURGE_BATCH = 200;

/** Which of a form's submissions a pass looks at. */
export type Which = 'spam' | 'ham' | 'all';

export interface RetainingForm {
  id: string;
  accountId: string;
  name: string;
  retentionDays: number | null;
  spamRetentionDays: number | null;
}

export function retentionStore(db: Db, engine: Engine) {
  /**
   * The ids among the form's oldest `limit` (spam, not spam, or all) created before `cutoff`, after `afterSeq`.
   * A row's created_at follows its seq to within a batch's gathering, so the oldest come first; the
   * walk stops at a batch with nothing old in it.
   */
  async function oldest(formId: string, which: Which, cutoff: string, afterSeq: number, limit: number) {
    let query = db.selectFrom('submissions').select(['id', 'seq', 'created_at']).where('form_id', '=', formId).where('seq', '>', afterSeq);
    if (which !== 'all') query = query.where('spam_flag', '=', which === 'spam');
    const rows = await query.orderBy('seq').limit(limit).execute();
    return {
      expired: rows.filter((row) => toIso(row.created_at) < cutoff).map((row) => row.id),
      lastSeq: rows.length === limit ? Number(rows.at(-1)!.seq) : null,
    };
  }

  return {
    async retainingForms(): Promise<RetainingForm[]> {
      const rows = await db.selectFrom('forms').select(['id', 'account_id', 'name', 'retention_days', 'spam_retention_days'])
        .where((eb) => eb.or([eb('retention_days', 'is not', null), eb('spam_retention_days', 'is not', null)])).orderBy('id').execute();
      return rows.map((r) => ({ id: r.id, accountId: r.account_id, name: r.name, retentionDays: r.retention_days, spamRetentionDays: r.spam_retention_days }));
    },

    /** Deletes the form's submissions (spam, not spam, or all) created before `cutoff`, a batch per transaction; returns how many. */
    async purge(formId: string, which: Which, cutoff: string): Promise<number> {
      let purged = 0;
      for (;;) {
        const { expired } = await oldest(formId, which, cutoff, 0, PURGE_BATCH);
        if (expired.length === 0) return purged;
        purged += await db.transaction().execute((tx) => deleteSubmissions(tx, engine, formId, expired));
      }
    },

    /** How many `purge` would delete now, read the same way without deleting. */
    async count(formId: string, which: Which, cutoff: string): Promise<number> {
      let counted = 0;
      let after = 0;
      for (;;) {
        const { expired, lastSeq } = await oldest(formId, which, cutoff, after, PURGE_BATCH);
        counted += expired.length;
        if (expired.length === 0 || lastSeq === null) return counted;
        after = lastSeq;
      }
    },
  };
}

export type RetentionStore = ReturnType<typeof retentionStore>;
