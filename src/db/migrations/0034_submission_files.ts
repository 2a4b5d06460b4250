// Uploaded files (docs/files.md): a row per stored file, its bytes in the file storage under
// storage_key, never in the database. A row goes with its submission (cascade, however the
// submission goes: deletion, erasure, retention, its form's deletion), and a trigger writes the
// storage key of every removed row into file_deletions in that same transaction: the durable job
// the files worker carries out (it deletes the bytes, then the job), so no removal path can forget
// the bytes and a crash between the two only delays them.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.ts';

const SQLITE_TRIGGER = `create trigger submission_files_deleted after delete on submission_files begin
  insert into file_deletions (storage_key, deleted_at) values (old.storage_key, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
  on conflict (storage_key) do nothing;
end`;

const POSTGRES_FUNCTION = `create function submission_files_deleted() returns trigger language plpgsql as $$
begin
  insert into file_deletions (storage_key, deleted_at) values (old.storage_key, now()) on conflict (storage_key) do nothing;
  return null;
end $$`;

const POSTGRES_TRIGGER = `create trigger submission_files_deleted after delete on submission_files
  for each row execute function submission_files_deleted()`;

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('submission_files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('submission_id', 'text', (c) => c.notNull().references('submissions.id').onDelete('cascade'))
    .addColumn('form_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('submission_files_submission').on('submission_files').column('submission_id').execute();
  await db.schema
    .createTable('file_deletions')
    .addColumn('storage_key', 'text', (c) => c.primaryKey())
    .addColumn('deleted_at', t.timestamp, (c) => c.notNull())
    .execute();
  if (t.engine === 'postgres') {
    await sql.raw(POSTGRES_FUNCTION).execute(db);
    await sql.raw(POSTGRES_TRIGGER).execute(db);
  } else {
    await sql.raw(SQLITE_TRIGGER).execute(db);
  }
}
