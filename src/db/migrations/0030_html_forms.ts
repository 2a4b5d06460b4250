// Plain HTML forms (issue 33): where a browser goes after a post, and which sites may post.
// - forms.redirect_url: the owner's thank-you page (http or https); null: Intake's own.
// - forms.allowed_origins: a JSON array of normalised origins (scheme://host[:port]); empty: any site,
//   as the spec says. Existing forms keep accepting posts from anywhere.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('forms').addColumn('redirect_url', 'text').execute();
  await db.schema.alterTable('forms').addColumn('allowed_origins', t.json, (c) => c.notNull().defaultTo(sql`'[]'`)).execute();
}
