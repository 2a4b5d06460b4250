import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('plan', 'text', (c) => c.notNull().defaultTo('free'))
    .addColumn('submissions_total', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_used_at', t.timestamp)
    .addColumn('revoked_at', t.timestamp)
    .execute();
  await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();

  await db.schema
    .createTable('credit_usage')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('used', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('credit_usage_pk', ['account_id', 'period'])
    .execute();

  await db.schema
    .createTable('forms')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('submission_token_hash', 'text')
    .addColumn('current_version_id', 'text', (c) => c.notNull())
    .addColumn('spam_protection_enabled', t.boolean, (c) => c.notNull().defaultTo(false))
    .addColumn('spam_protection_strategy', 'text', (c) => c.notNull().defaultTo('standard'))
    .addColumn('localisation_enabled', t.boolean, (c) => c.notNull().defaultTo(false))
    .addColumn('smart_reply_enabled', t.boolean, (c) => c.notNull().defaultTo(false))
    .addColumn('smart_replies_mode', 'text', (c) => c.notNull().defaultTo('draft'))
    .addColumn('knowledge_base_id', 'text')
    .addColumn('webhook_enabled', t.boolean, (c) => c.notNull().defaultTo(false))
    .addColumn('webhook_url', 'text')
    .addColumn('webhook_secret', 'text')
    .addColumn('submission_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('spam_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('forms_account_slug', ['account_id', 'slug'])
    .execute();

  await db.schema
    .createTable('form_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('form_id', 'text', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('segment', 'text', (c) => c.notNull().unique())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('fields_schema', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('form_versions_form_version', ['form_id', 'version'])
    .execute();

  await t
    .autoIncrementKey(db.schema.createTable('submissions'), 'seq')
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('form_id', 'text', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('version_id', 'text', (c) => c.notNull())
    .addColumn('data', t.json, (c) => c.notNull())
    .addColumn('metadata', t.json, (c) => c.notNull())
    .addColumn('idempotency_key', 'text')
    .addColumn('processing_status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('processing_reason', 'text')
    .addColumn('spam_flag', t.boolean, (c) => c.notNull().defaultTo(false))
    .addColumn('spam_confidence', t.real)
    .addColumn('spam_reason', 'text')
    .addColumn('original_language', 'text')
    .addColumn('translated_data', t.json)
    .addColumn('reply_status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('reply_content', 'text')
    .addColumn('reply_reason', 'text')
    .addColumn('replied_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('submissions_form_idempotency', ['form_id', 'idempotency_key'])
    .execute();
  // Listing is always one form, newest first, optionally by spam flag: both shapes are index-only walks.
  await db.schema.createIndex('submissions_form_seq').on('submissions').columns(['form_id', 'seq desc']).execute();
  await db.schema
    .createIndex('submissions_form_spam_seq')
    .on('submissions')
    .columns(['form_id', 'spam_flag', 'seq desc'])
    .execute();
}
