// How sure a smart reply is, stored with it (JSON, see replies/evidence.ts): its level and score
// under the answer gates, the passage and sentence it quotes and, when not sure, the next-best
// passage's sentence, so the owner can judge the draft and use the other sentence in one click.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('submissions').addColumn('reply_confidence', t.json).execute();
}
