// CAPTCHA per form (docs/captcha.md): the provider, the site key the owner's page shows and the
// secret the server verifies with (a hosted provider's; ALTCHA needs none, the server signs its
// own challenges). captcha_solutions holds each ALTCHA solution once accepted, until its challenge
// expires: the primary key is what makes a second use of the same solution fail, across processes.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('forms').addColumn('captcha_provider', 'text', (c) => c.notNull().defaultTo('none')).execute();
  await db.schema.alterTable('forms').addColumn('captcha_site_key', 'text').execute();
  await db.schema.alterTable('forms').addColumn('captcha_secret', 'text').execute();
  await db.schema
    .createTable('captcha_solutions')
    .addColumn('challenge_id', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('captcha_solutions_expiry').on('captcha_solutions').column('expires_at').execute();
}
