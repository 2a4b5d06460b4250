// PostgreSQL takes row locks one row at a time as a statement reaches them, in whatever order its
// plan reads the rows. The pipeline finishes a batch by locking its submissions in (form, seq)
// order (pipeline/final-status-batch.ts); an owner's write over many submissions that reached them
// in id order instead could hold one the pipeline wanted while waiting for one the pipeline held,
// and one of the two died of "deadlock detected" (a bulk delete answered 500). Every write over
// several of a form's submissions therefore locks them here first, in the same order.
import type { Transaction } from 'kysely';
import type { Tables } from '../db/tables.ts';
import type { Engine } from '../db/migrations/column-types.ts';

/**
 * Locks, in seq order, the form's submissions among `ids` (those still not being processed when
 * `settledOnly`, which a write that skips them need not wait for). SQLite's write transaction
 * already holds the whole database: nothing to do there.
 */
export async function lockInSeqOrder(tx: Transaction<Tables>, engine: Engine, formId: string, ids: readonly string[], settledOnly = false): Promise<void> {
  if (engine !== 'postgres' || ids.length < 2) return;
  let query = tx.selectFrom('submissions').select('id').where('form_id', '=', formId).where('id', 'in', [...ids]);
  if (settledOnly) query = query.where('processing_status', '!=', 'processing');
  await query.orderBy('seq').forUpdate().execute();
}
