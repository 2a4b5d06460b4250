// Malware scanning of stored files (docs/files.md#malware-scanning): each file of a submission not
// scanned yet is streamed from the storage to clamd, and the verdict recorded on its row at once, so
// a retry scans only what is left. A file clamd names a signature for is quarantined (never served).
// A scanner that does not answer, or bytes that cannot be read for it, is a ScannerUnavailable: the
// caller holds the submission (fail closed), never counting a file it could not scan as clean.
import type { Config } from '../config.ts';
import { scanStream, ScannerUnavailable } from './clamav.ts';
import type { FileStorage } from './storage.ts';
import type { FileStore } from './store.ts';

export interface QuarantinedFile {
  field: string;
  filename: string;
  signature: string;
}

export function fileScanner(deps: { storage: FileStorage; store: FileStore; clamav: NonNullable<Config['files']['clamav']>; clock?: () => Date }) {
  const { storage, store, clamav } = deps;
  const clock = deps.clock ?? (() => new Date());
  return {
    /** Scans what is unscanned of the submission's files; every quarantined file of it. Throws ScannerUnavailable. */
    async scanSubmission(submissionId: string): Promise<QuarantinedFile[]> {
      const files = await store.ofSubmissions([submissionId]);
      for (const file of files) {
        if (file.scanned) continue;
        const body = await storage.get(file.storageKey).catch((error: unknown) => {
          throw new ScannerUnavailable(`the bytes of file ${file.id} could not be read for scanning: ${(error as Error).message}`);
        });
        // Bytes gone (deleted meanwhile): nothing left to serve or to scan.
        if (!body) continue;
        const verdict = await scanStream(clamav, body, clamav.timeoutMs);
        file.quarantine = verdict.clean ? null : verdict.signature;
        await store.recordScan(file.id, file.quarantine, clock().toISOString());
      }
      return files.flatMap((file) => (file.quarantine === null ? [] : [{ field: file.field, filename: file.filename, signature: file.quarantine }]));
    },
  };
}

export type FileScanner = ReturnType<typeof fileScanner>;
