// Notifications: each form's destinations (webhooks, chat connectors, email), one delivery per
// destination and processed submission, and every attempt of it, for the delivery log.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('destinations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('form_id', 'text', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // Where it goes: { url } | { bot_token, chat_id } | { recipients }.
    .addColumn('target', t.json, (c) => c.notNull())
    .addColumn('secret', 'text')
    .addColumn('deliver_spam', t.boolean, (c) => c.notNull().defaultTo(false))
    .addColumn('enabled', t.boolean, (c) => c.notNull().defaultTo(true))
    // `form`: the form's own webhook_* settings, kept in step by the forms service; `api`: the rest.
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('failure_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_delivered_at', t.timestamp)
    .addColumn('last_error', 'text')
    .addColumn('disabled_at', t.timestamp)
    .addColumn('disabled_reason', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('destinations_form').on('destinations').columns(['form_id', 'created_at']).execute();

  await db.schema
    .createTable('deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('destination_id', 'text', (c) => c.notNull().references('destinations.id').onDelete('cascade'))
    // Null for a test event.
    .addColumn('submission_id', 'text')
    .addColumn('event_id', 'text', (c) => c.notNull())
    // What is sent, fixed when the delivery is created: every attempt sends the same event.
    .addColumn('payload', t.json, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', t.timestamp)
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('completed_at', t.timestamp)
    .execute();
  await db.schema.createIndex('deliveries_destination').on('deliveries').columns(['destination_id', 'created_at']).execute();

  await t
    .autoIncrementKey(db.schema.createTable('delivery_attempts'), 'id')
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('deliveries.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('attempted_at', t.timestamp, (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('response_body', 'text')
    .execute();
  await db.schema.createIndex('delivery_attempts_delivery').on('delivery_attempts').columns(['delivery_id', 'attempt']).execute();
}
