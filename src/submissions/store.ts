// The only code that reads and writes submissions (and the counters that move with them); the
// statements that insert a batch of new ones, one kind per engine, are batch-statements.ts's.
import type { Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import type { SubmissionsTable, Tables } from '../db/tables.ts';
import { fromJson, toBool, toIso, toIsoOrNull } from '../db/values.ts';
import type { Selectable } from 'kysely';
import { insertBatch, type BatchStatements } from './insert-batch.ts';
import { countMatching, listMatching, searchSubmissions, type Filtered, type SearchQuery } from './search.ts';
import { sql } from 'kysely';
import { LISTING_BLOCK_SIZE } from '../db/migrations/0003_listing.ts';
import type { FieldDefinition, FieldsSchema } from '../forms/field-schema.ts';
import { correctedSpamReason } from '../pipeline/spam/correction-reason.ts';
import { lockMarkForDelete } from '../pipeline/fingerprint-store.ts';
import { lockInSeqOrder } from './row-locks.ts';
import type { Engine } from '../db/migrations/column-types.ts';
import type { ReplyConfidence } from '../replies/evidence.ts';
import type { StoredUpload } from '../files/uploads.ts';

export type SpamFilter = 'inbox' | 'spam' | 'all';

/** What a listing selects: the spec's spam filter, and the done state when given (undefined: either). */
export interface Split {
  filter: SpamFilter;
  done?: boolean;
}

/** Each block's count of the submissions a split selects, from the columns of migrations 0003 and 0023. */
function countedInBlock(split: Split) {
  const { filter, done } = split;
  if (done === undefined) return filter === 'all' ? sql`total` : filter === 'spam' ? sql`spam` : sql`total - spam`;
  if (filter === 'all') return done ? sql`done` : sql`total - done`;
  if (filter === 'spam') return done ? sql`done_spam` : sql`spam - done_spam`;
  return done ? sql`done - done_spam` : sql`total - spam - done + done_spam`;
}

export interface SubmissionMetadata {
  ip: string;
  user_agent: string | null;
  referer: string | null;
  origin: string | null;
  utm: Record<string, string>;
  /**
   * Why the endpoint itself stored this submission as spam (a CAPTCHA provider that could not say);
   * the spam step takes it as its verdict, whatever the form's spam settings.
   */
  flagged_spam?: string;
  /** A plain HTML form's filled `_gotcha` honeypot: stored as spam, answered as success. */
  honeypot?: true;
  /** No Origin or Referer on a post to a form that lists its websites: a spam signal. */
  origin_unknown?: true;
  /** A plain HTML form's `_subject` (one line, capped): the notification email's subject. */
  subject?: string;
  /** A plain HTML form's `_replyto` (one address): the notification email's Reply-To. */
  reply_to?: string;
  /** A plain HTML form's `_language`: the language of Intake's pages for this post. */
  language?: string;
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
  /** Uploads already in the file storage: their rows are inserted with the submission's. */
  files?: StoredUpload[];
  /** The submit request's trace context (src/tracing), carried into its processing job; absent while tracing is off. */
  traceparent?: string;
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
  /** How sure the drafted reply is and what it quotes (replies/evidence.ts); null for a model's or a person's reply. */
  reply_confidence: ReplyConfidence | null;
  replied_at: string | null;
  processed_at: string | null;
  /** When the owner last corrected spam_flag; null while it is the pipeline's verdict. */
  spam_corrected_at: string | null;
  metadata: SubmissionMetadata;
  /** Opened in the dashboard or marked read; `read_at` when it first was. */
  read: boolean;
  read_at: string | null;
  /** The owner's archive, beside spam; `done_at` when it was marked done. */
  done: boolean;
  done_at: string | null;
  /** Who (a member's email) last marked it read, done, spam or not spam, and edited and sent its reply; null: nobody, or the pipeline. */
  read_by: string | null;
  done_by: string | null;
  spam_marked_by: string | null;
  reply_edited_by: string | null;
  reply_sent_by: string | null;
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
/** Teaches the owner's spam checks the corrections of one transaction, all at once. */
export type LearnFromCorrection = (tx: Transaction<Tables>, samples: CorrectedSample[]) => Promise<void>;

export function toSubmission(row: Selectable<SubmissionsTable>): Submission {
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
    reply_confidence: fromJson(row.reply_confidence) as ReplyConfidence | null,
    replied_at: toIsoOrNull(row.replied_at),
    processed_at: toIsoOrNull(row.processed_at),
    spam_corrected_at: toIsoOrNull(row.spam_corrected_at),
    metadata: fromJson(row.metadata) as SubmissionMetadata,
    read: row.read_at !== null,
    read_at: toIsoOrNull(row.read_at),
    done: toBool(row.done),
    done_at: toIsoOrNull(row.done_at),
    read_by: row.read_by ?? null,
    done_by: row.done_by ?? null,
    spam_marked_by: row.spam_marked_by ?? null,
    reply_edited_by: row.reply_edited_by ?? null,
    reply_sent_by: row.reply_sent_by ?? null,
  };
}

/** Submissions as the management API shows them, by id, read with the caller's transaction or connection. */
export async function readSubmissions(executor: Db | Transaction<Tables>, ids: string[]): Promise<Map<string, Submission>> {
  if (ids.length === 0) return new Map();
  const rows = await executor.selectFrom('submissions').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, toSubmission(row)]));
}

/**
 * Where a deep page starts, from the per-block counts that migration 0003 keeps: the newest block
 * whose running count (newest first) passes the offset holds the page's first row. Null past the end. A
 * block's count may be held in several shard rows on PostgreSQL (migration 0044): summed first.
 */
async function deepPageStart(db: Db, formId: string, split: Split, offset: number): Promise<{ belowSeq: number; skip: number } | null> {
  const counted = countedInBlock(split);
  const { rows } = await sql<{ block: number | string; newer: number | string }>`
    select block, running - counted as newer from (
      select block, counted, sum(counted) over (order by block desc rows between unbounded preceding and current row) as running
      from (select block, sum(${counted}) as counted from submission_blocks where form_id = ${formId} group by block) as shards
    ) as blocks where running > ${offset} order by block desc limit 1`.execute(db);
  const found = rows[0];
  if (!found) return null;
  return { belowSeq: (Number(found.block) + 1) * LISTING_BLOCK_SIZE, skip: offset - Number(found.newer) };
}

/** Called inside a spam correction's transaction with the submissions whose skipped steps must run now. */
export type OnResume = (tx: Transaction<Tables>, ids: string[]) => Promise<void>;

/** What a spam correction sets off in its own transaction: the skipped steps resumed, the owner's filter taught. */
export interface CorrectionEffects {
  resume?: OnResume;
  learn?: LearnFromCorrection;
}

/** Called inside the insert transaction with the submissions it created, to enqueue their processing. */
export type OnCreated = (tx: Transaction<Tables>, created: NewSubmission[]) => Promise<void>;

export function submissionStore(db: Db, statements: BatchStatements, engine: Engine) {
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

    async list(formId: string, split: Split, limit: number, offset: number): Promise<Submission[]> {
      let query = db.selectFrom('submissions').selectAll().where('form_id', '=', formId);
      if (split.filter !== 'all') query = query.where('spam_flag', '=', split.filter === 'spam');
      if (split.done !== undefined) query = query.where('done', '=', split.done);
      // A shallow page skips fewer index entries than a block holds; a deep one seeks to its block first.
      let skip = offset;
      if (offset >= LISTING_BLOCK_SIZE) {
        const start = await deepPageStart(db, formId, split, offset);
        if (!start) return [];
        query = query.where('seq', '<', start.belowSeq);
        skip = start.skip;
      }
      const rows = await query.orderBy('seq', 'desc').limit(limit).offset(skip).execute();
      return rows.map(toSubmission);
    },

    /** How many submissions a split selects, summed from the block counts (an index walk of one form's blocks). */
    async count(formId: string, split: Split): Promise<number> {
      const { rows } = await sql<{ n: number | string | null }>`
        select sum(${countedInBlock(split)}) as n from submission_blocks where form_id = ${formId}`.execute(db);
      return Number(rows[0]?.n ?? 0);
    },

    /** The dashboard's tabs counted in one walk of the form's blocks: Inbox (neither spam nor done), Done (not spam), Spam, All. */
    async tabCounts(formId: string): Promise<{ inbox: number; done: number; spam: number; all: number }> {
      const { rows } = await sql<{ total: number | string | null; spam: number | string | null; done: number | string | null }>`
        select sum(total) as total, sum(spam) as spam, sum(done - done_spam) as done from submission_blocks where form_id = ${formId}`.execute(db);
      const all = Number(rows[0]?.total ?? 0);
      const spam = Number(rows[0]?.spam ?? 0);
      const done = Number(rows[0]?.done ?? 0);
      return { inbox: all - spam - done, done, spam, all };
    },

    /** How many submissions a narrowed listing selects (reads each of the split's rows). */
    async countMatching(formId: string, query: Filtered): Promise<number> {
      return countMatching(db, engine, formId, query);
    },

    /** A page of a narrowed (or oldest-first) listing by offset. */
    async listMatching(formId: string, query: Filtered, page: { limit: number; offset: number; order: 'asc' | 'desc' }): Promise<Submission[]> {
      return (await listMatching(db, engine, formId, query, page)).map(toSubmission);
    },

    /** One page of a search, and where the next one starts. */
    async search(formId: string, query: SearchQuery): Promise<{ submissions: Submission[]; nextBeforeSeq: number | null }> {
      const page = await searchSubmissions(db, engine, formId, query);
      return { submissions: page.rows.map(toSubmission), nextBeforeSeq: page.nextBeforeSeq };
    },

    /** The form of one of the account's submissions, found by its id alone (ids are unique UUIDs); null when none of its forms holds it. */
    async formIdOf(accountId: string, id: string): Promise<string | null> {
      const row = await db.selectFrom('submissions as s').innerJoin('forms as f', 'f.id', 's.form_id')
        .select('s.form_id').where('s.id', '=', id).where('f.account_id', '=', accountId).executeTakeFirst();
      return row?.form_id ?? null;
    },

    async get(formId: string, id: string): Promise<Submission | null> {
      const row = await db.selectFrom('submissions').selectAll().where('form_id', '=', formId).where('id', '=', id).executeTakeFirst();
      return row ? toSubmission(row) : null;
    },

    /** Deletes those no worker holds; the form's counters move in the same transaction. */
    async delete(formId: string, ids: string[]): Promise<Map<string, 'deleted' | 'missing' | 'busy'>> {
      const outcomes = new Map<string, 'deleted' | 'missing' | 'busy'>(ids.map((id) => [id, 'missing']));
      if (ids.length === 0) return outcomes;
      return db.transaction().execute(async (tx) => {
        await lockMarkForDelete(tx, formId);
        await lockInSeqOrder(tx, engine, formId, ids, true);
        const rows = await tx
          .deleteFrom('submissions')
          .where('form_id', '=', formId)
          .where('id', 'in', ids)
          .where('processing_status', '!=', 'processing')
          .returning(['id', 'spam_flag'])
          .execute();
        for (const row of rows) outcomes.set(row.id, 'deleted');
        const left = ids.filter((id) => outcomes.get(id) === 'missing');
        if (left.length > 0) {
          const held = await tx.selectFrom('submissions').select('id').where('form_id', '=', formId).where('id', 'in', left).execute();
          for (const row of held) outcomes.set(row.id, 'busy');
        }
        if (rows.length > 0) {
          const spam = rows.filter((row) => toBool(row.spam_flag)).length;
          await tx
            .updateTable('forms')
            .set((eb) => ({ submission_count: eb('submission_count', '-', rows.length), spam_count: eb('spam_count', '-', spam) }))
            .where('id', '=', formId)
            .execute();
        }
        return outcomes;
      });
    },

    /**
     * The owner's verdict replaces the pipeline's, with who and when recorded; the form's spam
     * counter moves with the flags. Only processed submissions: the pipeline would overwrite it.
     * `learn` runs in the same transaction, so corrections and what they teach are stored together.
     */
    async correctSpam(formId: string, ids: string[], spam: boolean, by: string, at: string, effects: CorrectionEffects = {}, member: string | null = null): Promise<Map<string, SpamCorrection>> {
      const { resume, learn } = effects;
      const outcomes = new Map<string, SpamCorrection>(ids.map((id) => [id, 'missing']));
      if (ids.length === 0) return outcomes;
      return db.transaction().execute(async (tx) => {
        await lockInSeqOrder(tx, engine, formId, ids);
        const rows = await tx
          .selectFrom('submissions as s')
          .innerJoin('form_versions as v', 'v.id', 's.version_id')
          .select(['s.id', 's.spam_flag', 's.spam_reason', 's.processing_status', 's.processing_reason', 's.spam_corrected_at', 's.data', 'v.fields_schema'])
          .where('s.form_id', '=', formId)
          .where('s.id', 'in', ids)
          .execute();
        const changed = rows.filter((row) => {
          const unprocessed = row.processing_status === 'pending' || row.processing_status === 'processing';
          const outcome: SpamCorrection = unprocessed ? 'unprocessed' : toBool(row.spam_flag) === spam ? 'unchanged' : 'corrected';
          outcomes.set(row.id, outcome);
          return outcome === 'corrected';
        });
        if (changed.length === 0) return outcomes;
        // One statement per distinct reason the correction leaves (a few: the pipeline's reasons repeat).
        const byReason = Map.groupBy(changed, (row) => correctedSpamReason(spam, row.spam_reason));
        for (const [reason, group] of byReason) {
          await tx
            .updateTable('submissions')
            .set({ spam_flag: spam, spam_reason: reason, spam_corrected_at: at, spam_corrected_by: by, spam_marked_by: member })
            .where('id', 'in', group.map((row) => row.id))
            .execute();
        }
        // The pipeline stopped at its spam verdict: the steps it skipped run now, once, in jobs
        // enqueued with the correction (a later correction finds the reason changed and resumes nothing).
        const resumed = spam || !resume ? [] : changed.filter((row) => row.processing_reason === 'spam_detected').map((row) => row.id);
        if (resumed.length > 0) {
          await tx
            .updateTable('submissions')
            .set({ processing_status: 'pending', processing_reason: 'resumed: marked as not spam' })
            .where('id', 'in', resumed)
            .execute();
          await resume!(tx, resumed);
        }
        await tx
          .updateTable('forms')
          .set((eb) => ({ spam_count: eb('spam_count', '+', spam ? changed.length : -changed.length) }))
          .where('id', '=', formId)
          .execute();
        if (learn) {
          await learn(tx, changed.map((row) => ({
            data: fromJson(row.data) as Record<string, unknown>,
            fields: (fromJson(row.fields_schema) as FieldsSchema).fields,
            spam,
            reverses: row.spam_corrected_at !== null,
          })));
        }
        return outcomes;
      });
    },
  };
}

export type SubmissionStore = ReturnType<typeof submissionStore>;
