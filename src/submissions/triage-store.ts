// The owner's triage of submissions: read and done marks, and finding every submission a filter
// selects a window of positions at a time, so that acting on "all matching" never runs one
// statement over a whole form (on SQLite a statement runs on the event loop).
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../db/database.ts';
import type { SubmissionsTable, Tables } from '../db/tables.ts';
import { valuesContain, SEARCH_WINDOW } from './search.ts';
import type { Split } from './store.ts';
import type { Engine } from '../db/migrations/column-types.ts';
import { lockInSeqOrder } from './row-locks.ts';

export type MarkOutcome = 'changed' | 'unchanged' | 'missing';

/** What "all matching" selects: a split of the listing and, optionally, text in the data. */
export interface Selection extends Split {
  text?: string;
  processingStatus?: SubmissionsTable['processing_status'];
}

/** The selection's conditions on a query of one form's submissions (text aside: callers bound its cost). */
function narrowed<O>(query: SelectQueryBuilder<Tables, 'submissions', O>, selection: Selection): SelectQueryBuilder<Tables, 'submissions', O> {
  let q = query;
  if (selection.filter !== 'all') q = q.where('spam_flag', '=', selection.filter === 'spam');
  if (selection.done !== undefined) q = q.where('done', '=', selection.done);
  if (selection.processingStatus) q = q.where('processing_status', '=', selection.processingStatus);
  return q;
}

export function triageStore(db: Db, engine: Engine) {
  /** Which of the ids the form has: the rest are reported missing. */
  async function outcomesOf(formId: string, ids: string[], changed: Set<string>): Promise<Map<string, MarkOutcome>> {
    const outcomes = new Map<string, MarkOutcome>(ids.map((id) => [id, 'missing']));
    const rest = ids.filter((id) => !changed.has(id));
    if (rest.length > 0) {
      const found = await db.selectFrom('submissions').select('id').where('form_id', '=', formId).where('id', 'in', rest).execute();
      for (const row of found) outcomes.set(row.id, 'unchanged');
    }
    for (const id of changed) outcomes.set(id, 'changed');
    return outcomes;
  }

  return {
    /** Read keeps the first time it was read; unread clears it. */
    async markRead(formId: string, ids: string[], read: boolean, at: string, by: string | null = null): Promise<Map<string, MarkOutcome>> {
      if (ids.length === 0) return new Map();
      const rows = await db.transaction().execute(async (tx) => {
        await lockInSeqOrder(tx, engine, formId, ids);
        return tx.updateTable('submissions').set({ read_at: read ? at : null, read_by: read ? by : null })
          .where('form_id', '=', formId).where('id', 'in', ids).where('read_at', read ? 'is' : 'is not', null)
          .returning('id').execute();
      });
      return outcomesOf(formId, ids, new Set(rows.map((row) => row.id)));
    },

    async markDone(formId: string, ids: string[], done: boolean, at: string, by: string | null = null): Promise<Map<string, MarkOutcome>> {
      if (ids.length === 0) return new Map();
      const rows = await db.transaction().execute(async (tx) => {
        await lockInSeqOrder(tx, engine, formId, ids);
        return tx.updateTable('submissions').set({ done, done_at: done ? at : null, done_by: by })
          .where('form_id', '=', formId).where('id', 'in', ids).where('done', '=', !done)
          .returning('id').execute();
      });
      return outcomesOf(formId, ids, new Set(rows.map((row) => row.id)));
    },

    /** The newest position of a form, where a walk over everything a selection matches starts; null when it has none. */
    async newestSeq(formId: string): Promise<number | null> {
      const row = await db.selectFrom('submissions').select((eb) => eb.fn.max('seq').as('seq')).where('form_id', '=', formId).executeTakeFirst();
      return row?.seq === null || row?.seq === undefined ? null : Number(row.seq);
    },

    /**
     * The submissions just newer and just older than one, within a selection: the submission page's
     * previous and next. With text, only the SEARCH_WINDOW positions either side are looked through.
     */
    async neighbours(formId: string, id: string, selection: Selection): Promise<{ newer: string | null; older: string | null }> {
      const at = await db.selectFrom('submissions').select('seq').where('form_id', '=', formId).where('id', '=', id).executeTakeFirst();
      if (!at) return { newer: null, older: null };
      const seq = Number(at.seq);
      const side = async (newer: boolean) => {
        let query = narrowed(db.selectFrom('submissions').select('id').where('form_id', '=', formId).where('seq', newer ? '>' : '<', seq), selection);
        if (selection.text) query = query.where('seq', newer ? '<=' : '>=', newer ? seq + SEARCH_WINDOW : seq - SEARCH_WINDOW).where(valuesContain(selection.text, engine));
        const row = await query.orderBy('seq', newer ? 'asc' : 'desc').limit(1).executeTakeFirst();
        return row?.id ?? null;
      };
      return { newer: await side(true), older: await side(false) };
    },

    /**
     * The next chunk of what a selection matches, newest first, among at most `limit` of the form's
     * submissions older than `belowSeq`: text is tested on each row read, not searched for, so a rare
     * term still reads no more than `limit` rows per call. `nextBelowSeq` is null at the oldest.
     */
    async matchingChunk(formId: string, selection: Selection, belowSeq: number, limit: number): Promise<{ ids: string[]; nextBelowSeq: number | null }> {
      const hit = selection.text ? valuesContain(selection.text, engine) : sql<boolean>`1 = 1`;
      const query = narrowed(db.selectFrom('submissions').select(['id', 'seq', hit.as('hit')]).where('form_id', '=', formId).where('seq', '<', belowSeq), selection);
      const rows = await query.orderBy('seq', 'desc').limit(limit).execute();
      const last = rows.at(-1);
      return {
        ids: rows.filter((row) => row.hit === true || Number(row.hit) === 1).map((row) => row.id),
        nextBelowSeq: rows.length === limit && last ? Number(last.seq) : null,
      };
    },
  };
}

export type TriageStore = ReturnType<typeof triageStore>;
