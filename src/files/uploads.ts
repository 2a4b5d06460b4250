// Files on their way into a submission: what the upload stored (bytes in the storage, no row yet),
// and how a body's file fields are filled from them. A file object in `data` is only ever one the
// server made from bytes it received in the same request: a client cannot name a file by id, so
// a JSON body cannot attach (and so read) another submission's file.
import type { FieldDefinition } from '../forms/field-schema.ts';
import { fail } from '../http/errors.ts';
import type { FileObject } from './rules.ts';

/** Stored bytes waiting for their submission row (src/files/receive.ts made them). */
export interface StoredUpload extends FileObject {
  field: string;
  storageKey: string;
}

export const SEND_FILES_AS_MULTIPART = 'is a file field: send files as multipart/form-data parts to the HTML endpoint (see files in the discovery document)';

const isEmpty = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** The body with each file field set to the files stored for it (absent when none); a value the body itself brought is refused. */
export function withFiles(body: Record<string, unknown>, fields: readonly FieldDefinition[], files: ReadonlyMap<string, StoredUpload[]> | undefined): Record<string, unknown> {
  const fileFields = fields.filter((field) => field.type === 'file');
  if (fileFields.length === 0) return body;
  const problems: Record<string, string[]> = {};
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(body)) Object.defineProperty(result, key, { value: body[key], enumerable: true, writable: true, configurable: true });
  for (const field of fileFields) {
    if (!isEmpty(result[field.name]) && Object.hasOwn(result, field.name)) problems[field.name] = [SEND_FILES_AS_MULTIPART];
    delete result[field.name];
    const stored = files?.get(field.name) ?? [];
    if (stored.length > 0) result[field.name] = stored.map(fileObject);
  }
  if (Object.keys(problems).length > 0) throw fail.validation(problems);
  return result;
}

export function fileObject(upload: FileObject): FileObject {
  return { id: upload.id, filename: upload.filename, content_type: upload.content_type, size: upload.size, sha256: upload.sha256 };
}

export function withoutFileFields(data: Record<string, unknown>, fields: readonly FieldDefinition[]): Record<string, unknown> {
  const names = new Set(fields.filter((field) => field.type === 'file').map((field) => field.name));
  if (names.size === 0) return data;
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(data)) if (!names.has(key)) Object.defineProperty(kept, key, { value: data[key], enumerable: true, writable: true, configurable: true });
  return kept;
}

/** The data with each file object reduced to its content hash: a retry carrying the same files hashes alike, whatever ids they were given. */
export function byContent(data: Record<string, unknown>, fields: readonly FieldDefinition[]): Record<string, unknown> {
  const names = new Set(fields.filter((field) => field.type === 'file').map((field) => field.name));
  if (names.size === 0) return data;
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(data)) {
    const value = names.has(key) && Array.isArray(data[key]) ? (data[key] as FileObject[]).map((file) => file.sha256) : data[key];
    Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return result;
}
