// The words retrieval compares: lower-cased English stems without stop words, and without the
// words people wrap a question in ("hi", "thanks", "I was wondering"), which say nothing about what
// they ask and would only count against a passage that answers.
import { stemmer } from 'stemmer';
import { eng } from 'stopword';

const STOP_WORDS = new Set(eng);
const FILLER = new Set([
  'hi', 'hello', 'hey', 'hallo', 'dear', 'thanks', 'thank', 'thx', 'regards', 'cheers', 'please', 'pls', 'plz',
  'wondering', 'wonder', 'wondered', 'question', 'questions', 'quick', 'ask', 'asking', 'know', 'tell', 'want', 'wanted',
  'would', 'could', 'just', 'exactly', 'really', 'possible', 'morning', 'afternoon', 'evening', 'good', 'great', 'kind',
  'kindly', 'best', 'wishes', 'thing', 'things', 'ok', 'okay', 'sir', 'madam', 'team', 'im', 'id', 'ive', 'does', 'anyone',
  'somebody', 'someone', 'guys', 'folks', 'advance', 'appreciate', 'appreciated', 'info', 'information', 'let', 'per',
]);
/** By stem, so that "afternoons" goes with "afternoon". */
const FILLER_STEMS = new Set([...FILLER].map((word) => stemmer(word)));
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
  const term = stem === null || FILLER_STEMS.has(stem) ? null : stem;
  // Knowledge bases repeat their words: an index of a large one stems each word once.
  if (stems.size >= MAX_CACHED_STEMS) stems.clear();
  if (word.length <= MAX_CACHED_WORD) stems.set(word, term);
  return term;
}

/** The distinct terms of a text (its first MAX_TEXT_CHARS characters). */
export function queryTerms(text: string): Set<string> {
  const terms = new Set<string>();
  for (const word of words(text.slice(0, MAX_TEXT_CHARS))) {
    const term = termOf(word);
    if (term) terms.add(term);
  }
  return terms;
}

/** After "what" or "which", words that name the kind of answer wanted ("what time do you open"). */
const ANSWER_KINDS = new Set(['time', 'times', 'day', 'days', 'date', 'dates', 'hour', 'hours', 'year', 'month']);

/**
 * The terms a question asks about: as queryTerms, without the words that name the kind of answer
 * wanted, which are seldom in the answer itself: the word after "how" ("how long", "how far") and
 * "time", "day" and the like after "what" or "which".
 */
export function questionTerms(text: string): Set<string> {
  const terms = new Set<string>();
  let previous = '';
  for (const word of words(text.slice(0, MAX_TEXT_CHARS))) {
    const lower = word.toLowerCase();
    const frame = previous === 'how' || ((previous === 'what' || previous === 'which') && ANSWER_KINDS.has(lower));
    const term = frame ? null : termOf(word);
    if (term) terms.add(term);
    previous = lower;
  }
  return terms;
}

/** The distinct terms of a knowledge-base text, whole: it was size-checked when saved. */
export function textTerms(text: string): Set<string> {
  const terms = new Set<string>();
  for (const word of words(text)) {
    const term = termOf(word);
    if (term) terms.add(term);
  }
  return terms;
}
