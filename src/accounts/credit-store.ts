// The only code that charges and refunds AI credits. A charge is a row keyed by (submission, step),
// written in the same transaction as the usage it adds: a retried step finds its row and is not
// charged again, and the allowance check is the UPDATE's own condition, so two workers can never
// spend the same last credit.
import type { Db } from '../db/database.ts';

export type ChargeOutcome = 'charged' | 'already_charged' | 'exhausted';

export interface Charge {
  accountId: string;
  submissionId: string;
  step: string;
  cost: number;
  /** `lifetime` or `YYYY-MM`. */
  period: string;
  /** Credits the period may use in all; null where use past the allowance is metered instead of refused. */
  limit: number | null;
  now: string;
}

class Exhausted extends Error {}

export function creditStore(db: Db) {
  return {
    async charge(charge: Charge): Promise<ChargeOutcome> {
      try {
        return await db.transaction().execute(async (tx) => {
          const inserted = await tx
            .insertInto('credit_charges')
            .values({
              submission_id: charge.submissionId,
              step: charge.step,
              account_id: charge.accountId,
              period: charge.period,
              cost: charge.cost,
              created_at: charge.now,
            })
            .onConflict((oc) => oc.columns(['submission_id', 'step']).doNothing())
            .returning('submission_id')
            .executeTakeFirst();
          if (!inserted) return 'already_charged';
          await tx
            .insertInto('credit_usage')
            .values({ account_id: charge.accountId, period: charge.period, used: 0 })
            .onConflict((oc) => oc.columns(['account_id', 'period']).doNothing())
            .execute();
          let update = tx
            .updateTable('credit_usage')
            .set((eb) => ({ used: eb('used', '+', charge.cost) }))
            .where('account_id', '=', charge.accountId)
            .where('period', '=', charge.period);
          if (charge.limit !== null) update = update.where('used', '<=', charge.limit - charge.cost);
          const result = await update.executeTakeFirst();
          if (result.numUpdatedRows === 0n) throw new Exhausted();
          return 'charged';
        });
      } catch (error) {
        if (error instanceof Exhausted) return 'exhausted';
        throw error;
      }
    },

    /** Gives back the credits of a step that could not be done; false when nothing was charged for it. */
    async refund(submissionId: string, step: string): Promise<boolean> {
      return db.transaction().execute(async (tx) => {
        const removed = await tx
          .deleteFrom('credit_charges')
          .where('submission_id', '=', submissionId)
          .where('step', '=', step)
          .returning(['account_id', 'period', 'cost'])
          .executeTakeFirst();
        if (!removed) return false;
        await tx
          .updateTable('credit_usage')
          .set((eb) => ({ used: eb('used', '-', removed.cost) }))
          .where('account_id', '=', removed.account_id)
          .where('period', '=', removed.period)
          .execute();
        return true;
      });
    },
  };
}

export type CreditStore = ReturnType<typeof creditStore>;
