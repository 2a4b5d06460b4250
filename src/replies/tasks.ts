// The durable job that emails an auto-mode reply, and its enqueueing in the transaction that
// records the submission's final status: a drafted reply can never miss its send.
import type { Transaction } from 'kysely';
import type { Tables } from '../db/tables.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { jobTraceOf } from '../tracing/index.ts';
import type { Work } from '../pipeline/store.ts';
import { fromJson } from '../db/values.ts';
import type { ReplyConfidence } from './evidence.ts';
import { HELD_FOR_REVIEW, PARTLY_ANSWERED } from './reasons.ts';

export const SEND_REPLY = 'send_reply';

export interface SendReplyPayload {
  submissionId: string;
}

/** Enqueues the sends of the auto-mode replies that were just drafted, inside the caller's transaction. */
export async function enqueueAutoReplies(queue: JobQueue, tx: Transaction<Tables>, works: Array<Pick<Work, 'form' | 'submission'>>): Promise<void> {
  const ids = works.filter((work) => work.form.smartReply && work.form.repliesMode === 'auto').map((work) => work.submission.id);
  if (ids.length === 0) return;
  const rows = await tx.selectFrom('submissions').select(['id', 'reply_status', 'reply_reason', 'reply_confidence']).where('id', 'in', ids).execute();
  // A reply that answers only part of a message waits for a person, who answers the rest in one reply.
  const partial = (reason: string | null) => reason?.startsWith(`${PARTLY_ANSWERED}:`) ?? false;
  // So does a draft made under the draft gate but not the auto gate: sent, it would speak for the
  // owner with less than the auto gate's certainty. A model's reply (no confidence) is its own judge.
  const unsure = rows.filter((row) => {
    const level = (fromJson(row.reply_confidence) as ReplyConfidence | null)?.level;
    return row.reply_status === 'completed' && level !== undefined && level !== 'high';
  });
  const heldIds = unsure.filter((row) => row.reply_reason === null).map((row) => row.id);
  if (heldIds.length > 0) await tx.updateTable('submissions').set({ reply_reason: HELD_FOR_REVIEW }).where('id', 'in', heldIds).execute();
  const held = new Set(unsure.map((row) => row.id));
  const drafted = new Set(rows.filter((row) => row.reply_status === 'completed' && !partial(row.reply_reason) && !held.has(row.id)).map((row) => row.id));
  const workOf = new Map(works.map((work) => [work.submission.id, work]));
  const jobs = ids.filter((id) => drafted.has(id)).map((submissionId) => {
    const payload: SendReplyPayload = { submissionId };
    // The send continues the submission's trace (src/tracing; nothing while tracing is off).
    return { task: SEND_REPLY, payload: { ...payload, ...jobTraceOf(workOf.get(submissionId)) } };
  });
  if (jobs.length > 0) await queue.enqueueInTransaction(tx, jobs);
}
