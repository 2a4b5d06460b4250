// The OAuth 2.1 authorization server's storage (oidc-provider), on the same database as the rest:
// one table for everything it keeps (registered clients, grants, authorization codes, access and
// refresh tokens, interactions, sessions, and the server's own signing and cookie keys), one row a
// record, its payload as JSON text. grant_id makes revoking a grant (and every token of it) one
// delete; account_id lists an owner's connected apps; last_used_at is the app's last call to /mcp.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('oauth_records')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('uid', 'text')
    .addColumn('user_code', 'text')
    .addColumn('account_id', 'text')
    .addColumn('expires_at', t.timestamp)
    .addColumn('consumed_at', t.timestamp)
    .addColumn('last_used_at', t.timestamp)
    .addPrimaryKeyConstraint('oauth_records_pk', ['model', 'id'])
    .execute();
  await db.schema.createIndex('oauth_records_grant').on('oauth_records').column('grant_id').execute();
  await db.schema.createIndex('oauth_records_uid').on('oauth_records').columns(['model', 'uid']).execute();
  await db.schema.createIndex('oauth_records_account').on('oauth_records').columns(['model', 'account_id']).execute();
  await db.schema.createIndex('oauth_records_expiry').on('oauth_records').column('expires_at').execute();
}
