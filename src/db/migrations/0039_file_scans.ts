// Malware scanning (docs/files.md#malware-scanning): when a file was scanned, and the signature clamd
// found in it. A file with a signature is quarantined: its downloads are refused and no link offers it.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('submission_files').addColumn('scanned_at', t.timestamp).execute();
  await db.schema.alterTable('submission_files').addColumn('quarantine', 'text').execute();
}
