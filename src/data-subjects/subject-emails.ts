// The email addresses a submission holds, as the data-subject index keeps them: values of `email`
// fields and any string value (at any depth) that is exactly an email address, normalised (trimmed,
// lower case, ASCII only: forms/email-address.ts says why lookalikes are refused) and hashed, so the
// index itself holds no address in clear.
import { createHash } from 'node:crypto';
import { identityEmail } from '../forms/email-address.ts';
import { fromJson } from '../db/values.ts';

/** Nested values deeper than this are not looked into (a submission's JSON is bounded anyway). */
const MAX_DEPTH = 8;

export const normaliseEmail = identityEmail;

export function emailHash(normalised: string): string {
  return createHash('sha256').update(normalised).digest('base64url');
}

function collect(value: unknown, depth: number, into: Set<string>): void {
  if (typeof value === 'string') {
    const address = value.length <= 300 ? normaliseEmail(value) : null;
    if (address) into.add(address);
  } else if (depth < MAX_DEPTH && value !== null && typeof value === 'object') {
    for (const item of Array.isArray(value) ? value : Object.values(value)) collect(item, depth + 1, into);
  }
}

/** The normalised addresses in submitted data. Email fields are strings already, so every field is looked at the same way. */
export function emailsIn(data: unknown): Set<string> {
  const found = new Set<string>();
  collect(data, 0, found);
  return found;
}

export interface SubjectEmailRow {
  email_hash: string;
  submission_id: string;
  form_id: string;
}

/** The index rows of one stored submission (data as either engine returns it). */
export function subjectEmailRows(row: { id: string; form_id: string; data: unknown }): SubjectEmailRow[] {
  return [...emailsIn(fromJson(row.data))].map((address) => ({ email_hash: emailHash(address), submission_id: row.id, form_id: row.form_id }));
}
