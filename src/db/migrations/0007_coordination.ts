// What processes share to coordinate on PostgreSQL. A worker lease names the database session of
// the process that renews it, so a process that died (its session closed with it) is known at once
// instead of after the lease runs out. Rate-limit counters and in-flight slots are shared by every
// API and worker process when there is no Redis; they are unlogged (a database crash may reset
// them, which costs nothing) so that counting a request writes no WAL.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  if (t.engine !== 'postgres') return;
  await db.schema
    .alterTable('worker_leases')
    .addColumn('backend_pid', 'integer')
    .addColumn('backend_start', 'timestamptz')
    .execute();

  await db.schema
    .createTable('rate_limit_counters')
    .modifyFront(sql`unlogged`)
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('in_flight_slots')
    .modifyFront(sql`unlogged`)
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('in_flight_slots_pkey', ['key', 'token'])
    .execute();
}
