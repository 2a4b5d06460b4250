// The durable job that emails an auto-mode reply, and its enqueueing in the transaction that
// records the submission's final status: a drafted reply can never miss its send.
import type { Transaction } from 'kysely';
import type { Tables } from '../db/tables.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { Work } from '../pipeline/store.ts';

export const SEND_REPLY = 'send_reply';

export interface SendReplyPayload {
  submissionId: string;
}

/** Enqueues the send of an auto-mode reply that was just drafted, inside the caller's transaction. */
export async function enqueueAutoReply(queue: JobQueue, tx: Transaction<Tables>, work: Pick<Work, 'form' | 'submission'>): Promise<void> {
  if (!work.form.smartReply || work.form.repliesMode !== 'auto') return;
  const row = await tx.selectFrom('submissions').select(['reply_status', 'spam_flag']).where('id', '=', work.submission.id).executeTakeFirst();
  if (row?.reply_status !== 'completed') return;
  const payload: SendReplyPayload = { submissionId: work.submission.id };
  await queue.enqueueInTransaction(tx, [{ task: SEND_REPLY, payload: { ...payload } }]);
}
