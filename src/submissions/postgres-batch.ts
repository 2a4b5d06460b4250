// PostgreSQL: a batch stored in one statement, one round trip: intake_insert_submissions (migrations
// 0044, 0045) runs insert-batch.ts's rules (replayed and reused keys, a form gone, the free plan's
// cap, the counters) and adds the jobs with graphile-worker's add_jobs (through
// intake_add_processing_jobs, src/jobs/processing-jobs-bridge.ts, which names the configured jobs
// schema), with each traced submission's trace context in its job (0046), all inside one statement.
//
// Durability: the statement runs in autocommit (no begin/commit of ours), so PostgreSQL commits it
// at the end of the extended-protocol exchange, and pg resolves the query only at ReadyForQuery,
// which comes after that commit. A failed commit is an error here, never an outcome: 201 only
// after commit, as before.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import { statement } from '../db/statement.ts';
import type { SubmissionsTable } from '../db/tables.ts';
import type { GraphileJobs } from '../jobs/queue.ts';
import { PROCESS_SUBMISSION, PROCESS_SUBMISSIONS, PROCESSING_JOB_SIZE } from '../pipeline/tasks.ts';
import { toSubmission, type InsertOutcome, type NewSubmission } from './store.ts';

type Kind = InsertOutcome['kind'];

/** to_jsonb writes timestamps as PostgreSQL prints them; the API gives them as toISOString does. */
const TIMESTAMPS = ['created_at', 'replied_at', 'processed_at', 'spam_corrected_at', 'reply_sending_at', 'read_at', 'done_at'] as const;

function storedRow(json: Record<string, unknown>): Selectable<SubmissionsTable> {
  const row = { ...json };
  for (const column of TIMESTAMPS) if (typeof row[column] === 'string') row[column] = new Date(row[column]).toISOString();
  return row as unknown as Selectable<SubmissionsTable>;
}

/**
 * The batch as the function reads it: one JSON parameter (one string to send, no per-column escaping).
 * A traced submission (tracing on) also carries its request's traceparent, and the time its job
 * becomes due, for the job's payload (migration 0046), as processingJobsFor writes them elsewhere.
 */
export function batchJson(items: NewSubmission[]): string {
  const dueAt = Date.now();
  return JSON.stringify(items.map((item, i) => ({
    i: i + 1,
    id: item.id,
    form_id: item.formId,
    account_id: item.accountId,
    version_id: item.versionId,
    data: item.data,
    metadata: item.metadata,
    idempotency_key: item.idempotencyKey,
    idempotency_hash: item.idempotencyHash,
    fingerprint: item.fingerprint,
    created_at: item.createdAt,
    cap: item.submissionCap,
    ...(item.traceparent !== undefined && { traceparent: item.traceparent, due_at: dueAt }),
  })));
}

/**
 * The call, compiled once and prepared by name on each connection (statement.ts): parsing and
 * planning it at every batch was about a twelfth of PostgreSQL's time per submission.
 */
const insertBatch = statement((db, p: { batch: string; maxAttempts: number }) =>
  db.selectFrom(sql<{ out_kind: Kind; out_row: Record<string, unknown> | null }>`intake_insert_submissions(${p.batch}::jsonb,
    ${PROCESSING_JOB_SIZE}, ${p.maxAttempts}, ${PROCESS_SUBMISSION}, ${PROCESS_SUBMISSIONS})`.as('r'))
    .select(['r.out_kind', 'r.out_row']));

/** Stores a batch without files (their rows take the transaction path) and its processing jobs; one outcome per item, in order. */
export async function insertBatchInOneStatement(db: Db, items: NewSubmission[], jobs: GraphileJobs): Promise<InsertOutcome[]> {
  const { rows } = await insertBatch(db, { batch: batchJson(items), maxAttempts: jobs.maxAttempts });
  if (rows.length !== items.length) throw new Error(`the batch function answered ${rows.length} outcomes for ${items.length} submissions`);
  return rows.map((row): InsertOutcome => {
    if (row.out_kind === 'duplicate') return { kind: 'duplicate', existing: toSubmission(storedRow(row.out_row!)) };
    return { kind: row.out_kind } as InsertOutcome;
  });
}
