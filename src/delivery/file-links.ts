// Files go where submissions go: a delivery carries each uploaded file's name and a signed,
// expiring link (src/files/links.ts), never the bytes. Links are made at each attempt, not when
// the delivery is created, so a retry hours later still sends links that work for the full TTL.
import type { FieldDefinition } from '../forms/field-schema.ts';
import type { FileObject } from '../files/rules.ts';
import type { SubmissionEvent } from './event.ts';

export interface FileLink extends FileObject {
  field: string;
  url: string;
  expires_at: string;
}

/** Signs a link to one file for `ttlSeconds`. */
export type FileLinkSigner = (fileId: string, ttlSeconds: number) => { url: string; expiresAt: string };

export interface FileLinkDeps {
  sign: FileLinkSigner;
  /** INTAKE_FILE_LINK_TTL_S: webhooks and chat messages. */
  ttlSeconds: number;
  /** INTAKE_FILE_EMAIL_LINK_TTL_S: emails are read later than a chat message. */
  emailTtlSeconds: number;
}

function isFileObject(value: unknown): value is FileObject {
  return typeof value === 'object' && value !== null && typeof (value as FileObject).id === 'string' && typeof (value as FileObject).filename === 'string';
}

/** The files of a submission's file fields, each with a fresh link; [] for a form without any. */
export function fileLinks(data: Record<string, unknown>, fields: readonly FieldDefinition[], sign: FileLinkSigner, ttlSeconds: number): FileLink[] {
  const links: FileLink[] = [];
  for (const field of fields) {
    if (field.type !== 'file') continue;
    const value = Object.hasOwn(data, field.name) ? data[field.name] : undefined;
    for (const file of Array.isArray(value) ? value.filter(isFileObject) : []) {
      const { url, expiresAt } = sign(file.id, ttlSeconds);
      links.push({ id: file.id, field: field.name, filename: file.filename, content_type: file.content_type, size: file.size, sha256: file.sha256, url, expires_at: expiresAt });
    }
  }
  return links;
}

/** The event with `data.files` when the form has file fields; unchanged otherwise. */
export function eventWithFiles(event: SubmissionEvent, fields: readonly FieldDefinition[], deps: FileLinkDeps | undefined, email: boolean): SubmissionEvent {
  if (!deps || !fields.some((field) => field.type === 'file')) return event;
  const files = fileLinks(event.data.submission.data, fields, deps.sign, email ? deps.emailTtlSeconds : deps.ttlSeconds);
  return { ...event, data: { ...event.data, files } };
}

/** "cv.pdf (12.3 KB)": how a file is named in messages. */
export function fileLabel(file: { filename: string; size: number }): string {
  const size = file.size < 1024 ? `${file.size} B` : file.size < 1024 * 1024 ? `${(file.size / 1024).toFixed(1)} KB` : `${(file.size / 1024 / 1024).toFixed(1)} MB`;
  return `${file.filename} (${size})`;
}
