// The only code that reads and writes submissions (and the counters that move with them).
import type { Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import type { SubmissionsTable, Tables } from '../db/tables.ts';
import { fromJson, toBool, toIso, toIsoOrNull } from '../db/values.ts';
import type { Selectable } from 'kysely';
import { insertBatch, keyOf, type BatchStatements, type FindByKeys, type KeyedSubmission, type SubmissionRow } from './insert-batch.ts';
import type { DatabaseSync } from 'node:sqlite';
import { preparedInsert } from '../db/sqlite-dialect.ts';
import { searchSubmissions, type SearchQuery } from './search.ts';
import { sql } from 'kysely';
import { LISTING_BLOCK_SIZE } from '../db/migrations/0003_listing.ts';
import type { FieldDefinition, FieldsSchema } from '../forms/field-schema.ts';
import { correctedSpamReason } from '../pipeline/spam/correction-reason.ts';

export type SpamFilter = 'inbox' | 'spam' | 'all';

export interface SubmissionMetadata {
  ip: string;
  user_agent: string | null;
  referer: string | null;
  origin: string | null;
  utm: Record<string, string>;
}

export interface NewSubmission {
  id: string;
  formId: string;
  accountId: string;
  versionId: string;
  data: Record<string, unknown>;
  metadata: SubmissionMetadata;
  idempotencyKey: string | null;
  /** Hash of the request the key came with (idempotencyRequestHash); null without a key. */
  idempotencyHash: string | null;
  fingerprint: string;
  createdAt: string;
  /** The free plan's lifetime cap (a pro owner has none), or null for no cap at all. */
  submissionCap: number | null;
}

export type InsertOutcome =
  | { kind: 'created' }
  | { kind: 'duplicate'; existing: Submission }
  /** The Idempotency-Key was stored with another request. */
  | { kind: 'key_reused' }
  | { kind: 'plan_limit' }
  /** The form was deleted after the request found it. */
  | { kind: 'form_gone' };

/** A submission as the management API shows it: every field of the spec, plus metadata. */
export interface Submission {
  id: string;
  data: Record<string, unknown>;
  created_at: string;
  processing_status: SubmissionsTable['processing_status'];
  processing_reason: string | null;
  spam_flag: boolean;
  spam_confidence: number | null;
  spam_reason: string | null;
  original_language: string | null;
  translated_data: Record<string, unknown> | null;
  reply_status: SubmissionsTable['reply_status'];
  /** Subject of the smart reply; `Re: <form name>` unless edited. */
  reply_subject: string | null;
  reply_content: string | null;
  reply_reason: string | null;
  replied_at: string | null;
  processed_at: string | null;
  /** When the owner last corrected spam_flag; null while it is the pipeline's verdict. */
  spam_corrected_at: string | null;
  metadata: SubmissionMetadata;
}

export type SpamCorrection = 'corrected' | 'unchanged' | 'missing' | 'unprocessed';

/** A corrected submission as the spam learning sees it, handed over inside the correction's transaction. */
export interface CorrectedSample {
  data: Record<string, unknown>;
  fields: FieldDefinition[];
  spam: boolean;
  /** The owner had corrected it the other way before. */
  reverses: boolean;
}
export type LearnFromCorrection = (tx: Transaction<Tables>, sample: CorrectedSample) => Promise<void>;

function toSubmission(row: Selectable<SubmissionsTable>): Submission {
  return {
    id: row.id,
    data: fromJson(row.data) as Record<string, unknown>,
    created_at: toIso(row.created_at),
    processing_status: row.processing_status,
    processing_reason: row.processing_reason,
    spam_flag: toBool(row.spam_flag),
    spam_confidence: row.spam_confidence,
    spam_reason: row.spam_reason,
    original_language: row.original_language,
    translated_data: fromJson(row.translated_data) as Record<string, unknown> | null,
    reply_status: row.reply_status,
    reply_subject: row.reply_subject,
    reply_content: row.reply_content,
    reply_reason: row.reply_reason,
    replied_at: toIsoOrNull(row.replied_at),
    processed_at: toIsoOrNull(row.processed_at),
    spam_corrected_at: toIsoOrNull(row.spam_corrected_at),
    metadata: fromJson(row.metadata) as SubmissionMetadata,
  };
}

/** Submissions as the management API shows them, by id, read with the caller's transaction or connection. */
export async function readSubmissions(executor: Db | Transaction<Tables>, ids: string[]): Promise<Map<string, Submission>> {
  if (ids.length === 0) return new Map();
  const rows = await executor.selectFrom('submissions').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, toSubmission(row)]));
}

const findByIdempotencyKeys: FindByKeys = async (tx, items) => {
  const found = new Map<string, KeyedSubmission>();
  if (items.length === 0) return found;
  const rows = await tx
    .selectFrom('submissions')
    .selectAll()
    .where((eb) => eb(eb.refTuple('form_id', 'idempotency_key'), 'in', items.map((item) => eb.tuple(item.formId, item.idempotencyKey))))
    .execute();
  for (const row of rows) found.set(keyOf(row.form_id, row.idempotency_key as string), { submission: toSubmission(row), hash: row.idempotency_hash });
  return found;
};

/** PostgreSQL's type of each column a new submission row fills (json columns arrive as JSON text). */
const POSTGRES_TYPES: Record<keyof SubmissionRow, string> = {
  id: 'text', form_id: 'text', version_id: 'text', data: 'jsonb', metadata: 'jsonb', idempotency_key: 'text',
  idempotency_hash: 'text', fingerprint: 'text', processing_status: 'text', spam_flag: 'boolean', reply_status: 'text', created_at: 'timestamptz',
};
const POSTGRES_COLUMNS = Object.keys(POSTGRES_TYPES) as Array<keyof SubmissionRow>;

/**
 * PostgreSQL: one INSERT … SELECT FROM json_to_recordset($1) for the whole batch, the same text
 * whatever its size. The rows travel as one JSON parameter: pg's escaping of one array per column
 * cost the event loop more than the statement cost the server.
 */
const postgresBatchStatements: BatchStatements = {
  findByKeys: findByIdempotencyKeys,
  async insertRows(tx, rows) {
    const declared = POSTGRES_COLUMNS.map((c) => sql`${sql.id(c)} ${sql.raw(POSTGRES_TYPES[c] === 'jsonb' ? 'text' : POSTGRES_TYPES[c])}`);
    const selected = POSTGRES_COLUMNS.map((c) => (POSTGRES_TYPES[c] === 'jsonb' ? sql`${sql.id(c)}::jsonb` : sql.id(c)));
    const { rows: stored } = await sql<{ id: string }>`
      insert into submissions (${sql.join(POSTGRES_COLUMNS.map((c) => sql.id(c)))})
      select ${sql.join(selected)} from json_to_recordset(${JSON.stringify(rows)}::json) as r(${sql.join(declared)})
      on conflict (form_id, idempotency_key) do nothing returning id`.execute(tx);
    return new Set(stored.map((r) => r.id));
  },
};

/**
 * Where a deep page starts, from the per-block counts that migration 0003 keeps: the newest block
 * whose running count (newest first) passes the offset holds the page's first row. Null past the end.
 */
async function deepPageStart(db: Db, formId: string, filter: SpamFilter, offset: number): Promise<{ belowSeq: number; skip: number } | null> {
  const counted = filter === 'all' ? sql`total` : filter === 'spam' ? sql`spam` : sql`total - spam`;
  const { rows } = await sql<{ block: number | string; newer: number | string }>`
    select block, running - counted as newer from (
      select block, ${counted} as counted,
        sum(${counted}) over (order by block desc rows between unbounded preceding and current row) as running
      from submission_blocks where form_id = ${formId}
    ) as blocks where running > ${offset} order by block desc limit 1`.execute(db);
  const found = rows[0];
  if (!found) return null;
  return { belowSeq: (Number(found.block) + 1) * LISTING_BLOCK_SIZE, skip: offset - Number(found.newer) };
}

/** SQLite: one prepared single-row insert per row, on the connection that runs the transaction. */
function preparedSqliteStatements(db: DatabaseSync): BatchStatements {
  let insert: ((row: SubmissionRow) => boolean) | null = null;
  return {
    findByKeys: findByIdempotencyKeys,
    async insertRows(_tx, rows) {
      insert ??= preparedInsert(db, 'submissions', rows[0]!, 'on conflict (form_id, idempotency_key) do nothing');
      const inserted = new Set<string>();
      for (const row of rows) if (insert(row)) inserted.add(row.id);
      return inserted;
    },
  };
}

/** Called inside a spam correction's transaction when the pipeline must run the steps spam made it skip. */
export type OnResume = (tx: Transaction<Tables>) => Promise<void>;

/** What a spam correction sets off in its own transaction: the skipped steps resumed, the owner's filter taught. */
export interface CorrectionEffects {
  resume?: OnResume;
  learn?: LearnFromCorrection;
}

/** Called inside the insert transaction with the submissions it created, to enqueue their processing. */
export type OnCreated = (tx: Transaction<Tables>, created: NewSubmission[]) => Promise<void>;

/** The batch statements for a connection: prepared ones on SQLite, unnest on PostgreSQL. */
export function batchStatementsFor(connection: DatabaseSync | null): BatchStatements {
  return connection ? preparedSqliteStatements(connection) : postgresBatchStatements;
}

export function submissionStore(db: Db, statements: BatchStatements) {
  return {
    /** Stores a batch in one transaction: one commit makes all of it, and its processing jobs, durable. */
    async insertBatch(items: NewSubmission[], onCreated: OnCreated): Promise<InsertOutcome[]> {
      return db.transaction().execute(async (tx) => {
        const outcomes = await insertBatch(tx, items, statements);
        const created = items.filter((_, i) => outcomes[i]?.kind === 'created');
        if (created.length > 0) await onCreated(tx, created);
        return outcomes;
      });
    },

    async list(formId: string, filter: SpamFilter, limit: number, offset: number): Promise<Submission[]> {
      let query = db.selectFrom('submissions').selectAll().where('form_id', '=', formId);
      if (filter !== 'all') query = query.where('spam_flag', '=', filter === 'spam');
      // A shallow page skips fewer index entries than a block holds; a deep one seeks to its block first.
      let skip = offset;
      if (offset >= LISTING_BLOCK_SIZE) {
        const start = await deepPageStart(db, formId, filter, offset);
        if (!start) return [];
        query = query.where('seq', '<', start.belowSeq);
        skip = start.skip;
      }
      const rows = await query.orderBy('seq', 'desc').limit(limit).offset(skip).execute();
      return rows.map(toSubmission);
    },

    /** One page of a search, and where the next one starts. */
    async search(formId: string, query: SearchQuery): Promise<{ submissions: Submission[]; nextBeforeSeq: number | null }> {
      const page = await searchSubmissions(db, formId, query);
      return { submissions: page.rows.map(toSubmission), nextBeforeSeq: page.nextBeforeSeq };
    },

    async get(formId: string, id: string): Promise<Submission | null> {
      const row = await db.selectFrom('submissions').selectAll().where('form_id', '=', formId).where('id', '=', id).executeTakeFirst();
      return row ? toSubmission(row) : null;
    },

    /** Deletes unless a worker holds it; the form's counters move in the same transaction. */
    async delete(formId: string, id: string): Promise<'deleted' | 'missing' | 'busy'> {
      return db.transaction().execute(async (tx) => {
        const row = await tx
          .deleteFrom('submissions')
          .where('form_id', '=', formId)
          .where('id', '=', id)
          .where('processing_status', '!=', 'processing')
          .returning(['spam_flag'])
          .executeTakeFirst();
        if (!row) {
          const exists = await tx.selectFrom('submissions').select('id').where('form_id', '=', formId).where('id', '=', id).executeTakeFirst();
          return exists ? 'busy' : 'missing';
        }
        const spam = toBool(row.spam_flag) ? 1 : 0;
        await tx
          .updateTable('forms')
          .set((eb) => ({ submission_count: eb('submission_count', '-', 1), spam_count: eb('spam_count', '-', spam) }))
          .where('id', '=', formId)
          .execute();
        return 'deleted';
      });
    },

    /**
     * The owner's verdict replaces the pipeline's, with who and when recorded; the form's spam
     * counter moves with the flag. Only processed submissions: the pipeline would overwrite it.
     * `learn` runs in the same transaction, so a correction and what it teaches are stored together.
     */
    async correctSpam(formId: string, id: string, spam: boolean, by: string, at: string, effects: CorrectionEffects = {}): Promise<SpamCorrection> {
      const { resume, learn } = effects;
      return db.transaction().execute(async (tx) => {
        const row = await tx
          .selectFrom('submissions as s')
          .innerJoin('form_versions as v', 'v.id', 's.version_id')
          .select(['s.spam_flag', 's.spam_reason', 's.processing_status', 's.processing_reason', 's.spam_corrected_at', 's.data', 'v.fields_schema'])
          .where('s.form_id', '=', formId)
          .where('s.id', '=', id)
          .executeTakeFirst();
        if (!row) return 'missing';
        if (row.processing_status === 'pending' || row.processing_status === 'processing') return 'unprocessed';
        if (toBool(row.spam_flag) === spam) return 'unchanged';
        await tx
          .updateTable('submissions')
          .set({
            spam_flag: spam,
            spam_reason: correctedSpamReason(spam, row.spam_reason),
            spam_corrected_at: at,
            spam_corrected_by: by,
          })
          .where('id', '=', id)
          .execute();
        // The pipeline stopped at its spam verdict: the steps it skipped run now, once, in a job
        // enqueued with the correction (a later correction finds the reason changed and resumes nothing).
        if (!spam && row.processing_reason === 'spam_detected' && resume) {
          await tx
            .updateTable('submissions')
            .set({ processing_status: 'pending', processing_reason: 'resumed: marked as not spam' })
            .where('id', '=', id)
            .execute();
          await resume(tx);
        }
        await tx
          .updateTable('forms')
          .set((eb) => ({ spam_count: eb('spam_count', '+', spam ? 1 : -1) }))
          .where('id', '=', formId)
          .execute();
        if (learn) {
          const { fields } = fromJson(row.fields_schema) as FieldsSchema;
          await learn(tx, { data: fromJson(row.data) as Record<string, unknown>, fields, spam, reverses: row.spam_corrected_at !== null });
        }
        return 'corrected';
      });
    },
  };
}

export type SubmissionStore = ReturnType<typeof submissionStore>;
