// The only code that reads and writes `spam_feedback`: each account's correction counts per feature.

import type { Kysely, Transaction } from 'kysely';
import type { Tables } from '../../db/tables.ts';
import type { FeedbackCounts } from './owner-feedback.ts';

/** The row that counts corrected submissions rather than a feature. */
const DOCUMENTS = -1;

export interface Correction {
  accountId: string;
  buckets: readonly number[];
  spam: boolean;
  /** The submission had been corrected the other way before: that lesson is taken back. */
  reverses: boolean;
}

export function spamFeedbackStore(db: Kysely<Tables>) {
  return {
    /** The account's counts for these features (and its totals); null when it never corrected anything. */
    async countsFor(accountId: string, buckets: readonly number[]): Promise<FeedbackCounts | null> {
      const rows = await db
        .selectFrom('spam_feedback')
        .select(['feature', 'spam', 'ham'])
        .where('account_id', '=', accountId)
        .where('feature', 'in', [DOCUMENTS, ...buckets])
        .execute();
      const totals = rows.find((row) => Number(row.feature) === DOCUMENTS);
      if (!totals) return null;
      const features = new Map<number, { spam: number; ham: number }>();
      for (const row of rows) if (Number(row.feature) !== DOCUMENTS) features.set(Number(row.feature), { spam: Number(row.spam), ham: Number(row.ham) });
      return { spamDocuments: Number(totals.spam), hamDocuments: Number(totals.ham), features };
    },
  };
}

/**
 * Adds corrections to their accounts' counts, inside the transaction that records them: summed per
 * feature first, so a bulk correction of many submissions is a few upserts, not a few per submission.
 */
export async function learnCorrections(tx: Transaction<Tables>, corrections: readonly Correction[]): Promise<void> {
  const sums = new Map<string, { account_id: string; feature: number; spam: number; ham: number }>();
  for (const correction of corrections) {
    const toSpam = correction.spam ? 1 : correction.reverses ? -1 : 0;
    const toHam = correction.spam ? (correction.reverses ? -1 : 0) : 1;
    for (const feature of [DOCUMENTS, ...new Set(correction.buckets)]) {
      const key = `${correction.accountId} ${feature}`;
      const sum = sums.get(key) ?? { account_id: correction.accountId, feature, spam: 0, ham: 0 };
      sum.spam += toSpam;
      sum.ham += toHam;
      sums.set(key, sum);
    }
  }
  const rows = [...sums.values()];
  // Upserts in slices: one statement per slice keeps the bound parameters well under both engines' limits.
  for (let start = 0; start < rows.length; start += SLICE) {
    await tx
      .insertInto('spam_feedback')
      .values(rows.slice(start, start + SLICE))
      .onConflict((conflict) => conflict.columns(['account_id', 'feature']).doUpdateSet((eb) => ({
        spam: eb('spam_feedback.spam', '+', eb.ref('excluded.spam')),
        ham: eb('spam_feedback.ham', '+', eb.ref('excluded.ham')),
      })))
      .execute();
  }
}

const SLICE = 200;

export type SpamFeedbackStore = ReturnType<typeof spamFeedbackStore>;
