// A file field's limits with their defaults filled in, and the test of a detected type against its
// `accept` list. The type compared is the one decided from the bytes (src/files/detect.ts), never
// the file name's or the browser's claim.
import type { FieldDefinition } from '../forms/field-schema.ts';

export const DEFAULT_MAX_FILES = 1;
export const DEFAULT_MAX_FILE_SIZE = 10 * 1024 * 1024;
/**
 * Images (not SVG, which can carry script), PDF, plain text and CSV, Office and OpenDocument. Old
 * Office files (.doc, .xls, .ppt) are all one container format to a sniffer: application/x-cfb.
 */
export const DEFAULT_ACCEPT: readonly string[] = [
  'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/heic', 'image/heif', 'image/tiff', 'image/bmp',
  'application/pdf', 'text/plain', 'text/csv',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/msword', 'application/vnd.ms-excel', 'application/vnd.ms-powerpoint', 'application/x-cfb',
  'application/vnd.oasis.opendocument.text', 'application/vnd.oasis.opendocument.spreadsheet', 'application/vnd.oasis.opendocument.presentation',
];

/** What a stored file looks like in a submission's `data`, under its field's name (always a list). */
export interface FileObject {
  id: string;
  filename: string;
  content_type: string;
  size: number;
  sha256: string;
}

export interface FileRules {
  maxFiles: number;
  maxFileSize: number;
  accept: readonly string[];
}

export function fileRules(field: FieldDefinition): FileRules {
  const value = (op: string) => field.rules.find((rule) => rule.op === op)?.value;
  const accept = value('accept');
  return {
    maxFiles: typeof value('max_files') === 'number' ? value('max_files') as number : DEFAULT_MAX_FILES,
    maxFileSize: typeof value('max_file_size') === 'number' ? value('max_file_size') as number : DEFAULT_MAX_FILE_SIZE,
    accept: Array.isArray(accept) ? accept : DEFAULT_ACCEPT,
  };
}

/** `type` is a detected MIME type, `extension` the detected type's usual extension (no dot). */
export function accepts(accept: readonly string[], type: string, extension: string): boolean {
  const [major] = type.split('/');
  return accept.some((entry) => entry === type || entry === `${major}/*` || entry === `.${extension}`);
}

export const fileFields = (fields: readonly FieldDefinition[]) => fields.filter((field) => field.type === 'file');
