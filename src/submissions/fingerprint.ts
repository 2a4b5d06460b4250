// Identical content from the same sender is a spam signal. The fingerprint is computed once, when
// the submission is stored; the pipeline records it and counts earlier copies (pipeline/fingerprint-store.ts).
// Where the data names an email address, identical data means the same sender already; otherwise
// the client IP stands for the sender.
import { hash } from 'node:crypto';
import type { FieldDefinition } from '../forms/field-schema.ts';

/**
 * The data as JSON with every object's keys sorted and every string trimmed and lower-cased, written
 * in one pass (a sorted copy of the data, then JSON.stringify of it, cost the submit path about 2 KB
 * of garbage per submission). The text is exactly what that copy's JSON.stringify gave, so
 * fingerprints stored before stay comparable (test/repeat-fingerprints.test.ts checks it against that form).
 */
function canonicalJson(value: unknown): string {
  if (typeof value === 'string') return quoted(value.trim().toLowerCase());
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) text += (i > 0 ? ',' : '') + (omitted(value[i]) ? 'null' : canonicalJson(value[i]));
    return `${text}]`;
  }
  if (value !== null && typeof value === 'object') {
    let text = '{';
    for (const key of sortedKeys(value)) {
      const item = (value as Record<string, unknown>)[key];
      if (omitted(item)) continue;
      text += `${text.length > 1 ? ',' : ''}${quoted(key)}:${canonicalJson(item)}`;
    }
    return `${text}}`;
  }
  return JSON.stringify(value);
}

/**
 * The keys in the order JSON.stringify wrote the sorted copy's: an object lists its array-index keys
 * ("0", "17") first, in numeric order, whatever order they were added in; then the others, sorted.
 * Object.keys already gives the index keys first and in that order.
 */
function sortedKeys(value: object): string[] {
  const keys = Object.keys(value);
  let indexes = 0;
  while (indexes < keys.length && isArrayIndex(keys[indexes]!)) indexes++;
  return indexes === 0 ? keys.sort() : [...keys.slice(0, indexes), ...keys.slice(indexes).sort()];
}

function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4_294_967_295;
}

/** JSON.stringify's quoting, without its cost per call where nothing needs escaping (most text). */
function quoted(text: string): string {
  return NEEDS_ESCAPING.test(text) || !text.isWellFormed() ? JSON.stringify(text) : `"${text}"`;
}

const NEEDS_ESCAPING = /["\\\u0000-\u001f]/;

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

export function contentFingerprint(data: Record<string, unknown>, fields: FieldDefinition[], ip: string): string {
  const hasEmail = fields.some((f) => f.type === 'email' && typeof data[f.name] === 'string');
  const text = canonicalJson(data);
  // One-shot: a Hash object per submission cost the submit path a third of this function.
  return hash('sha256', hasEmail ? text : `${text}\n${ip}`, 'base64url').slice(0, 32);
}
