// Offline language detection of submissions with eld (n-gram tables shipped in the package, no
// network). The medium table: the library's published accuracy is within 0.3 points of the large
// one on sentences. It is read from language-table.ts's compact copy rather than from `eld/medium`,
// whose object literal takes about 59 MB of heap and a peak of about 150 MB while it is compiled.
import type { FieldDefinition } from '../forms/field-schema.ts';
import { readTable, type NgramsData } from './language-table.ts';
import { submissionText } from './submission-text.ts';

export { submissionText };

interface Detector {
  detect(text: string): { language: string; isReliable(): boolean };
}

// eld's detector without a bundled table: createEld is what each of eld's entry files calls before it
// loads its table. Its module is not in the package's exports, so it is imported by its file, next to
// the entry that `eld` resolves to (test/language-table.test.ts fails if an upgrade moves or changes it).
const { createEld } = (await import(new URL('../languageDetector.js', import.meta.resolve('eld')).href)) as {
  createEld(): { instance: Detector; loadData(data: NgramsData): string };
};
// Our own instance, so no other importer's language subset or cleanup setting can change our results.
const { instance: detector, loadData } = createEld();
loadData(readTable());

/** The longest text cleaned; its first DETECTOR_READS characters once cleaned go to eld. */
const DETECTION_WINDOW = 2000;
/** eld keeps the first 1,000 characters it is given (and reads about 350 bytes of them). */
const DETECTOR_READS = 1000;
/** Cleaned first: enough for DETECTOR_READS characters unless much of it is URLs, addresses or numbers. */
const FIRST_PART = 1200;
const MIN_WORDS = 3;
const MIN_LETTERS = 8;
/** Scripts written without spaces carry a word or more per character. */
const MIN_UNSPACED_CHARACTERS = 5;

const URL_PATTERN = /\b(?:https?:\/\/|www\.)\S+/giu;
const WHITESPACE = /\s+/u;
const NEXT_WHITESPACE = /\s/gu;
// Words are split out by code, not by a pattern that searches for a digit inside them: such
// patterns backtrack quadratically over long runs of letters.
const WORD_CHARACTERS = /[\p{L}\p{M}\p{N}_-]+|[^\p{L}\p{M}\p{N}_-]+/gu;
const DIGIT = /\p{N}/u;
const UNSPACED_CHARACTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/gu;
const WORD = /[\p{L}\p{M}]+/gu;
const LETTER = /\p{L}/gu;

/** ISO 639-1 code of the text's language, or null when the text is too short or the detector is unsure. */
export function detectLanguage(text: string): string | null {
  const input = detectorInput(text);
  if (input === null) return null;
  const result = detector.detect(input);
  return result.language !== '' && result.isReliable() ? result.language : null;
}

/**
 * What eld is given: the cleaned text, or null when it has too little text to tell. Cleaning the
 * window up to a whitespace character gives the start of what cleaning all of it gives (no URL,
 * address or word spans that character), and its counts of words and letters are no higher. So a
 * long text is cleaned as far as FIRST_PART first; the whole window only when that yields fewer
 * characters than eld keeps, or too little text.
 */
export function detectorInput(text: string): string | null {
  const window = text.slice(0, DETECTION_WINDOW);
  NEXT_WHITESPACE.lastIndex = FIRST_PART;
  const cut = window.length > FIRST_PART ? NEXT_WHITESPACE.exec(window) : null;
  if (cut) {
    const part = cleanText(window.slice(0, cut.index + 1));
    if (part.length >= DETECTOR_READS && hasEnoughText(part)) return part;
  }
  const cleaned = cleanText(window);
  return hasEnoughText(cleaned) ? cleaned : null;
}

/** The text without URLs, email addresses and words with digits. */
export function cleanText(text: string): string {
  return withoutDigitWords(withoutEmailAddresses(text.replace(URL_PATTERN, ' ')));
}

/** Whitespace-separated tokens with an @ followed by a dot are addresses, not language. */
function withoutEmailAddresses(text: string): string {
  return text.split(WHITESPACE).map((token) => {
    const at = token.indexOf('@');
    return at > 0 && token.indexOf('.', at + 2) > at ? ' ' : token;
  }).join(' ');
}

/** Order numbers, postcodes, prices, dates: words with a digit say nothing about the language. */
function withoutDigitWords(text: string): string {
  return (text.match(WORD_CHARACTERS) ?? []).map((run) => (DIGIT.test(run) ? ' ' : run)).join('');
}

function hasEnoughText(text: string): boolean {
  if (count(text, UNSPACED_CHARACTER) >= MIN_UNSPACED_CHARACTERS) return true;
  return count(text, WORD) >= MIN_WORDS && count(text, LETTER) >= MIN_LETTERS;
}

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

/** The language of a submission's prose; the longest texts come first, where the detector reads. */
export function detectSubmissionLanguage(data: Record<string, unknown>, fields: FieldDefinition[]): string | null {
  const texts = Object.values(submissionText(data, fields)).sort((a, b) => b.length - a.length);
  return texts.length === 0 ? null : detectLanguage(texts.join('\n'));
}
