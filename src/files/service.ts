// The rules of uploaded files: receiving a post's file parts (limits, types, clean-up of anything
// refused), and keeping the storage and the rows in step (deleted rows' bytes, orphans).
import type { Readable } from 'node:stream';
import type { FieldDefinition } from '../forms/field-schema.ts';
import { receiveFile, unexpectedFile, type UploadBudget } from './receive.ts';
import { fileRules, type FileRules } from './rules.ts';
import type { FileStorage } from './storage.ts';
import type { FileRecord, FileStore } from './store.ts';
import { fail } from '../http/errors.ts';
import { checkSignedLink, signedFileUrl } from './links.ts';
import type { StoredUpload } from './uploads.ts';
import { uploadAdmission, type UploadAdmission } from './admission.ts';
import { uploadPace } from './bandwidth.ts';

/** Bytes without a row younger than this may belong to a submission still committing: the sweeper leaves them. */
export const ORPHAN_AGE_MS = 3_600_000;
const DELETION_BATCH = 500;

export interface Download {
  record: FileRecord;
  body: Readable;
}

/** One post's uploads: hand it each file part, then the submission its files (or discard them). */
export interface UploadSession {
  /** For @fastify/multipart's per-request limits: busboy stops at these whatever the parts say. */
  limits: { fileSize: number; files: number };
  receive(part: { fieldname: string; filename: string; file: Readable }): Promise<void>;
  files(): Map<string, StoredUpload[]>;
  /** Removes every byte this post stored: the post was refused, replayed, or is honeypot spam. */
  discard(): Promise<void>;
}

export interface FileServiceDeps {
  storage: FileStorage;
  store: FileStore;
  maxUploadBytes: number;
  linkKey: Buffer;
  /** INTAKE_UPLOAD_CONCURRENCY and INTAKE_UPLOAD_QUEUE_TIMEOUT_MS: files read at once, and how long one waits for its turn. */
  uploads?: { concurrency: number; waitMs: number };
  /** INTAKE_UPLOAD_BANDWIDTH: bytes a second the process reads of all uploads together (0: no limit). */
  uploadBandwidth?: number;
  clock?: () => Date;
}

export function fileService(deps: FileServiceDeps) {
  const { storage, store } = deps;
  const admission: UploadAdmission = uploadAdmission(deps.uploads ?? { concurrency: 4, waitMs: 30_000 });
  const pace = uploadPace(deps.uploadBandwidth ?? 0);
  const clock = deps.clock ?? (() => new Date());

  async function deleteAll(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => storage.delete(key)));
  }

  /** The bytes of a file whose row exists; 404 when either is gone. */
  async function open(record: FileRecord | null): Promise<Download> {
    if (!record) throw fail.notFound('No such file: it was deleted, or never existed.');
    if (record.quarantine !== null) throw fail.fileQuarantined(record.quarantine);
    const body = await storage.get(record.storageKey);
    if (!body) throw fail.notFound('No such file: its bytes are gone.');
    return { record, body };
  }

  return {
    storage,
    admission,
    pace,

    /** A signed link valid for `ttlSeconds` (INTAKE_FILE_LINK_TTL_S, INTAKE_FILE_EMAIL_LINK_TTL_S, or shorter). */
    signedUrl(baseUrl: string, fileId: string, ttlSeconds: number): { url: string; expiresAt: string } {
      const expiresAt = new Date(clock().getTime() + ttlSeconds * 1000);
      return { url: signedFileUrl(deps.linkKey, baseUrl, fileId, expiresAt), expiresAt: expiresAt.toISOString() };
    },

    /** A signed link's file: 403 when the link was altered or has expired, 404 when the file is gone. */
    async openSigned(fileId: string, expires: string, sig: string): Promise<Download> {
      checkSignedLink(deps.linkKey, fileId, expires, sig, clock());
      return open(await store.get(fileId));
    },

    /** The owner's file, on one of their submissions: another owner's, or one on another submission, is 404. */
    async openOwned(accountId: string, formId: string, submissionId: string, fileId: string): Promise<Download> {
      const record = await store.get(fileId);
      const owned = record && record.accountId === accountId && record.formId === formId && record.submissionId === submissionId ? record : null;
      return open(owned);
    },

    /** The files of these submissions, by submission id. */
    async ofSubmissions(submissionIds: string[]): Promise<Map<string, FileRecord[]>> {
      const bySubmission = new Map<string, FileRecord[]>();
      for (const record of await store.ofSubmissions(submissionIds)) {
        const list = bySubmission.get(record.submissionId) ?? [];
        list.push(record);
        bySubmission.set(record.submissionId, list);
      }
      return bySubmission;
    },

    /** A submission's quarantined files, file id → signature: notifications name them without a link. */
    async quarantinedOf(submissionId: string): Promise<Map<string, string>> {
      return store.quarantinedAmong([submissionId]);
    },

    /** The quarantined files of these submissions (an export's chunk), file id → signature. */
    async quarantinedAmong(submissionIds: string[]): Promise<Map<string, string>> {
      return store.quarantinedAmong(submissionIds);
    },

    uploadSession(fields: readonly FieldDefinition[]): UploadSession {
      const rules = new Map<string, FileRules>(fields.filter((field) => field.type === 'file').map((field) => [field.name, fileRules(field)]));
      const budget: UploadBudget = { remaining: deps.maxUploadBytes, total: deps.maxUploadBytes };
      const received = new Map<string, StoredUpload[]>();
      const largest = Math.max(0, ...[...rules.values()].map((rule) => Math.min(rule.maxFileSize, deps.maxUploadBytes)));
      // Empty inputs are parts too: one per field beyond the files it takes.
      const files = [...rules.values()].reduce((sum, rule) => sum + rule.maxFiles + 1, 1);
      return {
        // One byte over the largest limit: receiveFile sees the excess and names the field.
        limits: { fileSize: largest + 1, files },
        async receive(part) {
          const fieldRules = rules.get(part.fieldname);
          if (!fieldRules) {
            // A file input the form has no file field for: fine when left empty, refused otherwise.
            for await (const chunk of part.file) if ((chunk as Buffer).length > 0) throw unexpectedFile(part.fieldname, false, 0);
            return;
          }
          const list = received.get(part.fieldname) ?? [];
          received.set(part.fieldname, list);
          // Not a byte of the file is read before its turn (see admission.ts).
          const release = await admission.acquire();
          let upload: StoredUpload | null;
          try {
            upload = await receiveFile(storage, part, fieldRules, budget, pace);
          } finally {
            release();
          }
          if (!upload) return;
          list.push(upload);
          if (list.length > fieldRules.maxFiles) throw unexpectedFile(part.fieldname, true, fieldRules.maxFiles);
        },
        files: () => new Map([...received].filter(([, list]) => list.length > 0)),
        async discard() {
          await deleteAll([...received.values()].flat().map((upload) => upload.storageKey));
          received.clear();
        },
      };
    },

    /** Deletes the bytes of removed rows (file_deletions, written by the trigger in the removal's transaction); how many. */
    async processDeletions(): Promise<number> {
      let done = 0;
      for (;;) {
        const keys = await store.pendingDeletions(DELETION_BATCH);
        if (keys.length === 0) return done;
        await deleteAll(keys);
        await store.deletionsDone(keys);
        done += keys.length;
        if (keys.length < DELETION_BATCH) return done;
      }
    },

    /**
     * Removes bytes no row names, once older than ORPHAN_AGE_MS: a crash between the write and the
     * commit, a partial write, a clean-up that failed. Returns how many went.
     */
    async sweepOrphans(): Promise<number> {
      const cutoff = clock().getTime() - ORPHAN_AGE_MS;
      const old: string[] = [];
      const partial: string[] = [];
      for await (const entry of storage.list()) {
        if (entry.modifiedAt.getTime() > cutoff) continue;
        (entry.partial ? partial : old).push(entry.key);
      }
      let removed = 0;
      for (let i = 0; i < old.length; i += DELETION_BATCH) {
        const batch = old.slice(i, i + DELETION_BATCH);
        const inUse = await store.keysInUse(batch);
        const orphans = batch.filter((key) => !inUse.has(key));
        await deleteAll(orphans);
        removed += orphans.length;
      }
      await deleteAll(partial.filter((key) => !old.includes(key)));
      return removed + partial.length;
    },
  };
}

export type FileService = ReturnType<typeof fileService>;
