// The words retrieval compares: lower-cased English stems without stop words, and without the
// words people wrap a question in ("hi", "thanks", "I was wondering"), which say nothing about what
// they ask and would only count against a passage that answers.
import { stemmer } from 'stemmer';
import { eng } from 'stopword';
import { AMOUNT, AMOUNT_WORD, CLOCK, CLOCK_WORD, SYNONYM_GROUPS, SYNONYM_PHRASES } from './synonyms.ts';

const STOP_WORDS = new Set(eng);
const FILLER = new Set([
  'hi', 'hello', 'hey', 'hallo', 'dear', 'thanks', 'thank', 'thx', 'regards', 'cheers', 'please', 'pls', 'plz',
  'wondering', 'wonder', 'wondered', 'question', 'questions', 'quick', 'ask', 'asking', 'know', 'tell', 'want', 'wanted',
  'would', 'could', 'just', 'exactly', 'really', 'possible', 'morning', 'afternoon', 'evening', 'good', 'great', 'kind',
  'kindly', 'best', 'wishes', 'thing', 'things', 'ok', 'okay', 'sir', 'madam', 'team', 'im', 'id', 'ive', 'does', 'anyone',
  'somebody', 'someone', 'guys', 'folks', 'advance', 'appreciate', 'appreciated', 'info', 'information', 'let', 'per',
  // How people frame a question ("what are my options", "is there an easy way", "is it doable").
  'option', 'options', 'easiest', 'easy', 'easily', 'simple', 'simplest', 'method', 'doable', 'somehow', 'fastest',
  'quickest', 'currently', 'completely', 'actually', 'able', 'approach',
]);
/** By stem, so that "afternoons" goes with "afternoon". */
const FILLER_STEMS = new Set([...FILLER].map((word) => stemmer(word)));
/** Each stem of a synonym group to the group's first: the term all of them are compared as. */
const SYNONYM_OF = new Map(SYNONYM_GROUPS.flatMap((group) => group.map((word) => [stemmer(word), stemmer(group[0]!)] as const)));
const stems = new Map<string, string | null>();
const MAX_CACHED_STEMS = 50_000;
const MAX_CACHED_WORD = 40;
/** A word's characters: letters, marks and digits; anything else separates words. */
const SEPARATOR = /[^\p{L}\p{M}\p{N}]+/u;
/** Texts are cut to this many characters before they are split: a long text must not make a search slow. */
export const MAX_TEXT_CHARS = 4000;

export function words(text: string): string[] {
  return text.split(SEPARATOR).filter((w) => w.length > 0);
}

/** The stem a word is compared by, or null for a stop word, a filler word or a single character. */
export function termOf(word: string): string | null {
  const known = stems.get(word);
  if (known !== undefined) return known;
  const lower = word.toLowerCase();
  const stem = lower.length < 2 || STOP_WORDS.has(lower) ? null : stemmer(lower);
  const term = stem === null || FILLER_STEMS.has(stem) ? null : (SYNONYM_OF.get(stem) ?? stem);
  // Knowledge bases repeat their words: an index of a large one stems each word once.
  if (stems.size >= MAX_CACHED_STEMS) stems.clear();
  if (word.length <= MAX_CACHED_WORD) stems.set(word, term);
  return term;
}

/**
 * A text's words as they are compared: a synonym phrase as its one word ("money back" is
 * "refund"), and after them "price" when the text states an amount of money ("€65") and "hour"
 * when it states a time of day ("7:30am", "18:30").
 */
export function readWords(text: string): string[] {
  const all = words(text);
  const out: string[] = [];
  for (let i = 0; i < all.length; i += 1) {
    const phrase = i + 1 < all.length ? SYNONYM_PHRASES.get(`${all[i]!.toLowerCase()} ${all[i + 1]!.toLowerCase()}`) : undefined;
    if (phrase) {
      out.push(phrase);
      i += 1;
    } else {
      out.push(all[i]!);
    }
  }
  if (AMOUNT.test(text)) out.push(AMOUNT_WORD);
  if (CLOCK.test(text)) out.push(CLOCK_WORD);
  return out;
}

/** A text as BM25 indexes and searches it: its words as they are compared (readWords). */
export const comparedText = (text: string) => readWords(text).join(' ');

function termsOf(text: string, include: (word: string, previous: string) => boolean): Set<string> {
  const terms = new Set<string>();
  let previous = '';
  for (const word of readWords(text)) {
    const term = include(word, previous) ? termOf(word) : null;
    if (term) terms.add(term);
    previous = word.toLowerCase();
  }
  return terms;
}

/** The distinct terms of a text (its first MAX_TEXT_CHARS characters). */
export function queryTerms(text: string): Set<string> {
  const cut = text.slice(0, MAX_TEXT_CHARS);
  return termsOf(cut, () => true);
}

/** After "what" or "which", words that name the kind of answer wanted ("what time do you open"). */
const ANSWER_KINDS = new Set(['time', 'times', 'day', 'days', 'date', 'dates', 'hour', 'hours', 'year', 'month']);

/**
 * The terms a question asks about: as queryTerms, without the words that name the kind of answer
 * wanted, which are seldom in the answer itself: the word after "how" ("how long", "how far") and
 * "time", "day" and the like after "what" or "which".
 */
export function questionTerms(text: string): Set<string> {
  const cut = text.slice(0, MAX_TEXT_CHARS);
  return termsOf(cut, (word, previous) => !(previous === 'how' || ((previous === 'what' || previous === 'which') && ANSWER_KINDS.has(word.toLowerCase()))));
}

/** The distinct terms of a knowledge-base text, whole: it was size-checked when saved. */
export function textTerms(text: string): Set<string> {
  return termsOf(text, () => true);
}
