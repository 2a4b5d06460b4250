// Searching a form's submissions for the owner (and their agents): by spam verdict, text in the
// data or its translation, processing and reply status and time, newest first, a page at a time from a cursor.
import { sql, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../db/database.ts';
import type { SubmissionsTable, Tables } from '../db/tables.ts';
import type { SpamFilter } from './store.ts';
import type { Engine } from '../db/migrations/column-types.ts';

export interface SearchQuery {
  filter: SpamFilter;
  /** Done or not; undefined: either. */
  done?: boolean;
  /** Text one of the submitted values must contain, case-insensitively (field names are not searched). */
  text?: string;
  processingStatus?: SubmissionsTable['processing_status'];
  replyStatus?: SubmissionsTable['reply_status'];
  /** ISO timestamps: created at or after `since`, before `until`. */
  since?: string;
  until?: string;
  limit: number;
  /** Only submissions older than the one this `seq` names (the previous page's last). */
  beforeSeq?: number;
  /** How many positions (`seq` values) a narrowed search reads at most; SEARCH_WINDOW unless a test says. */
  window?: number;
}

export interface SearchPage {
  rows: Array<Selectable<SubmissionsTable>>;
  /** Where the next page starts (exclusive), or null when nothing older is left. */
  nextBeforeSeq: number | null;
}

/**
 * No index serves text, status or time filters, so a search that matches little would read the whole
 * form: a search reads at most this many positions, newest first, and hands back a cursor to go on.
 */
export const SEARCH_WINDOW = 20_000;

/** A LIKE pattern for the text anywhere, case-insensitively, wildcards escaped. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** True for a row one of whose values in the JSON column contains the text (see valuesContain). */
function jsonValuesContain(column: 'data' | 'translated_data', text: string, engine: Engine) {
  const lower = text.toLowerCase();
  const inJson = likePattern(JSON.stringify(lower).slice(1, -1));
  const inValue = likePattern(lower);
  const ref = sql.ref(`submissions.${column}`);
  const values = engine === 'postgres'
    ? sql`exists (select 1 from jsonb_path_query(${ref}, 'strict $.**') as v(value)
        where jsonb_typeof(v.value) not in ('object', 'array') and lower(v.value #>> '{}') like ${inValue} escape '\\')`
    : sql`exists (select 1 from json_tree(${ref}) as v
        where v.type not in ('object', 'array') and lower(case v.type when 'true' then 'true' when 'false' then 'false' else v.atom end) like ${inValue} escape '\\')`;
  return sql<boolean>`(lower(cast(${ref} as text)) like ${inJson} escape '\\' and ${values})`;
}

/**
 * True for a row one of whose submitted values, or of their translations, contains the text,
 * case-insensitively: every string, number and boolean of the data, nested ones too, each on its
 * own. Not the field names, the keys of nested values or the JSON's punctuation, which a match in
 * the stored JSON text took too (`message` selected every row of a form with a `message` field).
 *
 * Each row's JSON is walked (jsonb_path_query on PostgreSQL, json_tree on SQLite) only when its
 * stored text contains the text as JSON escapes it, which every value containing it does: a row
 * without it costs what the whole search cost before, a row with it about 4 µs more on SQLite and
 * 8 µs on PostgreSQL (docs/api.md). A row without a translation has a null there: nothing to walk.
 */
export function valuesContain(text: string, engine: Engine) {
  return sql<boolean>`(${jsonValuesContain('data', text, engine)} or ${jsonValuesContain('translated_data', text, engine)})`;
}

/**
 * The narrowing filters of a query (text, statuses, times): the search's, and the filtered listing's.
 * `spamFlag` is the listing's spam shorthand given beside a filter that disagrees: both hold, so nothing does.
 */
export type Narrowing = Pick<SearchQuery, 'text' | 'processingStatus' | 'replyStatus' | 'since' | 'until'> & { spamFlag?: boolean };

export function isNarrowed(query: Narrowing): boolean {
  return Boolean(query.text || query.processingStatus || query.replyStatus || query.since || query.until || query.spamFlag !== undefined);
}

function narrowed<Q extends SelectQueryBuilder<Tables, 'submissions', O>, O>(select: Q, query: Narrowing, engine: Engine): Q {
  let q = select as SelectQueryBuilder<Tables, 'submissions', O>;
  if (query.spamFlag !== undefined) q = q.where('spam_flag', '=', query.spamFlag);
  if (query.processingStatus) q = q.where('processing_status', '=', query.processingStatus);
  if (query.replyStatus) q = q.where('reply_status', '=', query.replyStatus);
  if (query.since) q = q.where('created_at', '>=', query.since);
  if (query.until) q = q.where('created_at', '<', query.until);
  if (query.text) q = q.where(valuesContain(query.text, engine));
  return q as Q;
}

function split<O>(select: SelectQueryBuilder<Tables, 'submissions', O>, query: Pick<SearchQuery, 'filter' | 'done'>) {
  let q = select;
  if (query.filter !== 'all') q = q.where('spam_flag', '=', query.filter === 'spam');
  if (query.done !== undefined) q = q.where('done', '=', query.done);
  return q;
}

/** What the management listing filters by: a split and any narrowing, counted exactly and paged by offset. */
export type Filtered = Pick<SearchQuery, 'filter' | 'done'> & Narrowing;

/**
 * How many submissions a narrowed listing selects. No index serves the narrowing, so this reads
 * every row of the form the split selects (the search's window does not apply: a page count must be exact).
 */
export async function countMatching(db: Db, engine: Engine, formId: string, query: Filtered): Promise<number> {
  const select = narrowed(split(db.selectFrom('submissions').select((eb) => eb.fn.countAll().as('n')).where('form_id', '=', formId), query), query, engine);
  const row = await select.executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** One page of a narrowed listing, in arrival order either way (seq is the arrival order). */
export async function listMatching(
  db: Db, engine: Engine, formId: string, query: Filtered, page: { limit: number; offset: number; order: 'asc' | 'desc' },
): Promise<Array<Selectable<SubmissionsTable>>> {
  const select = narrowed(split(db.selectFrom('submissions').selectAll().where('form_id', '=', formId), query), query, engine);
  return select.orderBy('seq', page.order).limit(page.limit).offset(page.offset).execute();
}

export async function searchSubmissions(db: Db, engine: Engine, formId: string, query: SearchQuery): Promise<SearchPage> {
  let select = split(db.selectFrom('submissions').selectAll().where('form_id', '=', formId), query);
  if (query.beforeSeq !== undefined) select = select.where('seq', '<', query.beforeSeq);
  let floor: number | null = null;
  if (isNarrowed(query)) {
    const newest = await db.selectFrom('submissions').select((eb) => eb.fn.max('seq').as('seq')).where('form_id', '=', formId).executeTakeFirst();
    if (newest?.seq === null || newest?.seq === undefined) return { rows: [], nextBeforeSeq: null };
    floor = (query.beforeSeq ?? Number(newest.seq) + 1) - (query.window ?? SEARCH_WINDOW);
    select = narrowed(select.where('seq', '>=', floor), query, engine);
  }
  const rows = await select.orderBy('seq', 'desc').limit(query.limit).execute();
  const last = rows.at(-1);
  if (last && rows.length === query.limit) return { rows, nextBeforeSeq: Number(last.seq) };
  if (floor === null) return { rows, nextBeforeSeq: null };
  const older = await db.selectFrom('submissions').select('seq').where('form_id', '=', formId).where('seq', '<', floor).limit(1).executeTakeFirst();
  return { rows, nextBeforeSeq: older ? floor : null };
}
