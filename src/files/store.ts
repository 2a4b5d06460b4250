// The only code that reads and writes submission_files and file_deletions (migration 0034).
import type { Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import { toIso } from '../db/values.ts';
import type { FileObject } from './rules.ts';
import type { StoredUpload } from './uploads.ts';

export interface FileRecord extends FileObject {
  submissionId: string;
  formId: string;
  accountId: string;
  field: string;
  storageKey: string;
  createdAt: string;
  /** The signature clamd found: the file is quarantined, never served (migration 0039). */
  quarantine: string | null;
  scanned: boolean;
}

/** In the transaction that stores the submissions: their files' rows commit with them or not at all. */
export async function insertFileRows(tx: Transaction<Tables>, rows: Array<{ submissionId: string; formId: string; accountId: string; createdAt: string; files: StoredUpload[] }>): Promise<void> {
  const values = rows.flatMap((row) => row.files.map((file) => ({
    id: file.id,
    submission_id: row.submissionId,
    form_id: row.formId,
    account_id: row.accountId,
    field: file.field,
    filename: file.filename,
    content_type: file.content_type,
    size: file.size,
    sha256: file.sha256,
    storage_key: file.storageKey,
    created_at: row.createdAt,
  })));
  if (values.length > 0) await tx.insertInto('submission_files').values(values).execute();
}

function toRecord(row: Record<string, unknown>): FileRecord {
  return {
    id: String(row.id),
    filename: String(row.filename),
    content_type: String(row.content_type),
    size: Number(row.size),
    sha256: String(row.sha256),
    submissionId: String(row.submission_id),
    formId: String(row.form_id),
    accountId: String(row.account_id),
    field: String(row.field),
    storageKey: String(row.storage_key),
    createdAt: toIso(row.created_at as string | Date),
    quarantine: row.quarantine == null ? null : String(row.quarantine),
    scanned: row.scanned_at != null,
  };
}

export function fileStore(db: Db) {
  return {
    async get(id: string): Promise<FileRecord | null> {
      const row = await db.selectFrom('submission_files').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    async ofSubmissions(submissionIds: string[]): Promise<FileRecord[]> {
      if (submissionIds.length === 0) return [];
      const rows = await db.selectFrom('submission_files').selectAll().where('submission_id', 'in', submissionIds).orderBy('created_at').orderBy('id').execute();
      return rows.map(toRecord);
    },

    /** The quarantined files among these submissions', file id → signature; only those rows are read. */
    async quarantinedAmong(submissionIds: string[]): Promise<Map<string, string>> {
      if (submissionIds.length === 0) return new Map();
      const rows = await db.selectFrom('submission_files').select(['id', 'quarantine']).where('submission_id', 'in', submissionIds).where('quarantine', 'is not', null).execute();
      return new Map(rows.map((row) => [row.id, String(row.quarantine)]));
    },

    /** clamd's verdict on one file: null when clean, else the signature it found. */
    async recordScan(id: string, signature: string | null, scannedAt: string): Promise<void> {
      await db.updateTable('submission_files').set({ scanned_at: scannedAt, quarantine: signature }).where('id', '=', id).execute();
    },

    /** Which of these storage keys a row still names. */
    async keysInUse(keys: string[]): Promise<Set<string>> {
      if (keys.length === 0) return new Set();
      const rows = await db.selectFrom('submission_files').select('storage_key').where('storage_key', 'in', keys).execute();
      return new Set(rows.map((row) => row.storage_key));
    },

    /** Bytes whose rows went (file_deletions), oldest first. */
    async pendingDeletions(limit: number): Promise<string[]> {
      const rows = await db.selectFrom('file_deletions').select('storage_key').orderBy('deleted_at').limit(limit).execute();
      return rows.map((row) => row.storage_key);
    },

    async deletionsDone(keys: string[]): Promise<void> {
      if (keys.length > 0) await db.deleteFrom('file_deletions').where('storage_key', 'in', keys).execute();
    },
  };
}

export type FileStore = ReturnType<typeof fileStore>;
