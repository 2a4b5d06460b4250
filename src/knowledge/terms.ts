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
  'would', 'could', 'just', 'exactly', 'really', 'possible', 'good', 'great', 'kind',
  'kindly', 'best', 'wishes', 'thing', 'things', 'ok', 'okay', 'sir', 'madam', 'team', 'im', 'id', 'ive', 'does', 'anyone',
  'somebody', 'someone', 'guys', 'folks', 'advance', 'appreciate', 'appreciated', 'info', 'information', 'let', 'per',
  // How people frame a question ("what are my options", "is there an easy way", "is it doable").
  'option', 'options', 'easiest', 'easy', 'easily', 'simple', 'simplest', 'method', 'doable', 'somehow', 'fastest',
  'quickest', 'currently', 'completely', 'actually', 'able', 'approach',
  // Stop words as people type them without the apostrophe ("whats your fee", "it wont drain"), and "u"/"ur" for "you"/"your".
  'whats', 'wheres', 'hows', 'thats', 'theres', 'dont', 'doesnt', 'didnt', 'cant', 'wont', 'isnt', 'arent', 'youre', 'ur', 'something', 'anything',
  // Function words the stop-word list (npm stopword) lacks: pronouns ("can she come in?"), modal and
  // auxiliary forms, hedges and connectives. Not "may" (the month), nor "not", "no", "without",
  // "until", "within", "during", which change what is asked; not "even", whose stem is "evening"'s.
  'she', 'hers', 'herself', 'itself', 'myself', 'yourself', 'yourselves', 'ourselves', 'themselves', 'theirs', 'ours',
  'having', 'doing', 'shall', 'will', 'ought', 'maybe', 'perhaps', 'anyway', 'ever', 'already', 'yes', 'yeah',
  'though', 'although', 'whether', 'either', 'neither', 'etc', 'so',
  // Question words the stop-word list keeps: they name the kind of answer wanted (answer-types.ts), not what it is about.
  'when', 'why', 'whom', 'whose',
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

/** The parts of a day a greeting names: "good evening" greets, "evening classes" asks about something. */
const DAY_PARTS = new Set(['morning', 'afternoon', 'evening', 'day', 'night', 'weekend']);
const OPENERS = new Set(['hi', 'hello', 'hey', 'dear']);
const ADDRESSED = new Set(['all', 'everyone', 'everybody', 'team', 'there', 'folks']);
const WISHES = new Set(['good', 'nice', 'lovely', 'great', 'pleasant', 'wonderful']);
/** How far from each edge of a message a greeting is looked for. */
const EDGE_CHARS = 80;
const LETTERS = /\p{L}+/gu;

/**
 * A message without the greetings at its edges: "Good evening," or "Morning!" before it, "have a
 * nice evening" or "good night" after it. A part of the day is a greeting only there; "do you have
 * evening classes?" keeps its "evening".
 */
export function withoutGreetings(text: string): string {
  const head = [...text.slice(0, EDGE_CHARS).matchAll(LETTERS)].map((m) => ({ word: m[0].toLowerCase(), end: m.index + m[0].length }));
  let i = 0;
  while (i < head.length && OPENERS.has(head[i]!.word)) i += 1;
  let start = 0;
  const after = (k: number) => text.charAt(head[k]!.end);
  if (head[i]?.word === 'good' && DAY_PARTS.has(head[i + 1]?.word ?? '')) {
    i += ADDRESSED.has(head[i + 2]?.word ?? '') ? 3 : 2;
    start = head[i - 1]!.end;
  } else if (i === 0 && head[0] && DAY_PARTS.has(head[0].word) && head[0].word !== 'day' && /[,!.]/.test(after(0))) {
    start = head[0].end;
  }
  const tailFrom = Math.max(start, text.length - EDGE_CHARS);
  const tail = [...text.slice(tailFrom).matchAll(LETTERS)].map((m) => ({ word: m[0].toLowerCase(), start: tailFrom + m.index }));
  let end = text.length;
  // "… have a nice evening", "… good night", "… enjoy your weekend"
  let k = tail.length - 1;
  if (k >= 1 && DAY_PARTS.has(tail[k]!.word) && (WISHES.has(tail[k - 1]!.word) || tail[k - 1]!.word === 'your')) {
    k -= 1;
    if (WISHES.has(tail[k]!.word) && (tail[k - 1]?.word === 'a' || tail[k - 1]?.word === 'your')) k -= 1;
    if (tail[k - 1]?.word === 'have' || tail[k - 1]?.word === 'enjoy') k -= 1;
    end = tail[k]!.start;
  }
  return start === 0 && end === text.length ? text : text.slice(start, Math.max(start, end));
}

/** The distinct terms of a text (its first MAX_TEXT_CHARS characters), without greetings at its edges. */
export function queryTerms(text: string): Set<string> {
  const cut = withoutGreetings(text.slice(0, MAX_TEXT_CHARS));
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
  const cut = withoutGreetings(text.slice(0, MAX_TEXT_CHARS));
  return termsOf(cut, (word, previous) => !(previous === 'how' || ((previous === 'what' || previous === 'which') && ANSWER_KINDS.has(word.toLowerCase()))));
}

/** The days of the week, by stem: a question naming one is about the days a business keeps. */
export const DAY_TERMS = new Set(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => stemmer(day)));
/** Not a word: what a knowledge-base text that names a day of the week also says (see retrieval.ts). */
export const NAMES_A_DAY = '·day';

/** The distinct terms of a knowledge-base text, whole: it was size-checked when saved. */
export function textTerms(text: string): Set<string> {
  const terms = termsOf(text, () => true);
  for (const term of terms) {
    if (DAY_TERMS.has(term)) {
      terms.add(NAMES_A_DAY);
      break;
    }
  }
  return terms;
}
