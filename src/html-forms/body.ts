// What a browser posts, read into name → values with explicit limits: urlencoded bodies through our
// own strict parser (invalid UTF-8 is refused, not replaced as fast-querystring and @fastify/formbody
// would), multipart through @fastify/multipart, whose limits are set here because the app's body
// limit does not bound it. File parts go to an upload session (src/files), which streams them to
// the storage against the form's limits; without one a file is refused.
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, fail } from '../http/errors.ts';

/** Names and values as posted, in order; a repeated name keeps every value. */
export type FormValues = Map<string, string[]>;

export const LIMITS = {
  /** Names a post may carry, values of repeated names included (a form has at most 100 fields). */
  fields: 1_000,
  /** Bytes of a field name: more is no form of ours. */
  fieldNameSize: 200,
  /** Multipart parts in all, and header lines in each part. */
  parts: 1_000,
  headerPairs: 20,
  /** RFC 2046: a boundary is 1 to 70 characters. */
  boundary: 70,
} as const;

const FORBIDDEN_NAMES = new Set(['__proto__', 'constructor', 'prototype']);
const utf8 = new TextDecoder('utf-8', { fatal: true });

const tooLarge = (message: string) => new AppError('payload_too_large', 413, message);

function addValue(values: FormValues, name: string, value: string): void {
  if (name.length > LIMITS.fieldNameSize) throw fail.invalidBody(`A field name is longer than ${LIMITS.fieldNameSize} characters.`);
  if (FORBIDDEN_NAMES.has(name)) throw fail.invalidBody(`The field name "${name}" is not allowed.`);
  const list = values.get(name);
  if (list) list.push(value);
  else values.set(name, [value]);
}

function decodeComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw fail.invalidBody('The form data is not valid UTF-8: send the form with accept-charset="UTF-8".');
  }
}

/** application/x-www-form-urlencoded, strictly: raw bytes and percent-escapes must both be UTF-8. */
export function parseUrlencoded(raw: Buffer): FormValues {
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw fail.invalidBody('The form data is not valid UTF-8: send the form with accept-charset="UTF-8".');
  }
  const values: FormValues = new Map();
  let count = 0;
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    if (++count > LIMITS.fields) throw tooLarge(`The form sent more than ${LIMITS.fields} fields.`);
    const eq = pair.indexOf('=');
    const name = decodeComponent(eq === -1 ? pair : pair.slice(0, eq));
    addValue(values, name, eq === -1 ? '' : decodeComponent(pair.slice(eq + 1)));
  }
  return values;
}

/** The boundary parameter of a multipart Content-Type, as RFC 2046 allows it (1 to 70 characters). */
function checkBoundary(contentType: string): void {
  const match = /;\s*boundary=(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  const boundary = match ? (match[1] ?? match[2] ?? '') : '';
  if (boundary.length === 0 || boundary.length > LIMITS.boundary) {
    throw fail.invalidBody(`A multipart body needs a boundary of 1 to ${LIMITS.boundary} characters (RFC 2046).`);
  }
}

/** The errors @fastify/multipart and busboy raise, as ours: a clear 4xx, never a 5xx. */
function multipartError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const { code, message } = error as { code?: string; message?: string };
  switch (code) {
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return tooLarge(`The form sent more than ${LIMITS.fields} fields.`);
    case 'FST_FILES_LIMIT':
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge('This form takes no files.');
    case 'FST_PROTO_VIOLATION':
      return fail.invalidBody('A field name is not allowed (__proto__, constructor or another built-in name).');
  }
  return fail.invalidBody(`The multipart body could not be read${message ? `: ${message.slice(0, 200)}` : ''}.`);
}

/** Where a post's file parts go: src/files' upload session. */
export interface FileParts {
  limits: { fileSize: number; files: number };
  receive(part: { fieldname: string; filename: string; file: NodeJS.ReadableStream & import('node:stream').Readable }): Promise<void>;
}

/** multipart/form-data: text fields, and file parts handed to `files`; without it a file part with content is refused, an empty file input ignored. */
export async function readMultipart(request: FastifyRequest, maxBytes: number, files?: FileParts): Promise<FormValues> {
  checkBoundary(request.headers['content-type'] ?? '');
  const values: FormValues = new Map();
  let bytes = 0;
  try {
    for await (const part of request.parts(files ? { limits: files.limits } : undefined)) {
      if (part.type === 'file' && files) {
        await files.receive(part);
        continue;
      }
      if (part.type === 'file') {
        // An <input type=file> left empty still sends a part with no name and no bytes.
        const content = await part.toBuffer();
        if (content.length > 0 || part.filename) throw new AppError('unsupported_media_type', 415, 'This form takes no files: remove the file input, or leave it empty.');
        continue;
      }
      if (part.fieldnameTruncated) throw fail.invalidBody(`A field name is longer than ${LIMITS.fieldNameSize} characters.`);
      if (part.valueTruncated) throw tooLarge(`A field is larger than the limit of ${maxBytes} bytes.`);
      if (typeof part.value !== 'string') throw fail.invalidBody(`The field "${part.fieldname.slice(0, 64)}" must be text.`);
      // busboy replaces bytes that are not UTF-8 with U+FFFD; a browser sending accept-charset="UTF-8" never does.
      if (part.value.includes('\uFFFD') || part.fieldname.includes('\uFFFD')) {
        throw fail.invalidBody('The form data is not valid UTF-8: send the form with accept-charset="UTF-8".');
      }
      bytes += part.fieldname.length + part.value.length;
      if (bytes > maxBytes) throw tooLarge(`The form data is larger than the limit of ${maxBytes} bytes.`);
      addValue(values, part.fieldname, part.value);
    }
  } catch (error) {
    throw multipartError(error);
  }
  return values;
}

/** Registers both parsers in the calling plugin's scope only: the JSON endpoint keeps refusing them (415). */
export async function registerFormParsers(app: FastifyInstance, maxBytes: number): Promise<void> {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer', bodyLimit: maxBytes }, (_request, body, done) => {
    try {
      done(null, parseUrlencoded(body as Buffer));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  await app.register(multipart, {
    limits: {
      fieldNameSize: LIMITS.fieldNameSize + 1,
      fieldSize: maxBytes,
      fields: LIMITS.fields,
      parts: LIMITS.parts,
      headerPairs: LIMITS.headerPairs,
      files: 5,
      // An empty file input sends zero bytes; one byte is enough to tell that a file was chosen.
      fileSize: 1,
    },
  });
}
