// Searching a form's submissions for the owner (and their agents): by spam verdict, text in the
// data, processing and reply status and time, newest first, a page at a time from a cursor.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { SubmissionsTable } from '../db/tables.ts';
import type { SpamFilter } from './store.ts';

export interface SearchQuery {
  filter: SpamFilter;
  /** Text the submitted data must contain, case-insensitively. */
  text?: string;
  processingStatus?: SubmissionsTable['processing_status'];
  replyStatus?: SubmissionsTable['reply_status'];
  /** ISO timestamps: created at or after `since`, before `until`. */
  since?: string;
  until?: string;
  limit: number;
  /** Only submissions older than the one this `seq` names (the previous page's last). */
  beforeSeq?: number;
}

/** The submitted data is stored as JSON text: the search term is matched in that form, wildcards escaped. */
function likePattern(text: string): string {
  const asJson = JSON.stringify(text.toLowerCase()).slice(1, -1);
  return `%${asJson.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function searchSubmissions(db: Db, formId: string, query: SearchQuery): Promise<Array<Selectable<SubmissionsTable>>> {
  let select = db.selectFrom('submissions').selectAll().where('form_id', '=', formId);
  if (query.filter !== 'all') select = select.where('spam_flag', '=', query.filter === 'spam');
  if (query.processingStatus) select = select.where('processing_status', '=', query.processingStatus);
  if (query.replyStatus) select = select.where('reply_status', '=', query.replyStatus);
  if (query.since) select = select.where('created_at', '>=', query.since);
  if (query.until) select = select.where('created_at', '<', query.until);
  if (query.beforeSeq !== undefined) select = select.where('seq', '<', query.beforeSeq);
  if (query.text) select = select.where(sql<boolean>`lower(cast(data as text)) like ${likePattern(query.text)} escape '\\'`);
  return select.orderBy('seq', 'desc').limit(query.limit).execute();
}
