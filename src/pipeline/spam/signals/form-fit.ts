// Text that does not fit the form it was sent through: a name or company field holding a link or
// a paragraph (bots fill every box with the advert), and, when the owner stated the form's purpose,
// a promotional message sharing not one word with that purpose, the form's name or its fields.

import type { SignalHit } from '../types.ts';
import type { SubmissionText } from '../submission-text.ts';
import { findUrls } from '../urls.ts';

/** Fields whose names say they hold a short value, not prose; compared with `_`, `-` and spaces removed. */
const SHORT_VALUE_FIELDS = new Set([
  'name', 'firstname', 'lastname', 'fullname', 'yourname', 'surname', 'givenname', 'familyname', 'company', 'companyname',
  'organisation', 'organization', 'city', 'country', 'phone', 'telephone', 'tel', 'mobile', 'zip', 'zipcode', 'postcode', 'postalcode',
]);
const NAME_SEPARATORS = /[\s_-]/gu;
const MAX_SHORT_VALUE_WORDS = 8;
const MAX_SHORT_VALUE_LENGTH = 200;
const WORD = /[\p{L}\p{N}]+/gu;
/** Signals that mark a message as promotional; off_topic only ever adds to one of them. */
const PROMOTIONAL = new Set([
  'spam_phrases', 'self_promotion', 'money_claim', 'contact_push', 'prize_claim', 'premium_number', 'sms_keywords', 'links', 'only_links', 'mostly_link', 'link_shortener',
]);
const MIN_MESSAGE_WORDS = 8;
const MIN_INTENT_WORDS = 3;
/** Words of at least this many letters count, compared by their first STEM_LENGTH letters ("deliver", "delivery"). */
const MIN_WORD_LENGTH = 5;
/** Long function words that would make any two English texts look related. */
const STOP_WORDS = new Set(['about', 'their', 'there', 'these', 'those', 'which', 'would', 'could', 'should', 'where', 'other', 'after', 'please', 'thank', 'thanks', 'within', 'without', 'while']);
const STEM_LENGTH = 5;
const MAX_COMPARED_WORDS = 400;

export function fieldMismatchSignal(text: SubmissionText): SignalHit | null {
  for (const field of text.prose) {
    if (!SHORT_VALUE_FIELDS.has(field.name.toLowerCase().replace(NAME_SEPARATORS, ''))) continue;
    const sample = field.value.slice(0, MAX_SHORT_VALUE_LENGTH + 1);
    // A bare domain is how many companies write their name ("Booking.com", "acme-tools.de"); a link with a scheme,
    // "www." or a path is not a name.
    if (findUrls(sample).some((url) => !url.bare)) return { id: 'field_mismatch', weight: 0.6, detail: `a link in the "${field.name}" field` };
    if (sample.length > MAX_SHORT_VALUE_LENGTH || (sample.match(WORD)?.length ?? 0) > MAX_SHORT_VALUE_WORDS) {
      return { id: 'field_mismatch', weight: 0.4, detail: `a whole text in the "${field.name}" field` };
    }
  }
  return null;
}

/** Needs the other hits: it only says that a message already promotional is also unrelated to the form. */
export function offTopicSignal(text: SubmissionText, hits: readonly SignalHit[]): SignalHit | null {
  const { intent, formName, fields } = text.input;
  if (!intent || !hits.some((hit) => PROMOTIONAL.has(hit.id))) return null;
  const topic = stems(`${intent} ${formName} ${fields.map((field) => field.name.replace(NAME_SEPARATORS, ' ')).join(' ')}`);
  if (topic.size < MIN_INTENT_WORDS) return null;
  const message = text.leadingProse.match(WORD) ?? [];
  if (message.length < MIN_MESSAGE_WORDS) return null;
  for (const stem of stems(message.slice(0, MAX_COMPARED_WORDS).join(' '))) if (topic.has(stem)) return null;
  return { id: 'off_topic', weight: 0.4, detail: "nothing in the message relates to the form's purpose" };
}

function stems(text: string): Set<string> {
  const found = new Set<string>();
  for (const match of text.toLowerCase().matchAll(WORD)) {
    if (match[0].length >= MIN_WORD_LENGTH && !STOP_WORDS.has(match[0])) found.add(match[0].slice(0, STEM_LENGTH));
  }
  return found;
}
