// Teams (issue 39). `accounts` stays what every object belongs to (forms, keys, grants, plans, credits,
// retention all keep their account_id): an account row IS the workspace. People log in as an account
// row too (its email and account_passwords); workspace_members says which people may act in which
// workspace and with which role. Every existing account becomes the active owner of itself (member id =
// account id), so nothing changes for it. A person invited while new to the server gets an account row
// to log in with but no member row on it: a row nobody is a member of is no workspace (docs/teams.md).
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('workspace_members')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    // Null while an invitation is pending for an email with no account yet.
    .addColumn('person_id', 'text', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    // sha256 of the one-time invitation link's token; null once accepted.
    .addColumn('invite_hash', 'text', (c) => c.unique())
    .addColumn('invite_expires_at', t.timestamp)
    .addColumn('invited_by', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('accepted_at', t.timestamp)
    .addUniqueConstraint('workspace_members_email', ['workspace_id', 'email'])
    .execute();
  await db.schema.createIndex('workspace_members_person').on('workspace_members').columns(['person_id', 'status']).execute();
  await sql`insert into workspace_members (id, workspace_id, person_id, email, role, status, created_at, accepted_at)
    select id, id, id, email, 'owner', 'active', created_at, created_at from accounts`.execute(db);

  // A key made by a member acts as that member; null: the workspace's own account (every key before 0041).
  await db.schema.alterTable('api_keys').addColumn('person_id', 'text').execute();
  // The workspace a dashboard session acts in; null: the session's own account.
  await db.schema.alterTable('dashboard_sessions').addColumn('workspace_id', 'text').execute();
  // Who consented to an OAuth grant on a workspace (the grant's accountId is the workspace); grants
  // without a row were made by the workspace's own account.
  await db.schema
    .createTable('oauth_grant_members')
    .addColumn('grant_id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('person_id', 'text', (c) => c.notNull())
    .execute();
}
