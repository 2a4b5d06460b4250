// The prose of a submission: the string fields a detector or a translator should read. Apart from
// language.ts so that what only needs the text (translation, analysis) does not load the language
// model (eld, about 150 MB) into every process that imports it.
import { isHoneypot, parseDecimal, type FieldDefinition } from '../forms/field-schema.ts';

const HAS_LETTER = /\p{L}/u;
const URL_ONLY = /^(?:(?:https?:\/\/|www\.)\S+|[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}(?:[/?#]\S*)?)$/iu;
// Dot-separated labels with no dot inside them: one way to match, so no backtracking on long input.
const EMAIL_ONLY = /^(?:mailto:)?[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/iu;
/** Longer values are prose whatever they contain; the patterns above need not look at them. */
const MAX_SINGLE_VALUE = 2048;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;
// Groups of digits and punctuation separated by spaces; separators and groups cannot overlap.
const PHONE = /^\+?[\d().\/-]+(?:\s+[\d().\/-]+)*(?:\s*(?:ext\.?|x)\s*\d{1,6})?$/i;
const MIN_PHONE = 6;

/** Whether a value is prose worth detecting and translating, rather than a URL, address, number or date. */
function isTranslatable(value: string): boolean {
  const text = value.trim();
  if (text === '' || !HAS_LETTER.test(text)) return false;
  if (text.length > MAX_SINGLE_VALUE) return true;
  // Values without letters (amounts, plain dates, phone numbers) are already out; these have some.
  return !(URL_ONLY.test(text) || EMAIL_ONLY.test(text) || ISO_DATE_TIME.test(text) || (text.length >= MIN_PHONE && PHONE.test(text)) || parseDecimal(text) !== undefined);
}

/** { field: value } for the string fields of a submission that hold prose; honeypots never count. */
export function submissionText(data: Record<string, unknown>, fields: FieldDefinition[]): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const field of fields) {
    if (field.type !== 'string' || isHoneypot(field) || !Object.hasOwn(data, field.name)) continue;
    const value = data[field.name];
    if (typeof value === 'string' && isTranslatable(value)) texts[field.name] = value;
  }
  return texts;
}
