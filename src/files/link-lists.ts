// A submission's files as signed, expiring links (src/files/links.ts), for everywhere files go
// outside the dashboard: deliveries, exports, a data subject's export. Names and links, never bytes.
import type { FieldDefinition } from '../forms/field-schema.ts';
import type { FileObject } from './rules.ts';

export interface FileLink extends FileObject {
  field: string;
  /** null for a quarantined file: a link that answers 403 helps no one, and invites a click. */
  url: string | null;
  expires_at: string | null;
  /** The signature the malware scanner found (the file is quarantined), or null. */
  quarantine: string | null;
}

/** Signs a link to one file for `ttlSeconds`. */
export type FileLinkSigner = (fileId: string, ttlSeconds: number) => { url: string; expiresAt: string };

export interface FileLinkDeps {
  sign: FileLinkSigner;
  /** INTAKE_FILE_LINK_TTL_S: webhooks and chat messages. */
  ttlSeconds: number;
  /** INTAKE_FILE_EMAIL_LINK_TTL_S: emails are read later than a chat message. */
  emailTtlSeconds: number;
  /** A submission's quarantined files, file id → signature; without it, no file counts as quarantined. */
  quarantined?: (submissionId: string) => Promise<Map<string, string>>;
  /** The same for many submissions in one query (an export's chunk): file id → signature. */
  quarantinedAmong?: (submissionIds: string[]) => Promise<Map<string, string>>;
}

function isFileObject(value: unknown): value is FileObject {
  return typeof value === 'object' && value !== null && typeof (value as FileObject).id === 'string' && typeof (value as FileObject).filename === 'string';
}

/**
 * The files of a submission's file fields, each with a fresh link; [] for a form without any. A
 * file in `quarantined` (id → signature) gets no link, only its signature.
 */
export function fileLinks(data: Record<string, unknown>, fields: readonly FieldDefinition[], sign: FileLinkSigner, ttlSeconds: number, quarantined: ReadonlyMap<string, string> = new Map()): FileLink[] {
  const links: FileLink[] = [];
  for (const field of fields) {
    if (field.type !== 'file') continue;
    const value = Object.hasOwn(data, field.name) ? data[field.name] : undefined;
    for (const file of Array.isArray(value) ? value.filter(isFileObject) : []) {
      const signature = quarantined.get(file.id) ?? null;
      const link = signature === null ? sign(file.id, ttlSeconds) : { url: null, expiresAt: null };
      links.push({ id: file.id, field: field.name, filename: file.filename, content_type: file.content_type, size: file.size, sha256: file.sha256, url: link.url, expires_at: link.expiresAt, quarantine: signature });
    }
  }
  return links;
}

/** "cv.pdf (12.3 KB)": how a file is named in messages. */
export function fileLabel(file: { filename: string; size: number }): string {
  const size = file.size < 1024 ? `${file.size} B` : file.size < 1024 * 1024 ? `${(file.size / 1024).toFixed(1)} KB` : `${(file.size / 1024 / 1024).toFixed(1)} MB`;
  return `${file.filename} (${size})`;
}

/** One file in a message: "cv.pdf (12.3 KB): <link>", or for a quarantined file its signature and no link. */
export function fileLine(file: FileLink): string {
  return file.url === null ? `${fileLabel(file)}: quarantined, malware found (${file.quarantine}); no download link` : `${fileLabel(file)}: ${file.url}`;
}

/**
 * `data` with each file field's list of file objects given their signed `url` and `expires_at`; a
 * file in `quarantined` (id → signature) gets `url` and `expires_at` null and `quarantine` set.
 */
export function dataWithLinks(data: Record<string, unknown>, fields: readonly FieldDefinition[], sign: FileLinkSigner, ttlSeconds: number, quarantined: ReadonlyMap<string, string> = new Map()): Record<string, unknown> {
  const links = fileLinks(data, fields, sign, ttlSeconds, quarantined);
  if (links.length === 0) return data;
  const linked = { ...data };
  for (const field of new Set(links.map((link) => link.field))) {
    linked[field] = links.filter((link) => link.field === field).map(({ field: _field, quarantine, ...file }) => (quarantine === null ? file : { ...file, quarantine }));
  }
  return linked;
}

/**
 * A file field's value as one line a file, for a spreadsheet cell: "name url", or for a quarantined
 * file the words notifications use, with no link. Other values as they are.
 */
export function fileLines(value: unknown): unknown {
  if (!Array.isArray(value) || !value.every((file) => typeof file === 'object' && file !== null && typeof file.filename === 'string')) return value;
  return value.map((file: { filename: string; size?: number; url?: string | null; quarantine?: string }) => {
    if (typeof file.quarantine === 'string') return `${file.filename}: quarantined, malware found (${file.quarantine}); no download link`;
    return file.url ? `${file.filename} ${file.url}` : file.filename;
  }).join('\n');
}
