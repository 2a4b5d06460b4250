// The words retrieval compares: lower-cased English stems (French ones for a French knowledge base,
// languages.ts) without stop words, numbers as digits, and without the
// words people wrap a question in ("hi", "thanks", "I was wondering"), which say nothing about what
// they ask and would only count against a passage that answers. Light words (light-words.ts) and
// the vocabulary of days, times, months and deadlines (time-terms.ts) have files of their own.
import { stemmer } from 'stemmer';
import { eng } from './stop-lists.ts';
import { fold, frenchStem, FRENCH_SYNONYMS, isFrenchStop, type Language } from './languages.ts';
import { foldGerman, germanStem, GERMAN_SYNONYMS, isGermanStop } from './german.ts';
import { italianStem, ITALIAN_STOP, ITALIAN_SYNONYMS } from './italian.ts';
import { spanishStem, SPANISH_STOP, SPANISH_SYNONYMS } from './spanish.ts';
import { withoutGreetings } from './greetings.ts';
import { ADDRESS, ADDRESS_WORD, AMOUNT, AMOUNT_WORD, ASKS_WHERE, CLOCK, HOW_MUCH_TIME, CLOCK_WORD, englishTerm, SYNONYM_OF, SYNONYM_PHRASES } from './synonyms.ts';
import { DAY_TERMS, DEADLINE, MONTH_TERMS, NAMES_A_DAY, NAMES_A_MONTH, NAMES_A_PERIOD, NAMES_A_TIME } from './time-terms.ts';

export type { Language } from './languages.ts';

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
  // Greetings and framing the lists above lacked ("hiya", "a bit worried", "what happens if"), and the
  // ends of contractions typed with the apostrophe split off ("we're", "I've", "it's" typed "its").
  'hiya', 'heya', 'howdy', 'bit', 'worried', 'worry', 'concerned', 'happen', 'happens', 're', 've', 'll', 'its',
  // "whereabouts are you?" asks where, as "where" does (ASKS_WHERE, synonyms.ts).
  'whereabouts',
  // Question words the stop-word list keeps: they name the kind of answer wanted (answer-types.ts), not what it is about.
  'when', 'why', 'whom', 'whose',
]);
/** By stem, so that "afternoons" goes with "afternoon". */
const FILLER_STEMS = new Set([...FILLER].map((word) => stemmer(word)));
const stems: Record<Language, Map<string, string | null>> = { en: new Map(), fr: new Map(), de: new Map(), it: new Map(), es: new Map() };
/**
 * Numbers written as words are compared as their digits ("a three bed semi" against "3 bedrooms",
 * "deux à trois jours" against "2 days"). Not "one"/"un", which are pronouns and articles as often.
 */
const NUMBER_WORDS: Record<Language, readonly string[]> = {
  en: ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'],
  fr: ['zero', 'un', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf', 'dix', 'onze', 'douze'],
  de: ['null', 'eins', 'zwei', 'drei', 'vier', 'funf', 'sechs', 'sieben', 'acht', 'neun', 'zehn', 'elf', 'zwolf'],
  it: ['zero', 'uno', 'due', 'tre', 'quattro', 'cinque', 'sei', 'sette', 'otto', 'nove', 'dieci', 'undici', 'dodici'],
  es: ['cero', 'uno', 'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve', 'diez', 'once', 'doce'],
};
const DIGITS_OF: Record<Language, ReadonlyMap<string, string>> = {
  en: new Map(NUMBER_WORDS.en.slice(2).map((w, i) => [w, String(i + 2)])),
  fr: new Map(NUMBER_WORDS.fr.slice(2).map((w, i) => [w, String(i + 2)])),
  de: new Map(NUMBER_WORDS.de.slice(2).map((w, i) => [w, String(i + 2)])),
  it: new Map(NUMBER_WORDS.it.slice(2).map((w, i) => [w, String(i + 2)])),
  es: new Map(NUMBER_WORDS.es.slice(2).map((w, i) => [w, String(i + 2)])),
};
const DIGITS = /^\d+$/;
const MAX_CACHED_STEMS = 50_000;
const MAX_CACHED_WORD = 40;
/** A word's characters: letters, marks and digits; anything else separates words. */
const SEPARATOR = /[^\p{L}\p{M}\p{N}]+/u;
/** Texts are cut to this many characters before they are split: a long text must not make a search slow. */
export const MAX_TEXT_CHARS = 4000;

export function words(text: string): string[] {
  return text.split(SEPARATOR).filter((w) => w.length > 0);
}

const MARKERS = new Set([AMOUNT_WORD, CLOCK_WORD, ADDRESS_WORD]);
/** Italian and Spanish: stop words, stemmer and synonyms, read alike (italian.ts, spanish.ts). */
const ROMANCE = {
  it: { stop: ITALIAN_STOP, stem: italianStem, synonyms: ITALIAN_SYNONYMS },
  es: { stop: SPANISH_STOP, stem: spanishStem, synonyms: SPANISH_SYNONYMS },
} as const;

/** The term of a word as the language of its knowledge base compares it (languages.ts). */
function computeTerm(word: string, language: Language): string | null {
  // The words readWords adds for an amount, a clock time or an address are English: in every language
  // they are compared as their English terms, as the language's own words for a price, an hour or an
  // address are ("45 €" and "prix" both give "price"; stemmed as a French word "price" gave "pric").
  if (language !== 'en' && MARKERS.has(word)) return computeTerm(word, 'en');
  const folded = language === 'de' ? foldGerman(word) : fold(word);
  // A number is a term at any length ("3 bed"); a number word is its digits.
  const digits = DIGITS.test(folded) ? String(Number(folded.slice(0, 15))) : DIGITS_OF[language].get(folded);
  if (digits !== undefined) return digits;
  if (language === 'fr') {
    if (folded.length < 2 || isFrenchStop(folded)) return null;
    const stem = frenchStem(folded);
    const english = FRENCH_SYNONYMS.get(stem);
    return english === undefined ? stem : englishTerm(english);
  }
  if (language === 'de') {
    if (folded.length < 2 || isGermanStop(word, folded)) return null;
    const stem = germanStem(folded);
    const english = GERMAN_SYNONYMS.get(stem);
    return english === undefined ? stem : englishTerm(english);
  }
  if (language === 'it' || language === 'es') {
    const { stop, stem, synonyms } = ROMANCE[language];
    if (folded.length < 2 || stop.has(folded)) return null;
    const english = synonyms.get(stem(folded));
    return english === undefined ? stem(folded) : englishTerm(english);
  }
  const lower = word.toLowerCase();
  const stem = lower.length < 2 || STOP_WORDS.has(lower) ? null : stemmer(folded);
  return stem === null || FILLER_STEMS.has(stem) ? null : (SYNONYM_OF.get(stem) ?? stem);
}

/** The stem a word is compared by, or null for a stop word, a filler word or a single letter. */
export function termOf(word: string, language: Language = 'en'): string | null {
  const cache = stems[language];
  const known = cache.get(word);
  if (known !== undefined) return known;
  const term = computeTerm(word, language);
  // Knowledge bases repeat their words: an index of a large one stems each word once.
  if (cache.size >= MAX_CACHED_STEMS) cache.clear();
  if (word.length <= MAX_CACHED_WORD) cache.set(word, term);
  return term;
}

/**
 * A text's words as they are compared: a synonym phrase as its one word ("money back" is
 * "refund"), and after them "price" when the text states an amount of money ("€65"), "hour"
 * when it states a time of day ("7:30am", "18:30") and "address" when it states a street address
 * or asks only where.
 */
const FRENCH_ARTICLES = new Set(['l', 'la', 'le', 'les']);
const ROMANCE_HOW_MUCH = new Set(['quanto', 'quanta', 'cuanto', 'cuanta']);
/** Words after German "wie" that ask a measure ("wie lange", "wie oft", "wie alt", "wie spät"), folded. */
const GERMAN_MEASURES = new Set(['lange', 'lang', 'oft', 'alt', 'spat', 'fruh']);
const ROMANCE_TIME = new Set(['tempo', 'tiempo']);
const ROMANCE_NOT_PRICE = new Set(['tempo', 'tiempo', 'ci', 'dura', 'durano', 'tarda', 'tardais', 'tardan', 'dista', 'lontano', 'lejos']);

/** The kinds of street written before the street's name (synonyms.ts, ADDRESS). */
const STREET_KINDS = new Set(['rue', 'avenue', 'boulevard', 'chemin', 'via', 'viale', 'piazza', 'corso', 'calle', 'avenida', 'plaza', 'paseo']);
const STREET_LINKS = new Set(['de', 'la', 'du', 'des', 'del', 'della', 'di', 'd', 'l']);
/** Whether the words from i on are a street's name: a capitalised word, perhaps after "de la", "del", "della". */
function namesStreet(all: readonly string[], i: number): boolean {
  let j = i;
  while (j < all.length && j < i + 2 && STREET_LINKS.has(all[j]!.toLowerCase())) j += 1;
  const name = all[j];
  return name !== undefined && name[0] !== name[0]!.toLowerCase();
}

export function readWords(text: string, language: Language = 'en'): string[] {
  const all = words(text);
  const out: string[] = [];
  for (let i = 0; i < all.length; i += 1) {
    const pair = i + 1 < all.length ? `${all[i]!.toLowerCase()} ${all[i + 1]!.toLowerCase()}` : '';
    // "combien de temps", "combien de personnes" ask a quantity, not a price: "combien" alone is "how much".
    // "combien de l'heure", "combien la séance" ask a price: an article after "de" names what is paid for.
    if (language === 'fr' && (pair === 'combien de' || pair === 'combien d') && !FRENCH_ARTICLES.has(all[i + 2]?.toLowerCase() ?? '')) {
      // "combien de temps" asks a duration, as "how long" does: "temps" frames the question (issue 36, thirteenth round).
      i += fold(all[i + 2] ?? '') === 'temps' ? 2 : 1;
      continue;
    }
    // "wie lange", "wie oft", "wie alt", "quanto tempo", "cuánto tiempo" ask a duration, a frequency, an
    // age: the measure word frames the question as "long" does after "how", and is no word of its topic
    // (a sentence stating the measure answers it; answer-types.ts checks it states one).
    if (language === 'de' && all[i]!.toLowerCase() === 'wie' && GERMAN_MEASURES.has(foldGerman(all[i + 1] ?? ''))) {
      i += 1;
      continue;
    }
    if ((language === 'it' || language === 'es') && ROMANCE_HOW_MUCH.has(fold(all[i]!)) && ROMANCE_TIME.has(fold(all[i + 1] ?? ''))) {
      i += 1;
      continue;
    }
    // "quanto si paga", "cuánto hay que pagar", "de cuánto es la fianza" ask a price, as "combien" does
    // in French; "quanto tempo", "cuánto tiempo", "quanto ci mettete" ask a duration.
    if ((language === 'it' || language === 'es') && ROMANCE_HOW_MUCH.has(fold(all[i]!)) && !ROMANCE_NOT_PRICE.has(fold(all[i + 1] ?? ''))) out.push(AMOUNT_WORD);
    // "how much notice", "how much time" ask a duration: "how much" is "price" only otherwise.
    if (language === 'en' && pair === 'how much' && HOW_MUCH_TIME.has(all[i + 2]?.toLowerCase() ?? '')) {
      i += 1;
      continue;
    }
    // "Corso Vittorio Emanuele", "Calle Mayor", "rue de la Paix": the kind of a street before its
    // name is part of an address (the "address" term says so), not a word of what the text is
    // about: "fate corsi di pasticceria?" must not find "… in Corso Vittorio Emanuele 118".
    if (STREET_KINDS.has(fold(all[i]!)) && namesStreet(all, i + 1)) continue;
    const phrase = language === 'en' && pair ? SYNONYM_PHRASES.get(pair) : undefined;
    if (phrase) {
      out.push(phrase);
      i += 1;
    } else {
      out.push(all[i]!);
    }
  }
  if (AMOUNT.test(text)) out.push(AMOUNT_WORD);
  if (CLOCK.test(text)) out.push(CLOCK_WORD);
  // An address answers a question of where that names nothing else ("where are you?"): the
  // question has no other word to be matched by, and would find no passage at all.
  if (ADDRESS.test(text) || (ASKS_WHERE.test(text) && !out.some((w) => termOf(w, language) !== null))) out.push(ADDRESS_WORD);
  return out;
}

/** A text as BM25 indexes and searches it: its words as they are compared (readWords). */
export const comparedText = (text: string, language: Language = 'en') => readWords(text, language).join(' ');

function termsOf(text: string, include: (word: string, previous: string) => boolean, language: Language): Set<string> {
  const terms = new Set<string>();
  let previous = '';
  for (const word of readWords(text, language)) {
    const term = include(word, previous) ? termOf(word, language) : null;
    if (term) terms.add(term);
    previous = word.toLowerCase();
  }
  return terms;
}

/** The distinct terms of a text (its first MAX_TEXT_CHARS characters), without greetings at its edges. */
export function queryTerms(text: string, language: Language = 'en'): Set<string> {
  const cut = withoutGreetings(text.slice(0, MAX_TEXT_CHARS));
  return termsOf(cut, () => true, language);
}

/** After "what" or "which", words that name the kind of answer wanted ("what time do you open"). */
const ANSWER_KINDS = new Set(['time', 'times', 'day', 'days', 'date', 'dates', 'hour', 'hours', 'year', 'month']);

/**
 * The terms a question asks about: as queryTerms, without the words that name the kind of answer
 * wanted, which are seldom in the answer itself: the word after "how" ("how long", "how far") and
 * "time", "day" and the like after "what" or "which".
 */
export function questionTerms(text: string, language: Language = 'en'): Set<string> {
  const cut = withoutGreetings(text.slice(0, MAX_TEXT_CHARS));
  return termsOf(cut, (word, previous) => !(previous === 'how' || ((previous === 'what' || previous === 'which') && ANSWER_KINDS.has(word.toLowerCase()))), language);
}

/**
 * Whether a thing costs, by stem: "is fuel extra?", "is parking free?", "are classes included?", "le
 * parking est payant ?", "ist das inklusive?", "¿está incluido?". A sentence that states a price, or
 * that a thing is free, included or extra ("Fuel is included in the price", "Le parking de la plage est
 * gratuit", "Day lockers cost £1"), answers it, as a sentence naming any day answers "open on
 * Mondays?" (retrieval.ts; issue 36, twelfth round). Not "pay", whose questions are as often how.
 */
export const COST_TERMS: ReadonlySet<string> = new Set([
  ...['free', 'included', 'inclusive', 'extra'].map(englishTerm),
  ...['gratuit', 'payant', 'inclus'].map((w) => frenchStem(w)),
  ...['inklusive', 'inbegriffen', 'kostenpflichtig'].map((w) => germanStem(foldGerman(w))),
  ...['incluso', 'compreso'].map((w) => italianStem(w)),
  ...['incluido', 'incluye'].map((w) => spanishStem(w)),
]);
/**
 * "Free" meaning "without", not "at no cost": hyphened to the word before it ("gluten-free"), or
 * between two words, the first not a verb, article or preposition ("gluten free pizza", "nut free
 * cakes"; but "is parking free?", "do you have free parking", "is it free for kids").
 */
const FREE_OF = /\p{L}-free\b|(?:^|[^\p{L}])(?!(?:is|are|be|was|it|for|get|gets|got|have|has|any|some|with|offer|offers|there|a|the|your|of|on|do|does|totally|completely|also|still|really|entirely|always|and|or)\s)\p{L}{2,}\s+free\s+\p{L}/iu;
export const freeMeansWithout = (question: string) => FREE_OF.test(question);
/** Not a word: what a knowledge-base text that states a price, or that a thing is free, included or extra, also says. */
export const NAMES_A_COST = '·cost';

/**
 * Runs of letters, digits and hyphens: a word written with hyphens ("Wi-Fi", "e-mail", "Online-Shop")
 * is one of them. Split on (one character class), not matched: a global match of the hyphenated word
 * itself retried from every letter of a long word, which recheck found quadratic.
 */
const NOT_IN_HYPHENATED = /[^\p{L}\p{M}\p{N}-]+/u;

/** The distinct terms of a knowledge-base text, whole: it was size-checked when saved. */
export function textTerms(text: string, language: Language = 'en'): Set<string> {
  const terms = termsOf(text, () => true, language);
  // A hyphenated word of the knowledge base is also the word written solid, as customers often type
  // it ("whats the wifi password" by "Wi-Fi: … the password is …"; issue 36, fifteenth round).
  for (const run of text.split(NOT_IN_HYPHENATED)) {
    const pieces = run.split('-').filter((piece) => piece.length > 0);
    if (pieces.length < 2) continue;
    const term = termOf(pieces.join(''), language);
    if (term) terms.add(term);
  }
  for (const term of terms) {
    if (DAY_TERMS.has(term)) terms.add(NAMES_A_DAY);
    if (MONTH_TERMS.has(term)) terms.add(NAMES_A_MONTH);
    if (COST_TERMS.has(term) || term === AMOUNT_WORD) terms.add(NAMES_A_COST);
  }
  if (CLOCK.test(text)) terms.add(NAMES_A_TIME);
  if (CLOCK.test(text) || DEADLINE.test(text)) terms.add(NAMES_A_PERIOD);
  return terms;
}
