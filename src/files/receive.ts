// One uploaded file part, from the socket to the storage: counted against the field's and the
// submission's limits as it streams (over a limit it stops there, 413 naming the field, and the
// rest is never read), hashed, its first bytes kept to decide the type. The type comes from the
// bytes (file-type's signatures; for files without one, valid UTF-8 is text, and text that opens
// like markup is HTML), never from the name or the browser's Content-Type. file-type (37 modules) is
// imported by the first upload's detection, not by every process (docs/memory.md).
import { randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { AppError, fail } from '../http/errors.ts';
import { accepts, type FileRules } from './rules.ts';
import type { UploadPace } from './bandwidth.ts';
import type { FileStorage } from './storage.ts';
import type { StoredUpload } from './uploads.ts';
import { utf8Checker } from './utf8.ts';

/** Enough for every signature file-type reads, the entries at the start of an Office or OpenDocument zip included. */
const HEAD_BYTES = 64 * 1024;
const MAX_FILENAME = 200;

/** What all files of one submission may still use: INTAKE_MAX_UPLOAD_BYTES less what came before. */
export interface UploadBudget {
  remaining: number;
  total: number;
}

const tooLarge = (field: string, message: string) => new AppError('payload_too_large', 413, message, { [field]: [message] });

/**
 * Display name: no directories, no control or bidirectional-override characters (a name that
 * reads "cv‮fdp.exe" as "cvexe.pdf"), at most 200 characters; "file" when nothing is left.
 */
export function sanitiseFilename(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  const clean = base.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff\ufffd]/g, '').trim();
  const kept = [...clean].slice(0, MAX_FILENAME).join('');
  return kept === '' || kept === '.' || kept === '..' ? 'file' : kept;
}

interface Inspected {
  head: Buffer;
  text: boolean;
}

/**
 * Counts against both limits, keeps the head, follows whether the bytes so far are UTF-8 text, and
 * holds each chunk as long as the process's upload bandwidth asks (in this stage: one more stream
 * per file costs per chunk what the pacing saves).
 */
function inspector(field: string, rules: FileRules, budget: UploadBudget, pace: UploadPace): Transform & { inspected(): Inspected } {
  const heads: Buffer[] = [];
  let headSize = 0;
  let size = 0;
  let text = true;
  const utf8 = utf8Checker();
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > rules.maxFileSize) return done(tooLarge(field, `The file in "${field}" is larger than its limit of ${rules.maxFileSize} bytes.`));
      if (size > budget.remaining) return done(tooLarge(field, `The files of this submission are larger than the limit of ${budget.total} bytes in all (at "${field}").`));
      if (headSize < HEAD_BYTES) {
        heads.push(chunk.subarray(0, HEAD_BYTES - headSize));
        headSize += Math.min(chunk.length, HEAD_BYTES - headSize);
      }
      if (text) text = utf8.push(chunk) && !chunk.includes(0);
      const wait = pace.take(chunk.length);
      if (wait === 0) return done(null, chunk);
      // A destroyed stream (a limit, a broken connection) ignores the late callback.
      setTimeout(() => done(null, chunk), wait);
    },
    flush(done) {
      budget.remaining -= size;
      if (text) text = utf8.end();
      done();
    },
  });
  return Object.assign(transform, { inspected: () => ({ head: Buffer.concat(heads), text }) });
}

let fileType: Promise<typeof import('file-type')> | undefined;

/** The detected MIME type and its usual extension. */
async function detect(inspected: Inspected, filename: string): Promise<{ mime: string; ext: string }> {
  const { fileTypeFromBuffer } = await (fileType ??= import('file-type'));
  const found = await fileTypeFromBuffer(inspected.head);
  if (found) return { mime: found.mime, ext: found.ext };
  if (!inspected.text) return { mime: 'application/octet-stream', ext: 'bin' };
  // HTML, SVG and XML have no magic number; served from a browser they could run script, so they are never "plain text".
  const opening = inspected.head.toString('utf8').replace(/^\ufeff/, '').trimStart();
  if (opening.startsWith('<')) return /^<(\?xml|svg)/i.test(opening) && /<svg/i.test(opening) ? { mime: 'image/svg+xml', ext: 'svg' } : { mime: 'text/html', ext: 'html' };
  return /\.csv$/i.test(filename) ? { mime: 'text/csv', ext: 'csv' } : { mime: 'text/plain', ext: 'txt' };
}

/**
 * Stores one file part; null for an empty one (a file input left empty). On any refusal the bytes
 * are removed before the error is thrown.
 */
export async function receiveFile(storage: FileStorage, part: { fieldname: string; filename: string; file: Readable }, rules: FileRules, budget: UploadBudget, pace: UploadPace): Promise<StoredUpload | null> {
  const field = part.fieldname;
  const id = randomUUID();
  const inspect = inspector(field, rules, budget, pace);
  part.file.on('limit', () => inspect.destroy(tooLarge(field, `The file in "${field}" is larger than its limit of ${rules.maxFileSize} bytes.`)));
  const stored = await storage.put(id, part.file.pipe(inspect));
  if (stored.size === 0) {
    await storage.delete(id);
    return null;
  }
  const filename = sanitiseFilename(part.filename ?? '');
  const type = await detect(inspect.inspected(), filename);
  if (!accepts(rules.accept, type.mime, type.ext)) {
    await storage.delete(id);
    const message = `The file in "${field}" is ${type.mime}, which this field does not take (it takes ${rules.accept.join(', ')}).`;
    throw new AppError('unsupported_media_type', 415, message, { [field]: [message] });
  }
  return { id, field, filename, content_type: type.mime, size: stored.size, sha256: stored.sha256, storageKey: id };
}

/** A file part for a field that takes no files, or one too many for its field. */
export function unexpectedFile(field: string, known: boolean, maxFiles: number): AppError {
  const name = field.slice(0, 64);
  if (!known) {
    const message = `"${name}" is not a file field of this form: remove the file, or leave the input empty.`;
    return new AppError('unsupported_media_type', 415, message, { [name]: [message] });
  }
  return fail.validation({ [field]: [`takes at most ${maxFiles} file${maxFiles === 1 ? '' : 's'}`] });
}
