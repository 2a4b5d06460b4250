// Files in an S3-compatible bucket (AWS, MinIO, Garage, R2, …): the storage several processes on
// several machines can share. Objects live under files/<key> in the bucket. An upload is spooled to a
// private temporary file while it is measured (size, SHA-256), then sent with PutObject and its known
// length: a streamed body of unknown length would need the SDK's chunked (aws-chunked) encoding,
// which some S3-compatible servers store corrupted, and a PutObject is all-or-nothing, so a failed put
// leaves no object behind (there are no partial objects for the sweeper). The SDK's checksums are
// sent and checked only when an operation requires them (`WHEN_REQUIRED`): its default since 2025
// (CRC32 trailers on every upload) is refused or mis-stored by many non-AWS servers.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3StorageConfig } from '../config.ts';
import { FILE_MODE, privateDir } from '../db/file-modes.ts';
import { checkKey, measuring, STORAGE_KEY, StorageError, type FileStorage } from './storage.ts';

const PREFIX = 'files/';

type Sdk = typeof import('@aws-sdk/client-s3');

/** The SDK is loaded on first use (some 15 MB): a process on disk storage never loads it. */
async function s3Client(config: S3StorageConfig): Promise<{ sdk: Sdk; client: S3Client }> {
  const sdk = await import('@aws-sdk/client-s3');
  return { sdk, client: new sdk.S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.credentials ? { credentials: config.credentials } : {}),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A store that does not answer must not hold a submission for ever: the SDK retries 3 times.
    maxAttempts: 3,
  }) };
}

const statusOf = (error: unknown): number | undefined => (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;

/** Why HeadBucket failed, in one line an operator can act on. */
function explain(config: S3StorageConfig, error: unknown): string {
  const where = `bucket "${config.bucket}" at ${config.endpoint ?? `AWS (${config.region})`}`;
  const status = statusOf(error);
  if (status === 404) return `S3 storage: ${where} does not exist (create it, or fix INTAKE_STORAGE_S3_BUCKET)`;
  if (status === 403 || status === 401) return `S3 storage: access to ${where} was refused (check INTAKE_STORAGE_S3_ACCESS_KEY_ID and INTAKE_STORAGE_S3_SECRET_ACCESS_KEY)`;
  if (status === 301 || status === 400) return `S3 storage: ${where} answered ${status} (check INTAKE_STORAGE_S3_REGION, and INTAKE_STORAGE_S3_FORCE_PATH_STYLE for a self-hosted store)`;
  const detail = error instanceof Error ? `${(error as NodeJS.ErrnoException).code ?? error.name}: ${error.message}` : String(error);
  return `S3 storage: cannot use ${where} (${detail.split('\n')[0]})`;
}

export function s3Storage(config: S3StorageConfig, dataDir: string): FileStorage & { notices: string[] } {
  const Bucket = config.bucket;
  let loading: ReturnType<typeof s3Client> | null = null;
  const s3 = () => (loading ??= s3Client(config));
  // Uploads wait here, measured, until they are sent: the data directory's, private like the database.
  const spool = path.join(dataDir, 'spool');
  const notices = privateDir(spool);
  const objectOf = (key: string) => {
    checkKey(key);
    return PREFIX + key;
  };

  return {
    notices,
    async ready() {
      // Spool files a killed process left behind (older than any upload still arriving).
      for (const name of await fs.readdir(spool)) {
        const file = path.join(spool, name);
        const stat = await fs.stat(file).catch(() => null);
        if (stat && stat.mtimeMs < Date.now() - 3_600_000) await fs.rm(file, { force: true });
      }
      const { sdk, client } = await s3();
      try {
        await client.send(new sdk.HeadBucketCommand({ Bucket }));
      } catch (error) {
        throw new StorageError(explain(config, error));
      }
    },
    async put(key, body) {
      const Key = objectOf(key);
      const file = path.join(spool, `${key}.${randomUUID()}`);
      const measure = measuring();
      const { sdk, client } = await s3();
      try {
        await pipeline(body, measure, createWriteStream(file, { flags: 'wx', mode: FILE_MODE }));
        const stored = measure.result();
        await client.send(new sdk.PutObjectCommand({ Bucket, Key, Body: createReadStream(file), ContentLength: stored.size, ContentType: 'application/octet-stream' }));
        return stored;
      } finally {
        await fs.rm(file, { force: true });
      }
    },
    async get(key) {
      const { sdk, client } = await s3();
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket, Key: objectOf(key) }));
        return object.Body as Readable;
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw error;
      }
    },
    async delete(key) {
      // Idempotent in S3: deleting nothing is a success.
      const { sdk, client } = await s3();
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: objectOf(key) }));
    },
    async *list() {
      const { sdk, client } = await s3();
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new sdk.ListObjectsV2Command({ Bucket, Prefix: PREFIX, ContinuationToken }));
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(PREFIX.length) ?? '';
          if (STORAGE_KEY.test(key) && object.LastModified) yield { key, partial: false, modifiedAt: object.LastModified };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
  };
}
