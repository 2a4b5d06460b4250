// A number and the word it counts ("dès 4 ans", "from 12 weeks", "over 7 months", "9 months"). A
// question's number is most often the asker's case ("my son is 5 years old", "a pup of 9 months"),
// which a sentence answers with a threshold of the same kind ("from 4 years", "Dogs over 7 months
// must be neutered"), not by writing the asker's number: such a sentence covers it (issue 36,
// sixteenth round). A number counting nothing ("my son is 12"), or another thing than the sentence's
// ("4 adults" against "£22 per player"), is not covered this way. One pass over the words.
import type { Language } from './languages.ts';
import { termOf, words } from './terms.ts';

/** A count: a whole number of one to three digits (a price's pence, a year or a phone number are no count). */
const COUNT = /^\d{1,3}$/;
/** Most sentences hold no number: they are not split into words again. */
const DIGIT = /\d/;

/**
 * A number of how long ago or how long since ("stimme seit 22 Jahren Klaviere", "depuis 15 ans", "hace
 * 20 años", "3 years ago", "10 anni fa") tells the business's story, and is no threshold: "unser
 * Klavier wurde seit 10 Jahren nicht gestimmt" was covered by the tuner's own 22 years (issue 36,
 * eighteenth round). Words before the number, and after the word it counts. Only the knowledge base's
 * sentences are read so (thresholdsOf): the asker's "I paid 5 days ago" is their case, which "within 14
 * days" covers.
 */
const SINCE_BEFORE = new Set(['seit', 'depuis', 'hace']);
const AGO_AFTER = new Set(['ago', 'fa']);

/** Each number of a text with the term of the word just after it, when that word is one (not a stop word): the asker's case. */
export function countsOf(text: string, language: Language): Map<string, string> {
  return numbersCounting(text, language, false);
}

/** countsOf for a sentence of the knowledge base: its numbers of how long since or ago are no threshold. */
export function thresholdsOf(text: string, language: Language): Map<string, string> {
  return numbersCounting(text, language, true);
}

function numbersCounting(text: string, language: Language, skipSinceAndAgo: boolean): Map<string, string> {
  const counts = new Map<string, string>();
  if (!DIGIT.test(text)) return counts;
  const tokens = words(text.toLowerCase());
  for (let i = 0; i + 1 < tokens.length; i += 1) {
    if (!COUNT.test(tokens[i]!)) continue;
    if (skipSinceAndAgo && (SINCE_BEFORE.has(tokens[i - 1] ?? '') || AGO_AFTER.has(tokens[i + 2] ?? ''))) continue;
    const counted = termOf(tokens[i + 1]!, language);
    if (counted && !COUNT.test(counted)) counts.set(tokens[i]!, counted);
  }
  return counts;
}
