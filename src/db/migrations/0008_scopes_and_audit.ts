// API-key scopes (`full`, `read`), the audit log of every write made through the API or MCP, and
// the analyses agents ask for (a fresh spam verdict), kept so that asking twice charges once.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('scope', 'text', (c) => c.notNull().defaultTo('full')).execute();

  await t
    .autoIncrementKey(db.schema.createTable('audit_log'), 'id')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    // No foreign key: the trail outlives a revoked or deleted key, so its name is kept too.
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('key_name', 'text', (c) => c.notNull())
    .addColumn('surface', 'text', (c) => c.notNull())
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_account').on('audit_log').columns(['account_id', 'id desc']).execute();

  await db.schema
    .createTable('submission_analyses')
    .addColumn('submission_id', 'text', (c) => c.notNull().references('submissions.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('result', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('submission_analyses_pk', ['submission_id', 'kind'])
    .execute();
}
