// What an owner scans a submission by: who sent it (a name-like field, else the email), what they
// want (a subject, else the message's first line), when, in words, and the language by name.
// Field names are the owner's (bounded by the schema); values are the submitter's, so each is cut
// before any work on it.
import { FIRST_NAME_KEY, LAST_NAME_KEY, WHOLE_NAME_KEY } from '../../forms/name-fields.ts';
import type { Submission } from '../../submissions/store.ts';

const SHOWN = 120;
const SENDER_KEYS = /^(sender|from)$/i;
const ANY_NAME = /name/i;
const NOT_A_PERSON = /user|file|company|business|organi[sz]ation|product|domain|host/i;
const EMAIL_KEYS = /^(e[ _-]?mail|email[ _-]?address|your[ _-]?email)$/i;
const SUBJECT_KEYS = /^(subject|topic|title|regarding|summary)$/i;
const MESSAGE_KEYS = /^(message|body|comments?|question|enquiry|inquiry|details|description|text|content|msg|request|notes?)$/i;

type Data = Record<string, unknown>;

function textOf(value: unknown): string {
  if (typeof value !== 'string') return '';
  return value.slice(0, SHOWN * 4).replace(/\s+/g, ' ').trim();
}

function cut(text: string): string {
  return text.length > SHOWN ? `${text.slice(0, SHOWN - 1)}…` : text;
}

function valueBy(data: Data, pattern: RegExp, except?: RegExp): string {
  for (const [key, value] of Object.entries(data)) {
    if (pattern.test(key) && !except?.test(key)) {
      const text = textOf(value);
      if (text) return text;
    }
  }
  return '';
}

/** The sender's email, if the submission carries one (for a mailto: reply). */
export function senderEmail(data: Data): string | null {
  const byKey = valueBy(data, EMAIL_KEYS);
  if (byKey.includes('@')) return byKey;
  for (const value of Object.values(data)) {
    const text = textOf(value);
    if (/^[^\s@]{1,64}@[^\s@]{1,255}$/.test(text)) return text;
  }
  return null;
}

/** Who sent it: a name-like field, else the email, else null. */
export function senderOf(data: Data): string | null {
  const name = valueBy(data, WHOLE_NAME_KEY) || valueBy(data, SENDER_KEYS)
    || [valueBy(data, FIRST_NAME_KEY), valueBy(data, LAST_NAME_KEY)].filter(Boolean).join(' ')
    || valueBy(data, ANY_NAME, NOT_A_PERSON);
  return name ? cut(name) : senderEmail(data);
}

/** The message itself: a message-like field, else the longest text that is neither name nor email. */
export function messageOf(data: Data): { key: string; text: string } | null {
  for (const [key, value] of Object.entries(data)) if (MESSAGE_KEYS.test(key) && typeof value === 'string' && value.trim()) return { key, text: value };
  let best: { key: string; text: string } | null = null;
  for (const [key, value] of Object.entries(data)) {
    if (typeof value !== 'string' || ANY_NAME.test(key) || EMAIL_KEYS.test(key) || SUBJECT_KEYS.test(key) || value.includes('@')) continue;
    if (!best || value.length > best.text.length) best = { key, text: value };
  }
  return best;
}

/** The subject the submitter gave (a subject field), or '' when there is none. */
export function statedSubjectOf(data: Data): string {
  const subject = valueBy(data, SUBJECT_KEYS);
  return subject ? cut(subject) : '';
}

/** What they want: a subject, else the message's first line. */
export function subjectOf(data: Data): string {
  const subject = valueBy(data, SUBJECT_KEYS);
  if (subject) return cut(subject);
  const message = messageOf(data)?.text.slice(0, SHOWN * 4).trim() ?? '';
  const firstLine = message.split('\n', 1)[0]?.trim() ?? '';
  return cut(firstLine.replace(/\s+/g, ' '));
}

/** The message after its first line, for a row's snippet when the first line is its subject. */
export function snippetOf(data: Data, subject: string): string {
  const message = textOf(messageOf(data)?.text);
  if (!message) return '';
  const lead = subject.replace(/…$/, '');
  const rest = message.startsWith(lead) ? message.slice(lead.length).trim() : message;
  return cut(rest);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "just now", "3 min ago", "5 h ago", "yesterday", "4 days ago", then the date. */
export function relativeTime(iso: string, now: Date): string {
  const then = new Date(iso);
  const ago = now.getTime() - then.getTime();
  if (ago < 45_000) return 'just now';
  if (ago < HOUR) return `${Math.max(1, Math.round(ago / MINUTE))} min ago`;
  if (ago < DAY) return `${Math.floor(ago / HOUR)} h ago`;
  if (ago < 2 * DAY) return 'yesterday';
  if (ago < 7 * DAY) return `${Math.floor(ago / DAY)} days ago`;
  const date = `${then.getUTCDate()} ${MONTHS[then.getUTCMonth()]}`;
  return then.getUTCFullYear() === now.getUTCFullYear() ? date : `${date} ${then.getUTCFullYear()}`;
}

// Made on first use: ICU's display-name data is about 4 MB of the process's memory once touched.
let languages: Intl.DisplayNames | undefined;

/** "German" for `de`; the code itself when it names no language. */
export function languageName(code: string): string {
  try {
    return (languages ??= new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' })).of(code) ?? code;
  } catch {
    return code;
  }
}

/** The row's one-line facts that say something: not "completed", which every processed row is. */
export function rowFacts(s: Submission): string[] {
  const facts: string[] = [];
  if (s.processing_status !== 'completed') facts.push(s.processing_status);
  if (s.reply_status === 'sent') facts.push('replied');
  return facts;
}
