// PostgreSQL: an in-flight slot names the session of the process that holds it
// (src/limits/holder-session.ts), so the slots of a process that died are free at once instead of
// after their hold time, as worker leases are since 0007. Slots taken before this have no holder
// and expire as before. SQLite: nothing (its slots live in the process's memory).
import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  if (t.engine !== 'postgres') return;
  await db.schema.alterTable('in_flight_slots').addColumn('holder_pid', 'integer').addColumn('holder_start', 'timestamptz').execute();
}
