// First-run set-up that only the operator can complete, and Idempotency-Keys bound to their request.
// - server_settings: facts about the server itself; `setup_closed_at` (once set, /setup is closed for
//   good) and `operator_account_id` (the account that sees server-wide figures).
// - setup_tokens: hashes of the one-time tokens in the set-up links the server and the CLI print.
// - submissions.idempotency_hash: what the request that stored the key looked like, so the same key
//   with another request is refused instead of answered with someone else's submission.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('server_settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('setup_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.alterTable('submissions').addColumn('idempotency_hash', 'text').execute();

  // A server already in use: set-up is closed if anyone can log in or was sent a set-password link,
  // and its operator is the oldest such account (else the oldest account).
  const now = new Date().toISOString();
  const claimed = await sql<{ id: string }>`
    select id from accounts
    where id in (select account_id from account_passwords) or id in (select account_id from password_links)
    order by created_at, id limit 1`.execute(db);
  const operator = claimed.rows[0] ?? (await sql<{ id: string }>`select id from accounts order by created_at, id limit 1`.execute(db)).rows[0];
  if (claimed.rows[0]) {
    await db.insertInto('server_settings').values({ name: 'setup_closed_at', value: now, updated_at: now }).execute();
  }
  if (operator) {
    await db.insertInto('server_settings').values({ name: 'operator_account_id', value: operator.id, updated_at: now }).execute();
  }
}
