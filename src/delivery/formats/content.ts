// What every chat message about a submission says, independent of any platform, and the helpers
// that keep it within a platform's limits. Submitted data, field names and spam reasons are all
// untrusted: each platform escapes them with its own TextEncoding before they reach a payload.
import type { SubmissionEvent } from '../event.ts';
import { fileLine, type FileLink } from '../file-links.ts';

export const TRUNCATION_MARKER = '… (truncated)';

export interface ContentEntry {
  name: string;
  value: string;
}

export interface SubmissionContent {
  formName: string;
  submissionId: string;
  createdAt: string;
  /** The submitted fields in data order, values as text. */
  entries: ContentEntry[];
  /** Set when the submission was flagged as spam. */
  spam: { reason: string | null } | null;
  /** Set when the malware scanner quarantined a file: the processing reason naming the files and signatures. */
  quarantine?: string | null;
  /** ISO 639 code of the detected language, when there is one. */
  language: string | null;
  /** The translated fields, when the submission was translated. */
  translated: ContentEntry[] | null;
  link: string;
  /** A "Send test" sample: every format says so first, and its link leads to the delivery log. */
  test: boolean;
  /** What the link opens: the submission, or for a test the destination's delivery log. */
  linkLabel: string;
}

/**
 * How a platform writes text: `escape` must work character by character (every platform escape
 * here replaces single characters), so text can be cut at any character; `cost` is what encoded
 * text counts against the platform's limits (characters, visible characters or bytes).
 */
export interface TextEncoding {
  escape(text: string): string;
  cost(encoded: string): number;
}

export const PLAIN_TEXT: TextEncoding = { escape: (text) => text, cost: (encoded) => encoded.length };

// Codes like "de" or "pt-BR" only: anything else is dropped, so the code is safe in every markup.
const LANGUAGE_CODE = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;
// C0 controls other than tab and newline, DEL and the C1 block: they render as garbage or not at all.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function submissionContent(event: SubmissionEvent, link: string): SubmissionContent {
  const { form, submission } = event.data;
  const language = submission.original_language !== null && LANGUAGE_CODE.test(submission.original_language) ? submission.original_language : null;
  return {
    formName: cleanText(form.name),
    submissionId: submission.id,
    createdAt: submission.created_at,
    entries: toEntries(submission.data, event.data.files),
    spam: submission.spam_flag ? { reason: submission.spam_reason === null ? null : cleanText(submission.spam_reason) } : null,
    quarantine: submission.processing_reason?.startsWith('file_quarantined') ? cleanText(submission.processing_reason) : null,
    language,
    translated: submission.translated_data && Object.keys(submission.translated_data).length > 0 ? toEntries(submission.translated_data) : null,
    link,
    test: event.type === 'submission.test',
    linkLabel: event.type === 'submission.test' ? 'Open the delivery log' : 'View submission',
  };
}

/** What a title starts with: "[Test] " for a test event, "[Spam] " for flagged spam, "[Malware] " for a quarantined file. */
export function titleMarks(content: SubmissionContent): string {
  return `${content.test ? '[Test] ' : ''}${content.spam ? '[Spam] ' : ''}${content.quarantine ? '[Malware] ' : ''}`;
}

function toEntries(data: Record<string, unknown>, files: FileLink[] = []): ContentEntry[] {
  return Object.entries(data).map(([name, value]) => {
    // A file field reads as its files' names and signed links (a quarantined one: its signature), one a line, not as JSON.
    const ofField = files.filter((file) => file.field === name);
    const text = ofField.length > 0 ? ofField.map(fileLine).join('\n') : valueText(value);
    return { name: cleanText(name).trim() === '' ? '(unnamed)' : cleanText(name), value: ofField.length > 0 ? cleanText(text) : text };
  });
}

/** A submitted value as text: strings as they are, everything else as compact JSON. */
export function valueText(value: unknown): string {
  const text = typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
  const cleaned = cleanText(text);
  // Chat platforms refuse empty field values, and an empty line tells the reader nothing.
  return cleaned.trim() === '' ? '(empty)' : cleaned;
}

function cleanText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(CONTROL_CHARACTERS, '');
}

/**
 * The text encoded, cut so that its cost stays within `max`; a cut text ends with the marker.
 * Cuts fall between characters (code points), never inside an escape or a surrogate pair.
 */
export function clip(text: string, max: number, encoding: TextEncoding = PLAIN_TEXT): string {
  const encoded = encoding.escape(text);
  if (encoding.cost(encoded) <= max) return encoded;
  const markerCost = encoding.cost(TRUNCATION_MARKER);
  if (markerCost > max) return '';
  const room = max - markerCost;
  let kept = '';
  let used = 0;
  for (const character of text) {
    const piece = encoding.escape(character);
    const cost = encoding.cost(piece);
    if (used + cost > room) break;
    kept += piece;
    used += cost;
  }
  // A cut that leaves trailing spaces reads as if the marker were a word of its own.
  return `${kept.trimEnd()}${TRUNCATION_MARKER}`;
}

export interface EntryLimits {
  maxEntries: number;
  nameMax: number;
  valueMax: number;
  /** What all names and values together may cost. */
  budget: number;
  /** What the markup around one entry costs (separators, tags that count), if anything. */
  entryOverhead?: number;
}

export interface FittedEntries {
  /** Names and values already encoded and cut. */
  entries: ContentEntry[];
  /** How many entries did not fit. */
  omitted: number;
  /** Budget left over. */
  remaining: number;
}

/** A cut value shorter than this says too little: the entry is left out instead. */
const MIN_CUT_VALUE = 20;

/** Takes entries in order while they fit: whole, cut to the value limit, or cut to what budget is left. */
export function fitEntries(entries: ContentEntry[], limits: EntryLimits, encoding: TextEncoding = PLAIN_TEXT): FittedEntries {
  const fitted: ContentEntry[] = [];
  let remaining = limits.budget;
  for (const entry of entries) {
    if (fitted.length >= limits.maxEntries) break;
    const name = clip(entry.name, limits.nameMax, encoding);
    const fixed = encoding.cost(name) + (limits.entryOverhead ?? 0);
    const room = Math.min(limits.valueMax, remaining - fixed);
    const whole = encoding.escape(entry.value);
    const fitsWhole = encoding.cost(whole) <= room;
    if (!fitsWhole && room < encoding.cost(TRUNCATION_MARKER) + MIN_CUT_VALUE) break;
    const value = fitsWhole ? whole : clip(entry.value, room, encoding);
    remaining -= fixed + encoding.cost(value);
    fitted.push({ name, value });
  }
  return { entries: fitted, omitted: entries.length - fitted.length, remaining };
}

/** "1 more field" / "3 more fields": the note shown where entries were left out. */
export function omittedNote(omitted: number): string {
  return `${omitted} more ${omitted === 1 ? 'field' : 'fields'} not shown: open the submission to see everything`;
}

/** "Translation (from de)" or "Translation". */
export function translationHeading(language: string | null): string {
  return language ? `Translation (from ${language})` : 'Translation';
}

/** The one-line summary under a message: language, time, submission id. */
export function contextLine(content: SubmissionContent): string {
  const parts = [];
  if (content.language) parts.push(`Language: ${content.language}`);
  parts.push(`Received ${content.createdAt}`);
  parts.push(`Submission ${content.submissionId}`);
  return parts.join(' · ');
}
