// Knowledge bases and smart replies. A knowledge base keeps its text and the passages it was split
// into when saved: every worker rebuilds its search index from those rows, so a worker on another
// machine answers from the same knowledge. `version` moves on every save; indexes are cached by it.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('knowledge_bases')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('signature', 'text')
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('knowledge_bases_account').on('knowledge_bases').columns(['account_id', 'created_at']).execute();

  await db.schema
    .createTable('knowledge_passages')
    .addColumn('knowledge_base_id', 'text', (c) => c.notNull().references('knowledge_bases.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('heading', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('knowledge_passages_pk', ['knowledge_base_id', 'position'])
    .execute();

  await db.schema.createIndex('forms_knowledge_base').on('forms').column('knowledge_base_id').execute();
  // The email field a reply goes to; null: the form's first email field.
  await db.schema.alterTable('forms').addColumn('reply_email_field', 'text').execute();
  // Where submitters' answers to a reply go; null: the owner's own address.
  await db.schema.alterTable('accounts').addColumn('reply_to_email', 'text').execute();

  await db.schema.alterTable('submissions').addColumn('reply_subject', 'text').execute();
  // Positions of the passages a reply was made from (JSON array), for the owner to check it against.
  await db.schema.alterTable('submissions').addColumn('reply_passages', t.json).execute();
  // Set when a send begins, with who sends (a job, a request) and the Message-ID it uses: another
  // send of the same reply is refused while one is under way, and a send that a crash interrupted is
  // taken up by the same job, with the same Message-ID.
  await db.schema.alterTable('submissions').addColumn('reply_sending_at', t.timestamp).execute();
  await db.schema.alterTable('submissions').addColumn('reply_sending_by', 'text').execute();
  await db.schema.alterTable('submissions').addColumn('reply_message_id', 'text').execute();
}
