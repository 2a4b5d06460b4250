// Reads a form's submissions for an export: oldest first, a chunk at a time by keyset on seq, each
// statement bounded to a window of the form's positions, so no statement reads the whole form (a
// narrow date range or a search that matches little would otherwise make one statement scan it all,
// and on SQLite that statement runs on the event loop). Nothing is held between chunks: no
// transaction, no cursor, no connection; the submit path never waits on an export.
import type { Db } from '../db/database.ts';
import type { SubmissionsTable } from '../db/tables.ts';
import { fromJson, toBool, toIso } from '../db/values.ts';
import type { FieldsSchema } from '../forms/field-schema.ts';
import type { SpamFilter } from '../submissions/store.ts';
import { valuesContain } from '../submissions/search.ts';
import type { Engine } from '../db/migrations/column-types.ts';

export interface ExportQuery {
  filter: SpamFilter;
  /** Done (archived) or not; undefined: either (the dashboard's Inbox and Done tabs set it). */
  done?: boolean;
  /** ISO timestamps: created at or after `from`, before or at `to`. */
  from?: string;
  to?: string;
  /** Text the submitted data contains (the inbox's search). */
  text?: string;
  processingStatus?: SubmissionsTable['processing_status'];
}

export interface ExportRow {
  seq: number;
  id: string;
  created_at: string;
  data: Record<string, unknown>;
  spam_flag: boolean;
  spam_reason: string | null;
  original_language: string | null;
  translated_data: Record<string, unknown> | null;
  reply_status: SubmissionsTable['reply_status'];
}

/** Positions (seq values) one statement covers at most. */
export const EXPORT_WINDOW = 20_000;

export function exportStore(db: Db, engine: Engine) {
  function matching(formId: string, query: ExportQuery, after: number, through: number) {
    let select = db.selectFrom('submissions').where('form_id', '=', formId).where('seq', '>', after).where('seq', '<=', through);
    if (query.filter !== 'all') select = select.where('spam_flag', '=', query.filter === 'spam');
    if (query.done !== undefined) select = select.where('done', '=', query.done);
    if (query.from) select = select.where('created_at', '>=', query.from);
    if (query.to) select = select.where('created_at', '<=', query.to);
    if (query.processingStatus) select = select.where('processing_status', '=', query.processingStatus);
    if (query.text) select = select.where(valuesContain(query.text, engine));
    return select;
  }

  return {
    /** The form's schema versions, newest first. */
    async versions(formId: string): Promise<FieldsSchema[]> {
      const rows = await db.selectFrom('form_versions').select('fields_schema').where('form_id', '=', formId).orderBy('version', 'desc').execute();
      return rows.map((row) => fromJson(row.fields_schema) as FieldsSchema);
    },

    /** The newest position of the form when the export starts: rows stored later are not part of it. */
    async lastSeq(formId: string): Promise<number> {
      const row = await db.selectFrom('submissions').select((eb) => eb.fn.max('seq').as('seq')).where('form_id', '=', formId).executeTakeFirst();
      return row?.seq === null || row?.seq === undefined ? 0 : Number(row.seq);
    },

    /** The oldest position of the form, where a walk starts. */
    async firstSeq(formId: string): Promise<number> {
      const row = await db.selectFrom('submissions').select((eb) => eb.fn.min('seq').as('seq')).where('form_id', '=', formId).executeTakeFirst();
      return row?.seq === null || row?.seq === undefined ? 0 : Number(row.seq);
    },

    /** Whether any of the newest EXPORT_WINDOW positions has a translation (an export then has translation columns). */
    async hasTranslations(formId: string, lastSeq: number): Promise<boolean> {
      const row = await db.selectFrom('submissions').select('id').where('form_id', '=', formId)
        .where('seq', '>', lastSeq - EXPORT_WINDOW).where('translated_data', 'is not', null).limit(1).executeTakeFirst();
      return row !== undefined;
    },

    /** How many rows with after < seq <= through match. */
    async count(formId: string, query: ExportQuery, after: number, through: number): Promise<number> {
      const row = await matching(formId, query, after, through).select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** Up to `limit` matching rows with after < seq <= through, oldest first. */
    async chunk(formId: string, query: ExportQuery, after: number, through: number, limit: number): Promise<ExportRow[]> {
      const rows = await matching(formId, query, after, through)
        .select(['seq', 'id', 'created_at', 'data', 'spam_flag', 'spam_reason', 'original_language', 'translated_data', 'reply_status'])
        .orderBy('seq').limit(limit).execute();
      return rows.map((row) => ({
        seq: Number(row.seq),
        id: row.id,
        created_at: toIso(row.created_at),
        data: fromJson(row.data) as Record<string, unknown>,
        spam_flag: toBool(row.spam_flag),
        spam_reason: row.spam_reason,
        original_language: row.original_language,
        translated_data: fromJson(row.translated_data) as Record<string, unknown> | null,
        reply_status: row.reply_status,
      }));
    },
  };
}

export type ExportStore = ReturnType<typeof exportStore>;

/**
 * Every matching row from `first` through `last`, oldest first, `chunkSize` at a time: a window of
 * positions per statement, the next window only when the consumer asks for more rows.
 */
export async function* walkRows(store: ExportStore, formId: string, query: ExportQuery, range: { first: number; last: number }, chunkSize: number): AsyncGenerator<ExportRow[]> {
  let after = range.first - 1;
  while (after < range.last) {
    const through = Math.min(range.last, after + EXPORT_WINDOW);
    const rows = await store.chunk(formId, query, after, through, chunkSize);
    if (rows.length === chunkSize) {
      after = rows.at(-1)!.seq;
    } else {
      after = through;
    }
    if (rows.length > 0) yield rows;
  }
}

/** How many rows match, from `first` through `last`: one bounded statement per window. */
export async function countRows(store: ExportStore, formId: string, query: ExportQuery, range: { first: number; last: number }): Promise<number> {
  let total = 0;
  for (let after = range.first - 1; after < range.last; after += EXPORT_WINDOW) {
    total += await store.count(formId, query, after, Math.min(range.last, after + EXPORT_WINDOW));
  }
  return total;
}
