// Where uploaded bytes live: an interface the rest of Intake uses, with the local disk as its first
// implementation (src/files/disk.ts) and room for an S3-compatible one. Keys are chosen by Intake
// (a file's id), never by a client. `put` measures what it stores: the size and SHA-256 recorded on
// the row are those of the bytes written, not of anything a client claimed.
import { createHash } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';

export interface StoredBytes {
  size: number;
  sha256: string;
}

export interface StoredEntry {
  key: string;
  /** A write that never finished (a crash, a refused upload not yet cleaned). */
  partial: boolean;
  modifiedAt: Date;
}

export interface FileStorage {
  /** Checked once at start: throws a StorageError (one line for the operator) when the storage cannot be used as configured. */
  ready(): Promise<void>;
  /** Stores the stream under `key` in full, durably, or not at all (a failed put leaves no object behind). */
  put(key: string, body: Readable): Promise<StoredBytes>;
  /** The bytes, or null when there are none under `key`. */
  get(key: string): Promise<Readable | null>;
  /** Removes the object and any partial write of it; nothing there is no error. */
  delete(key: string): Promise<void>;
  /** Every object and partial write, for the sweeper. */
  list(): AsyncIterable<StoredEntry>;
}

/** A storage that cannot be used as configured (a missing bucket, refused keys): the server refuses to start with this one line. */
export class StorageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StorageError';
  }
}

/** A pass-through that counts and hashes; `result()` is valid once the stream has ended. */
export function measuring(): Transform & { result(): StoredBytes } {
  const hash = createHash('sha256');
  let size = 0;
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      hash.update(chunk);
      done(null, chunk);
    },
  });
  let digest: string | null = null;
  return Object.assign(transform, {
    result: () => ({ size, sha256: (digest ??= hash.digest('hex')) }),
  });
}

/** Keys are ids Intake made: nothing that could climb out of a directory or name another object. */
export const STORAGE_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function checkKey(key: string): void {
  if (!STORAGE_KEY.test(key)) throw new Error(`not a storage key: ${JSON.stringify(key.slice(0, 80))}`);
}
