// The only code that reads and writes the pipeline's view of submissions: what a job needs to
// process one (the submission, its form's settings, the schema it was validated against, the
// owner's plan and language) and the results of each step.
import { sql, type Transaction } from 'kysely';
import type { Plan } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Engine } from '../db/migrations/column-types.ts';
import { relaxedTransaction } from '../db/relaxed-commit.ts';
import { statement, statements, type Executor } from '../db/statement.ts';
import type { SubmissionsTable, Tables } from '../db/tables.ts';
import { fromJson, toBool, toCount } from '../db/values.ts';
import type { FieldsSchema } from '../forms/field-schema.ts';
import type { ReplyConfidence } from '../replies/evidence.ts';
import type { SubmissionMetadata } from '../submissions/store.ts';
import { fingerprintRecorder } from './fingerprint-store.ts';
import { postgresFinalStatuses, type FinalRow } from './final-status-batch.ts';
import { byCodeUnits } from '../text-order.ts';

export type ProcessingStatus = SubmissionsTable['processing_status'];
export const FINAL_STATUSES: readonly ProcessingStatus[] = ['completed', 'skipped', 'failed'];

export interface Work {
  submission: {
    id: string;
    seq: number;
    data: Record<string, unknown>;
    metadata: SubmissionMetadata;
    fingerprint: string | null;
    status: ProcessingStatus;
    steps: string[];
    /** Earlier submissions to the form with the same content from the same sender, when it was loaded. */
    repeats: number;
    /** Results already stored by earlier runs of this submission's job. */
    stored: { spam_flag: boolean; original_language: string | null; translated_data: Record<string, string> | null };
  };
  form: {
    id: string;
    name: string;
    slug: string;
    visibility: 'public' | 'private';
    /** The schema version the submission was validated against. */
    version: number;
    intent: string | null;
    spamProtection: boolean;
    strategy: 'standard' | 'intelligent';
    sensitivity: 'low' | 'balanced' | 'high';
    localisation: boolean;
    smartReply: boolean;
    repliesMode: 'draft' | 'auto';
    knowledgeBaseId: string | null;
  };
  fields: FieldsSchema['fields'];
  /** `corrections`: how many spam verdicts the owner has corrected (what the adaptive layer learnt from). */
  owner: { id: string; plan: Plan; language: string; corrections: number };
}

/** Column values a step produced. */
export interface StepResult {
  spam_flag?: boolean;
  spam_confidence?: number | null;
  spam_reason?: string | null;
  original_language?: string | null;
  translated_data?: Record<string, string> | null;
  reply_status?: 'pending' | 'completed' | 'sent' | 'failed';
  reply_subject?: string | null;
  reply_content?: string | null;
  reply_reason?: string | null;
  reply_passages?: number[] | null;
  reply_confidence?: ReplyConfidence | null;
}

export interface Outcome {
  status: 'completed' | 'skipped' | 'failed';
  reason: string | null;
}

/** A submission whose final status was just recorded. */
export interface Finished {
  work: Work;
  outcome: Outcome;
}

/**
 * Runs inside the transaction that records final statuses, e.g. to enqueue notifications, once for
 * all the submissions it finished: a query for the batch, not one per submission.
 */
export type OnBatchFinished = (tx: Transaction<Tables>, finished: Finished[]) => Promise<void>;

const jsonColumn = (value: unknown) => (value === null ? null : JSON.stringify(value));

/** A spam flag is left out: flagSpam sets it and moves the form's spam counter with it. */
function columns(result: StepResult) {
  const { translated_data, reply_passages, reply_confidence, spam_flag, ...rest } = result;
  return {
    ...rest,
    ...(spam_flag === false && { spam_flag }),
    ...(translated_data !== undefined && { translated_data: jsonColumn(translated_data) }),
    ...(reply_passages !== undefined && { reply_passages: jsonColumn(reply_passages) }),
    ...(reply_confidence !== undefined && { reply_confidence: jsonColumn(reply_confidence) }),
  };
}

export function pipelineStore(db: Db, engine: Engine) {
  // The worker's hot statements, compiled once (see db/statement.ts).
  const selectWork = (qb: Executor) =>
    qb
      .selectFrom('submissions as s')
      .innerJoin('forms as f', 'f.id', 's.form_id')
      .innerJoin('form_versions as v', 'v.id', 's.version_id')
      .innerJoin('accounts as a', 'a.id', 'f.account_id')
      // The owner's count of spam corrections: the spam step looks up what they taught only when there are any.
      .leftJoin('spam_feedback as fb', (join) => join.onRef('fb.account_id', '=', 'a.id').on('fb.feature', '=', -1))
      // How far the form's fingerprints are recorded: the repeat count below is exact when this reaches the row.
      .leftJoin('fingerprint_marks as fm', 'fm.form_id', 's.form_id')
      .select([
        's.id', 's.seq', 's.data', 's.metadata', 's.fingerprint', 's.processing_status', 's.pipeline_steps', 's.spam_flag',
        's.original_language', 's.translated_data',
        'f.smart_reply_enabled', 'f.smart_replies_mode', 'f.knowledge_base_id',
        'f.id as form_id', 'f.name as form_name', 'f.slug as form_slug', 'f.visibility', 'v.version', 'f.intent', 'f.spam_protection_enabled', 'f.spam_protection_strategy', 'f.spam_sensitivity',
        'f.localisation_enabled', 'v.fields_schema', 'a.id as account_id', 'a.plan', 'a.language',
        'fb.spam as feedback_spam', 'fb.ham as feedback_ham', 'fm.through_seq as recorded_through',
      ])
      // Earlier submissions to the form with the same content from the same sender (none without a
      // fingerprint), for the spam step: read with the row, one round trip instead of two. Counted
      // among the recorded fingerprints (fingerprint-store.ts; see readCounted).
      .select((eb) =>
        eb.selectFrom('submission_fingerprints as r').select(eb.fn.countAll().as('n'))
          .whereRef('r.form_id', '=', 's.form_id').whereRef('r.fingerprint', '=', 's.fingerprint').whereRef('r.seq', '<', 's.seq')
          .as('repeats'));
  const loadRow = statement((qb, p: { id: string }) => selectWork(qb).where('s.id', '=', p.id));
  // A batch job's submissions in one statement; the ids travel as one JSON array, so its text is the same for any number.
  const idsIn = (ids: unknown) =>
    engine === 'postgres' ? sql<string>`(select json_array_elements_text(${ids}::json))` : sql<string>`(select value from json_each(${ids}))`;
  type LoadedRow = Awaited<ReturnType<typeof loadRow>>['rows'][number];
  const loadRows = statement((qb, p: { ids: string }) => selectWork(qb).where('s.id', 'in', idsIn(p.ids)));
  const record = fingerprintRecorder(db);

  /**
   * Reads rows whose repeat counts are exact: where a row's form is not recorded that far yet, its
   * fingerprints are recorded and the rows read again. Seldom: a recorder records ahead of itself.
   */
  async function readCounted(read: () => Promise<LoadedRow[]>): Promise<LoadedRow[]> {
    const rows = await read();
    const needs = new Map<string, number>();
    for (const row of rows) {
      const seq = toCount(row.seq);
      if (row.fingerprint !== null && toCount(row.recorded_through ?? 0) < seq) needs.set(row.form_id, Math.max(seq, needs.get(row.form_id) ?? 0));
    }
    if (needs.size === 0) return rows;
    await record([...needs].map(([formId, seq]) => ({ formId, seq })));
    return read();
  }

  /**
   * Sets the spam flag of submissions whose other results were just written in `tx`, and moves their
   * forms' spam counters (which the listing's totals read) once per flag. One statement per form, in
   * form order: the flag's trigger locks the form row until the commit, so this comes last, and two
   * workers' transactions take form rows in the same order (no deadlock on PostgreSQL).
   */
  async function flagSpam(tx: Transaction<Tables>, works: Work[]): Promise<void> {
    const byForm = new Map<string, string[]>();
    for (const work of works) byForm.set(work.form.id, [...(byForm.get(work.form.id) ?? []), work.submission.id]);
    for (const formId of [...byForm.keys()].sort()) {
      // By id alone: with the form in the condition too, SQLite walked the form's listing index.
      const flagged = await tx.updateTable('submissions').set({ spam_flag: true })
        .where('id', 'in', byForm.get(formId)!).where('spam_flag', '=', false).executeTakeFirst();
      const count = Number(flagged.numUpdatedRows);
      if (count > 0) await tx.updateTable('forms').set((eb) => ({ spam_count: eb('spam_count', '+', count) })).where('id', '=', formId).execute();
    }
  }

  const finishBatch = postgresFinalStatuses(FINAL_STATUSES);

  /** A final status per statement, each prepared once (finishRow); returns the ids it finished. */
  async function finishEach(tx: Transaction<Tables>, rows: FinalRow[]): Promise<Set<string>> {
    const finished = new Set<string>();
    for (const { id, values } of rows) {
      const names = Object.keys(values).filter((name) => values[name] !== undefined);
      const updated = await finishRow(tx, names, { ...values, id });
      if (updated.numAffectedRows !== undefined && updated.numAffectedRows > 0n) finished.add(id);
    }
    return finished;
  }

  // The final status with whichever result columns the steps produced: one statement per set of columns.
  const finishRow = statements(
    (names: string[]) => (qb: Executor, p: Record<string, unknown>) =>
      qb.updateTable('submissions')
        .set(Object.fromEntries(names.map((name) => [name, p[name]])))
        .where('id', '=', p.id as string)
        .where('processing_status', 'not in', FINAL_STATUSES),
    (names) => names.join(),
  );

  function toWork(row: LoadedRow): Work {
    return {
      submission: {
        id: row.id,
        seq: toCount(row.seq),
        data: fromJson(row.data) as Record<string, unknown>,
        metadata: fromJson(row.metadata) as SubmissionMetadata,
        fingerprint: row.fingerprint,
        status: row.processing_status,
        steps: (fromJson(row.pipeline_steps) as string[] | null) ?? [],
        repeats: toCount(row.repeats as number | string),
        stored: {
          spam_flag: toBool(row.spam_flag),
          original_language: row.original_language,
          translated_data: fromJson(row.translated_data) as Record<string, string> | null,
        },
      },
      form: {
        id: row.form_id,
        name: row.form_name,
        slug: row.form_slug,
        visibility: row.visibility,
        version: row.version,
        intent: row.intent,
        spamProtection: toBool(row.spam_protection_enabled),
        strategy: row.spam_protection_strategy,
        sensitivity: row.spam_sensitivity,
        localisation: toBool(row.localisation_enabled),
        smartReply: toBool(row.smart_reply_enabled),
        repliesMode: row.smart_replies_mode,
        knowledgeBaseId: row.knowledge_base_id,
      },
      fields: (fromJson(row.fields_schema) as FieldsSchema).fields,
      owner: { id: row.account_id, plan: row.plan, language: row.language, corrections: Number(row.feedback_spam ?? 0) + Number(row.feedback_ham ?? 0) },
    };
  }

  return {
    async load(submissionId: string): Promise<Work | null> {
      const [row] = await readCounted(async () => (await loadRow(db, { id: submissionId })).rows);
      return row ? toWork(row) : null;
    },

    /** The batch's submissions that still exist, in no particular order. */
    async loadMany(submissionIds: string[]): Promise<Work[]> {
      const ids = JSON.stringify(submissionIds);
      const rows = await readCounted(async () => (await loadRows(db, { ids })).rows);
      return rows.map(toWork);
    },

    /** pending → processing; false when the submission is gone or already final. */
    async markProcessing(id: string): Promise<boolean> {
      const result = await db
        .updateTable('submissions')
        .set({ processing_status: 'processing', processing_reason: null })
        .where('id', '=', id)
        .where('processing_status', 'in', ['pending', 'processing'])
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Records the steps finished so far (work.submission.steps) with their results, so that a retry does not do them again. */
    async saveSteps(work: Work, result: StepResult): Promise<void> {
      const steps = work.submission.steps;
      await db.transaction().execute(async (tx) => {
        const updated = await tx
          .updateTable('submissions')
          .set({ ...columns(result), pipeline_steps: JSON.stringify(steps) })
          .where('id', '=', work.submission.id)
          .where('processing_status', 'not in', FINAL_STATUSES)
          .executeTakeFirst();
        if (updated.numUpdatedRows > 0n && result.spam_flag) await flagSpam(tx, [work]);
      });
    },

    /** Back to pending until a retry job, enqueued in the same transaction, runs. */
    async retryLater(id: string, reason: string, enqueue: (tx: Transaction<Tables>) => Promise<void>): Promise<void> {
      await db.transaction().execute(async (tx) => {
        await tx
          .updateTable('submissions')
          .set({ processing_status: 'pending', processing_reason: reason })
          .where('id', '=', id)
          .where('processing_status', 'not in', FINAL_STATUSES)
          .execute();
        await enqueue(tx);
      });
    },

    /**
     * Records a batch's final statuses with the results not yet saved, each once: a submission that
     * is already final (a job that ran twice) is left as it is. Returns the items this call finished.
     * A spam verdict's flag is not written here: the caller passes the submissions it finished as
     * spam to flagSpam, last in the transaction. In form and seq order: two workers' transactions
     * then lock rows in the same order. On PostgreSQL one statement, on SQLite one per row (in-process,
     * a statement costs no round trip).
     */
    async finish<T extends { work: Work; result: StepResult; outcome: Outcome }>(tx: Transaction<Tables>, batch: T[], processedAt: string): Promise<T[]> {
      const ordered = [...batch].sort((a, b) => byCodeUnits(a.work.form.id, b.work.form.id) || a.work.submission.seq - b.work.submission.seq);
      // The same submission twice (a job that ran twice, in one process): the first finishes it.
      const seen = new Set<string>();
      const unique = ordered.filter(({ work }) => !seen.has(work.submission.id) && seen.add(work.submission.id));
      const rows: FinalRow[] = unique.map(({ work, result, outcome }) => ({
        id: work.submission.id,
        values: {
          ...columns(result),
          processing_status: outcome.status,
          processing_reason: outcome.reason,
          processed_at: processedAt,
          pipeline_steps: JSON.stringify(work.submission.steps),
        },
      }));
      // One row alone: its own statement costs PostgreSQL less than the batch's (no JSON, no locking first).
      const finished = engine === 'postgres' && rows.length > 1 ? await finishBatch(tx, rows) : await finishEach(tx, rows);
      return unique.filter(({ work }) => finished.has(work.submission.id));
    },

    flagSpam,

    /** The last resort when a job keeps throwing: the submission must not stay `processing` for ever. */
    async markFailed(id: string, reason: string, processedAt: string): Promise<void> {
      await db
        .updateTable('submissions')
        .set({ processing_status: 'failed', processing_reason: reason, processed_at: processedAt })
        .where('id', '=', id)
        .where('processing_status', 'not in', FINAL_STATUSES)
        .execute();
    },

    /**
     * The final statuses' transaction. Its commit may return before its fsync (relaxed-commit.ts):
     * a power cut that loses it loses the deletion of the jobs too, and they run again.
     */
    transaction<T>(run: (tx: Transaction<Tables>) => Promise<T>): Promise<T> {
      return relaxedTransaction(db, engine, run);
    },
  };
}

export type PipelineStore = ReturnType<typeof pipelineStore>;
