// The dashboard's one-time notices: a page that changed something answers with a redirect (so a
// refresh never posts again) and leaves what the next page must say here, keyed to the session:
// "Form created.", or a secret shown once (a new API key, a webhook's signing secret). The
// payload is encrypted with a key derived from the session's cookie, which the database never
// holds (it keeps only the token's hash), and the next page deletes the row as it reads it.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('dashboard_flashes')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .execute();
}
