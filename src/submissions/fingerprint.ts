// Identical content from the same sender is a spam signal. The fingerprint is computed once, when
// the submission is stored; the pipeline records it and counts earlier copies (pipeline/fingerprint-store.ts).
// Where the data names an email address, identical data means the same sender already; otherwise
// the client IP stands for the sender.
import { hash } from 'node:crypto';
import type { FieldDefinition } from '../forms/field-schema.ts';

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
  }
  return typeof value === 'string' ? value.trim().toLowerCase() : value;
}

export function contentFingerprint(data: Record<string, unknown>, fields: FieldDefinition[], ip: string): string {
  const hasEmail = fields.some((f) => f.type === 'email' && typeof data[f.name] === 'string');
  const text = JSON.stringify(canonical(data));
  // One-shot: a Hash object per submission cost the submit path a third of this function.
  return hash('sha256', hasEmail ? text : `${text}\n${ip}`, 'base64url').slice(0, 32);
}
