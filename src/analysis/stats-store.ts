// The figures of a form, or of all an owner's forms, per UTC day: read from the daily counts that
// migration 0023's triggers keep (one row per form and day), never from the submissions themselves.
// A range of 90 days reads at most 90 rows a form, whatever the number of submissions.
import type { Db } from '../db/database.ts';
import { toCount } from '../db/values.ts';
import { byCodeUnits } from '../text-order.ts';

export interface DayCounts {
  received: number;
  spam: number;
  repliesDrafted: number;
  repliesSent: number;
  repliesDeclined: number;
  delivered: number;
  deliveryFailures: number;
}

/** One form, or every form of an account. */
export type StatsScope = { formId: string } | { accountId: string };

export const emptyDay = (): DayCounts => ({
  received: 0, spam: 0, repliesDrafted: 0, repliesSent: 0, repliesDeclined: 0, delivered: 0, deliveryFailures: 0,
});

const n = (value: unknown) => toCount((value ?? 0) as number | string);

export function statsStore(db: Db) {
  const counts = (scope: StatsScope) => {
    const from = db.selectFrom('daily_counts as c');
    return 'formId' in scope
      ? from.where('c.form_id', '=', scope.formId)
      : from.innerJoin('forms as f', 'f.id', 'c.form_id').where('f.account_id', '=', scope.accountId);
  };
  const deliveries = (scope: StatsScope) => {
    const from = db.selectFrom('daily_deliveries as d').innerJoin('destinations as t', 't.id', 'd.destination_id');
    return 'formId' in scope
      ? from.where('t.form_id', '=', scope.formId)
      : from.innerJoin('forms as f', 'f.id', 't.form_id').where('f.account_id', '=', scope.accountId);
  };

  return {
    /** Day (YYYY-MM-DD) → counts, for days with any, from `first` to `last` (both included). */
    async daily(scope: StatsScope, first: string, last: string): Promise<Map<string, DayCounts>> {
      const [arrived, delivered] = await Promise.all([
        counts(scope)
          .select((eb) => [
            'c.day',
            eb.fn.sum('c.received').as('received'),
            eb.fn.sum('c.spam').as('spam'),
            eb.fn.sum('c.replies_drafted').as('drafted'),
            eb.fn.sum('c.replies_sent').as('sent'),
            eb.fn.sum('c.replies_declined').as('declined'),
          ])
          .where('c.day', '>=', first).where('c.day', '<=', last)
          .groupBy('c.day')
          .execute(),
        deliveries(scope)
          .select((eb) => ['d.day', eb.fn.sum('d.delivered').as('delivered'), eb.fn.sum('d.failed').as('failed')])
          .where('d.day', '>=', first).where('d.day', '<=', last)
          .groupBy('d.day')
          .execute(),
      ]);
      const days = new Map<string, DayCounts>();
      const at = (day: string) => {
        let counts = days.get(day);
        if (!counts) days.set(day, (counts = emptyDay()));
        return counts;
      };
      for (const row of arrived) {
        Object.assign(at(row.day), {
          received: n(row.received), spam: n(row.spam), repliesDrafted: n(row.drafted), repliesSent: n(row.sent), repliesDeclined: n(row.declined),
        });
      }
      for (const row of delivered) Object.assign(at(row.day), { delivered: n(row.delivered), deliveryFailures: n(row.failed) });
      return days;
    },

    /** Detected languages (ISO 639-1) of the submissions that arrived from `first` to `last`, most frequent first. */
    async languages(scope: StatsScope, first: string, last: string): Promise<Array<{ language: string; submissions: number }>> {
      const from = db.selectFrom('daily_languages as l');
      const scoped = 'formId' in scope
        ? from.where('l.form_id', '=', scope.formId)
        : from.innerJoin('forms as f', 'f.id', 'l.form_id').where('f.account_id', '=', scope.accountId);
      const rows = await scoped
        .select((eb) => ['l.language', eb.fn.sum('l.submissions').as('submissions')])
        .where('l.day', '>=', first).where('l.day', '<=', last)
        .groupBy('l.language')
        .execute();
      return rows
        .map((row) => ({ language: row.language, submissions: n(row.submissions) }))
        .filter((row) => row.submissions > 0)
        .sort((a, b) => b.submissions - a.submissions || byCodeUnits(a.language, b.language));
    },

    /** An account's replies drafted and sent, over every day. */
    async replyTotals(accountId: string): Promise<{ drafted: number; sent: number }> {
      const row = await counts({ accountId })
        .select((eb) => [eb.fn.sum('c.replies_drafted').as('drafted'), eb.fn.sum('c.replies_sent').as('sent')])
        .executeTakeFirst();
      return { drafted: n(row?.drafted), sent: n(row?.sent) };
    },
  };
}

export type StatsStore = ReturnType<typeof statsStore>;
