// Files go where submissions go: a delivery carries each uploaded file's name and a signed,
// expiring link (src/files/links.ts), never the bytes. Links are made at each attempt, not when
// the delivery is created, so a retry hours later still sends links that work for the full TTL.
import type { FieldDefinition } from '../forms/field-schema.ts';
import { fileLinks, type FileLinkDeps } from '../files/link-lists.ts';
import type { SubmissionEvent } from './event.ts';

export { fileLabel, fileLine, type FileLink, type FileLinkDeps } from '../files/link-lists.ts';

/**
 * The event with `data.files` when the form has file fields; unchanged otherwise. A quarantined
 * file is named with its signature and no link: the scan runs before any notification is made, so
 * its verdict is known by the first attempt.
 */
export async function eventWithFiles(event: SubmissionEvent, fields: readonly FieldDefinition[], deps: FileLinkDeps | undefined, email: boolean): Promise<SubmissionEvent> {
  if (!deps || !fields.some((field) => field.type === 'file')) return event;
  const quarantined = deps.quarantined ? await deps.quarantined(event.data.submission.id) : new Map<string, string>();
  const files = fileLinks(event.data.submission.data, fields, deps.sign, email ? deps.emailTtlSeconds : deps.ttlSeconds, quarantined);
  return { ...event, data: { ...event.data, files } };
}

