// What processes share to coordinate on PostgreSQL. A worker lease names the database session of
// the process that renews it, so a process that died (its session closed with it) is known at once
// instead of after the lease runs out.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  if (t.engine !== 'postgres') return;
  await db.schema
    .alterTable('worker_leases')
    .addColumn('backend_pid', 'integer')
    .addColumn('backend_start', 'timestamptz')
    .execute();
}
