// Counts of a form's activity per UTC day over a range: submissions received and caught as spam
// (by arrival), replies sent (by sending time), deliveries that failed (by creation). Each count is
// a range walk of an index ((form_id, created_at, spam_flag), (form_id, replied_at), and
// deliveries by destination), grouped by day in the database: never a read of every row.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Engine } from '../db/migrations/column-types.ts';
import { toCount } from '../db/values.ts';

export interface DayCounts {
  received: number;
  spam: number;
  replied: number;
  deliveryFailures: number;
}

export function statsStore(db: Db, engine: Engine) {
  // SQLite keeps timestamps as ISO-8601 text in UTC; PostgreSQL as timestamptz.
  const dayOf = (column: string): RawBuilder<string> =>
    engine === 'postgres' ? sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD')` : sql<string>`substr(${sql.ref(column)}, 1, 10)`;

  return {
    /** Day (YYYY-MM-DD) → counts, for days with any; `since` inclusive, `until` exclusive. */
    async daily(formId: string, since: string, until: string): Promise<Map<string, DayCounts>> {
      const [arrived, replied, failed] = await Promise.all([
        db.selectFrom('submissions')
          .select([dayOf('created_at').as('day'), (eb) => eb.fn.countAll().as('n'), sql<number | string>`sum(case when spam_flag = ${sql.lit(true)} then 1 else 0 end)`.as('spam')])
          .where('form_id', '=', formId).where('created_at', '>=', since).where('created_at', '<', until)
          .groupBy(dayOf('created_at'))
          .execute(),
        db.selectFrom('submissions')
          .select([dayOf('replied_at').as('day'), (eb) => eb.fn.countAll().as('n')])
          .where('form_id', '=', formId).where('replied_at', '>=', since).where('replied_at', '<', until).where('reply_status', '=', 'sent')
          .groupBy(dayOf('replied_at'))
          .execute(),
        db.selectFrom('deliveries')
          .innerJoin('destinations', 'destinations.id', 'deliveries.destination_id')
          .select([dayOf('deliveries.created_at').as('day'), (eb) => eb.fn.countAll().as('n')])
          .where('destinations.form_id', '=', formId).where('deliveries.status', '=', 'failed')
          .where('deliveries.created_at', '>=', since).where('deliveries.created_at', '<', until)
          .groupBy(dayOf('deliveries.created_at'))
          .execute(),
      ]);
      const days = new Map<string, DayCounts>();
      const at = (day: string) => {
        let counts = days.get(day);
        if (!counts) days.set(day, (counts = { received: 0, spam: 0, replied: 0, deliveryFailures: 0 }));
        return counts;
      };
      for (const row of arrived) Object.assign(at(row.day), { received: toCount(row.n as number | string), spam: toCount(row.spam ?? 0) });
      for (const row of replied) at(row.day).replied = toCount(row.n as number | string);
      for (const row of failed) at(row.day).deliveryFailures = toCount(row.n as number | string);
      return days;
    },
  };
}

export type StatsStore = ReturnType<typeof statsStore>;
