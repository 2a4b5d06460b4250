// The settings of uploaded files (docs/files.md): limits, links, storage and scanning, read from the
// environment by config.ts's loadConfig (the one place that reads it) through filesConfig.
import { parseClamavUrl } from './files/clamav.ts';
import { boolean, ConfigError, integer, read, url, withoutTrailingSlashes, type Env } from './config-readers.ts';

/**
 * INTAKE_UPLOAD_BANDWIDTH's default, bytes a second: no limit. A 16 MiB/s cap made every upload about
 * three times slower for a JSON p99 gain the measurements could not show (docs/performance.md, File uploads).
 */
export const DEFAULT_UPLOAD_BANDWIDTH = 0;

/** Uploaded files: the bytes of all files of one submission together. */
export interface FilesConfig {
  maxUploadBytes: number;
  /** Uploaded files read at once, and how long one waits for its turn before a 503 (src/files/admission.ts). */
  uploadConcurrency: number;
  uploadQueueTimeoutMs: number;
  /** Bytes a second read of all uploads together, 0 for no limit (src/files/bandwidth.ts). */
  uploadBandwidth: number;
  /** Lifetime of the signed download links in webhooks, chat messages and exports. */
  linkTtlSeconds: number;
  /** Lifetime of the signed download links in notification emails. */
  emailLinkTtlSeconds: number;
  /** Where the bytes live: the data directory (default), or an S3-compatible bucket shared by several processes. */
  storage: { kind: 'disk' } | S3StorageConfig;
  /** clamd (tcp://host:port) that scans every file before its submission's notifications go out; null: no scanning. */
  clamav: { host: string; port: number; timeoutMs: number } | null;
}

export interface S3StorageConfig {
  kind: 's3';
  /** null: AWS itself (the SDK's endpoint for the region). */
  endpoint: string | null;
  bucket: string;
  region: string;
  /** null: the SDK's default credential chain (environment, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  forcePathStyle: boolean;
}

export function filesConfig(env: Env): FilesConfig {
  return {
    maxUploadBytes: integer(env, 'INTAKE_MAX_UPLOAD_BYTES', 25 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    uploadConcurrency: integer(env, 'INTAKE_UPLOAD_CONCURRENCY', 4, 1, 1000),
    uploadQueueTimeoutMs: integer(env, 'INTAKE_UPLOAD_QUEUE_TIMEOUT_MS', 30_000, 100, 600_000),
    uploadBandwidth: uploadBandwidth(env),
    linkTtlSeconds: integer(env, 'INTAKE_FILE_LINK_TTL_S', 86_400, 60, 30 * 86_400),
    emailLinkTtlSeconds: integer(env, 'INTAKE_FILE_EMAIL_LINK_TTL_S', 7 * 86_400, 60, 30 * 86_400),
    storage: storageConfig(env),
    clamav: clamavConfig(env),
  };
}

function storageConfig(env: Env): FilesConfig['storage'] {
  const kind = read(env, 'INTAKE_STORAGE')?.toLowerCase() ?? 'disk';
  if (kind !== 'disk' && kind !== 's3') throw new ConfigError('INTAKE_STORAGE', `must be disk or s3, got "${kind}"`);
  if (kind === 'disk') return { kind };
  const bucket = read(env, 'INTAKE_STORAGE_S3_BUCKET');
  if (!bucket) throw new ConfigError('INTAKE_STORAGE_S3_BUCKET', 'is required when INTAKE_STORAGE is s3');
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new ConfigError('INTAKE_STORAGE_S3_BUCKET', `not a bucket name (3 to 63 lowercase letters, digits, "." or "-"): "${bucket}"`);
  const accessKeyId = read(env, 'INTAKE_STORAGE_S3_ACCESS_KEY_ID');
  const secretAccessKey = read(env, 'INTAKE_STORAGE_S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new ConfigError(accessKeyId ? 'INTAKE_STORAGE_S3_SECRET_ACCESS_KEY' : 'INTAKE_STORAGE_S3_ACCESS_KEY_ID', 'the access key id and the secret access key go together (or neither, for the default AWS credential chain)');
  }
  const endpoint = url(env, 'INTAKE_STORAGE_S3_ENDPOINT', ['http:', 'https:']);
  return {
    kind,
    endpoint: endpoint ? withoutTrailingSlashes(endpoint) : null,
    bucket,
    region: read(env, 'INTAKE_STORAGE_S3_REGION') ?? 'us-east-1',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : null,
    forcePathStyle: boolean(env, 'INTAKE_STORAGE_S3_FORCE_PATH_STYLE', false),
  };
}

/** 0 (no limit), or at least 64 KiB/s: below that one socket chunk would wait over a second. */
function uploadBandwidth(env: Env): number {
  const value = integer(env, 'INTAKE_UPLOAD_BANDWIDTH', DEFAULT_UPLOAD_BANDWIDTH, 0, 100 * 1024 * 1024 * 1024);
  if (value > 0 && value < 64 * 1024) throw new ConfigError('INTAKE_UPLOAD_BANDWIDTH', `must be 0 (no limit) or at least 65536 bytes a second, got ${value}`);
  return value;
}

function clamavConfig(env: Env): FilesConfig['clamav'] {
  const raw = read(env, 'INTAKE_CLAMAV_URL');
  if (raw === undefined) return null;
  const target = parseClamavUrl(raw);
  if (!target) throw new ConfigError('INTAKE_CLAMAV_URL', `expected tcp://host:port (clamd's TCPSocket), got "${raw}"`);
  return { ...target, timeoutMs: integer(env, 'INTAKE_CLAMAV_TIMEOUT_MS', 30_000, 100, 600_000) };
}
