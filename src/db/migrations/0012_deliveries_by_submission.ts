// Deliveries looked up by submission: the pipeline asks which destinations a finishing batch has
// already reached (once per batch), and a submission's page lists its deliveries, newest first.
// Without an index both read the whole deliveries table, which only grows.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('deliveries_submission').on('deliveries').columns(['submission_id', 'created_at']).execute();
}
