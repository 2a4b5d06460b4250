// Retrieval over a knowledge base: BM25 (MiniSearch) ranks its passages, the heading weighted 3×
// the body, and within a passage its sentences (list items and table rows too) are ranked by how
// much of the question they cover: the question's terms found in the sentence or in the heading
// over it (a heading is part of every sentence under it), each weighted by how rare it is in the
// knowledge base (inverse document frequency over passages), over the weight of all the
// question's terms. A term the knowledge base never uses weighs most, so a question about
// something it does not mention is not covered. The question of a Q&A pair is also matched on its
// own. Terms are stems without stop words, in the knowledge base's language (languages.ts), the words of a synonym group as one (terms.ts,
// synonyms.ts); a misspelt or inflected term counts as the knowledge base's word, and the knowledge
// base's inflections of a word are one term (vocabulary.ts). An index is built from the stored passages and
// cached per knowledge base version, so every worker ranks the same way and an edited knowledge
// base is never answered from a stale index.
import MiniSearch from 'minisearch';
import type { Passage } from './passages.ts';
import { splitUnits } from './sentences.ts';
import { languageOf, type Language } from './languages.ts';
import { AMOUNT_WORD } from './synonyms.ts';
import { askerTerms } from './asker-terms.ts';
import { withoutGreetings } from './greetings.ts';
import { comparedText, COST_TERMS, freeMeansWithout, MAX_TEXT_CHARS, NAMES_A_COST, questionTerms, termOf, textTerms, words } from './terms.ts';
import { isLightVerb, LIGHT_FRAMES, LIGHT_NOUNS } from './light-words.ts';
import { DAY_TERMS, MOMENT_TERMS, MONTH_TERMS, NAMES_A_DAY, NAMES_A_MONTH, NAMES_A_PERIOD, NAMES_A_TIME, WHEN_TERMS } from './time-terms.ts';
import { runAtOnce, runInSlices, type Steps } from './steps.ts';
import { vocabularySteps } from './vocabulary.ts';
import { isEnglishStem } from './english-words.ts';
import { COST_NEAR_WORDS, costDistances, costThing } from './cost-thing.ts';
import { dayOfWord, daysOf, tierOf, TIERS } from './days.ts';
import { businessNameTerms } from './business-name.ts';
import { countsOf, thresholdsOf } from './counts.ts';
import { markQuestionLines, markTables, withoutListNumber } from './passage-layout.ts';
import { isPostMetadata } from './post-metadata.ts';

export { queryTerms } from './terms.ts';

/** A quotable piece of a passage: a sentence, a list item or a table row. */
export interface Sentence {
  passage: Passage;
  /** Its place among its passage's sentences, from 0; -1 for the question of a Q&A pair, matched but never quoted. */
  index: number;
  text: string;
  /** Where it is in the passage's body. */
  start: number;
  end: number;
  /** A list item or a table row. */
  row: boolean;
  /** For a row of a Markdown table, the table's header row, read and quoted with it. */
  header?: Sentence;
  /** A line about a post, not of it ("Asked by Dan · 2 years ago", "👍 4"; post-metadata.ts): never matched nor quoted. */
  aside?: boolean;
}

export interface SentenceMatch {
  sentence: Sentence;
  /** Weighted share of the question's terms the sentence and its heading cover, 0 to 1. */
  coverage: number;
  /** The part of that share found in the sentence itself. */
  own: number;
}

export interface Match {
  passage: Passage;
  /** BM25. */
  score: number;
}

export interface PassageIndex {
  readonly passages: readonly Passage[];
  /** The language its words are compared in (languages.ts). */
  readonly language: Language;
  /** The quotable sentences of a passage, in order. */
  sentencesOf(passage: Passage): readonly Sentence[];
  /** Passages by BM25, best first. */
  search(question: string, limit?: number): Match[];
  /** The sentences of one passage (and its question) by how much of the question they cover, best first. */
  rankSentences(question: string, passage: Passage): SentenceMatch[];
  /** The question's terms (as compared, at most MAX_QUERY_TERMS) and the share of their weight that the knowledge base never uses. */
  questionWeights(question: string): { terms: number; unknown: number };
  /** The question's terms as compared (at most MAX_QUERY_TERMS). */
  termsOf(question: string): string[];
  /** The question's terms (as compared) that a sentence and its heading do not cover, with their weights: what a decline lacked. */
  uncovered(question: string, sentence: Sentence): Array<{ term: string; weight: number; known: boolean }>;
  /**
   * A word the knowledge base never uses, written just before a word the sentence covers: what
   * makes the question about another kind of the sentence's thing ("a laptop screen" against
   * "iPhone screen replacement"), when the sentence writes a word of its own just before that one
   * (its "iPhone"): a sentence naming no kind ("Screen replacement: £69") answers any. Null when
   * there is none.
   */
  unknownQualifier(question: string, sentence: Sentence): string | null;
}

const HEADING_BOOST = 3;
/** What the asker's own words weigh (asker-terms.ts, askerTerms) when the knowledge base never uses them. */
export const ASKER_WEIGHT = 0;
/**
 * A number the knowledge base never writes ("could we have 2 photographers?", "my daughter is 9",
 * "a 1 bed flat") is the asker's case, which the answer's rule or threshold covers ("A second
 * photographer …", "from 8 years"), not the thing asked about: it weighs this share of its weight.
 */
export const NUMBER_WEIGHT = 0.5;
const CASE_NUMBER = /^\d{1,2}$/;
const FREE_TERM = termOf('free')!;
/**
 * Paying, in every language ("quanto si paga", "cuánto hay que pagar", "how much do I pay"): in a
 * question that asks a price it says no more than the price asked, and a sentence stating a price
 * covers it (issue 36, thirteenth round). Not otherwise: "can I pay the deposit in cash?" asks how.
 */
const PAY_TERM = termOf('pay')!;
const PRICE_TERM = termOf(AMOUNT_WORD)!;
/** A question's terms beyond this many are not weighed: a long submission must not make a search slow. */
const MAX_QUERY_TERMS = 48;

/**
 * `columns`: words read with the sentence as its heading's are: a table row's column names, or the question line over an answer.
 * `costNear`: for a sentence that states a price or that a thing is free, included or extra, each of its terms with the fewest words between it and that statement (cost-thing.ts).
 * `days`: the days of the week the sentence, its heading and its columns name, as a mask (days.ts).
 * `counted`: the terms of the words its numbers count ("dès 4 ans": "ans"; counts.ts).
 */
interface Unit { sentence: Sentence; own: Set<string>; heading: Set<string>; columns?: Set<string>; costNear?: Map<string, number>; days: number; counted?: Set<string> }

// Ties go to the sentence that covers more by itself, then to the earlier (an answer comes first).
const byCoverage = (a: SentenceMatch, b: SentenceMatch) => b.coverage - a.coverage || b.own - a.own || a.sentence.index - b.sentence.index;

/**
 * A passage that is only a title ("About us", "Returns and Refunds Policy – Stride Footwear" above
 * a blank line): a short line without a heading, a digit or a sentence's end, in a knowledge base of
 * several passages. It names the page, answers nothing, and is neither searched nor quoted: as the
 * best match it would be quoted for any question sharing its words ("When will I get my refund?").
 */
const TITLE_ONLY = /^[^\n\d]{1,60}$/;
export const titleOnly = (passage: Passage, count: number) => count > 1 && !passage.heading && TITLE_ONLY.test(passage.body.trim())
  && passage.body.trim().split(/\s+/).length <= 8 && !/[.!?:;]["')\]]*$/.test(passage.body.trim());

/** Passages read, or added to BM25, between two pauses of indexSteps. */
const PASSAGES_PER_SLICE = 32;

export function buildIndex(passages: Passage[]): PassageIndex {
  return runAtOnce(indexSteps(passages));
}

/**
 * The same index, built a slice per turn of the event loop: a large knowledge base (about 200 ms of
 * CPU for 512 KiB) never holds up the requests of the API its worker shares a thread with.
 */
export function buildIndexInSlices(passages: Passage[]): Promise<PassageIndex> {
  return runInSlices(indexSteps(passages));
}

function* indexSteps(passages: Passage[]): Steps<PassageIndex> {
  const language = languageOf(passages.slice(0, 64).map((p) => `${p.heading ?? ''}\n${p.body}`).join('\n'));
  const sentencesByPassage = new Map<number, Sentence[]>();
  const unitsByPassage = new Map<number, Unit[]>();
  const rawFrequency = new Map<string, number>();
  const count = (counts: Map<string, number>, terms: Iterable<string>) => { for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1); };
  for (const [i, passage] of passages.entries()) {
    if (i > 0 && i % PASSAGES_PER_SLICE === 0) yield;
    const heading = passage.heading ? textTerms(passage.heading, language) : new Set<string>();
    const headingDays = passage.heading ? daysOf(passage.heading) : 0;
    const sentences = splitUnits(passage.body).map((unit, index): Sentence => ({ passage, index, text: passage.body.slice(unit.start, unit.end), ...unit }));
    sentencesByPassage.set(passage.position, sentences);
    const asks = passage.heading?.trimEnd().endsWith('?') ?? false;
    const notAnswers = markTables(sentences);
    for (const sentence of sentences) if (isPostMetadata(sentence.text)) notAnswers.add(Object.assign(sentence, { aside: true }));
    const questionOf = markQuestionLines(passage.body, sentences);
    for (const question of questionOf.values()) notAnswers.add(question);
    const answers = titleOnly(passage, passages.length) ? [] : sentences.filter((sentence) => !notAnswers.has(sentence));
    const matched = asks ? [{ passage, index: -1, text: passage.heading!, start: 0, end: 0, row: false }, ...answers] : answers;
    const units: Unit[] = matched.map((sentence) => {
      const text = withoutListNumber(sentence.text);
      const own = textTerms(text, language);
      const costNear = own.has(NAMES_A_COST) ? costDistances(text, language) : null;
      const columns = sentence.header ?? questionOf.get(sentence);
      const counted = new Set(thresholdsOf(text, language).values());
      return {
        sentence, own, heading, days: daysOf(text) | headingDays | (columns ? daysOf(columns.text) : 0),
        ...(sentence.header ? { columns: textTerms(sentence.header.text, language) } : {}),
        ...(questionOf.has(sentence) ? { columns: textTerms(questionOf.get(sentence)!.text, language) } : {}),
        ...(costNear ? { costNear } : {}),
        ...(counted.size > 0 ? { counted } : {}),
      };
    });
    unitsByPassage.set(passage.position, units);
    count(rawFrequency, new Set([...heading, ...units.flatMap((u) => [...u.own, ...(u.columns ?? [])])]));
  }
  // In English, a question's real word is never read as a slip for another (english-words.ts).
  const { resolve, standFor, compoundsOf } = yield* vocabularySteps(rawFrequency, language === 'en' ? isEnglishStem : undefined, language === 'de');
  // Terms as they are compared: the knowledge base's inflections of a word as one (vocabulary.ts).
  const frequency = new Map<string, number>();
  for (const units of unitsByPassage.values()) {
    const heading = new Set([...(units[0]?.heading ?? [])].map(standFor));
    for (const unit of units) {
      unit.heading = unit.columns ? new Set([...heading, ...[...unit.columns].map(standFor)]) : heading;
      unit.own = new Set([...unit.own].map(standFor));
      if (unit.counted) unit.counted = new Set([...unit.counted].map(standFor));
      if (unit.costNear) {
        const near = new Map<string, number>();
        for (const [term, d] of unit.costNear) { const t = standFor(term); if (d < (near.get(t) ?? Infinity)) near.set(t, d); }
        unit.costNear = near;
      }
    }
    count(frequency, new Set([...heading, ...units.flatMap((u) => [...u.own])]));
  }
  // The business's name in the title: no topic for the thing a price is for (business-name.ts).
  const nameTerms = new Set([...businessNameTerms(passages, language)].map(standFor));
  const total = passages.length;
  const weight = (term: string) => Math.log(1 + (total + 1) / ((frequency.get(term) ?? 0) + 0.5));

  const bm25 = new MiniSearch<{ id: number; heading: string; body: string }>({
    idField: 'id',
    fields: ['heading', 'body'],
    tokenize: words,
    // A day's name is also "a day": a question's day the base never writes finds the passages naming any
    // ("vous venez le samedi ?" by "du lundi au vendredi"), as a sentence naming any day covers it.
    processTerm: (word) => { const term = termOf(word, language); return term ? (DAY_TERMS.has(term) ? [standFor(term), NAMES_A_DAY] : standFor(term)) : null; },
    searchOptions: { boost: { heading: HEADING_BOOST }, tokenize: words, processTerm: (word) => {
      const term = termOf(word, language);
      if (!term) return null;
      const resolved = resolve(term);
      if (DAY_TERMS.has(resolved) && !frequency.has(resolved)) return NAMES_A_DAY;
      const compounds = compoundsOf(resolved);
      return compounds.length > 0 ? [...compounds] : resolved;
    } },
  });
  for (const [i, p] of passages.entries()) {
    if (i > 0 && i % PASSAGES_PER_SLICE === 0) yield;
    if (titleOnly(p, passages.length)) continue;
    bm25.add({ id: p.position, heading: comparedText(p.heading ?? '', language), body: comparedText(p.body, language) });
  }
  const byPosition = new Map(passages.map((p) => [p.position, p]));

  const termsAsked = (question: string) => [...new Set([...questionTerms(question, language)].slice(0, MAX_QUERY_TERMS).map(resolve))];
  /** Each term's weight in this question: the asker's own words that the knowledge base never uses count for little. */
  const weigher = (question: string) => {
    const own = askerTerms(question, language);
    return (t: string) => (((own.size > 0 && own.has(t)) || isLightVerb(t, language) || LIGHT_NOUNS.has(t) || LIGHT_FRAMES.has(t)) && !frequency.has(t) ? ASKER_WEIGHT * weight(t)
      : CASE_NUMBER.test(t) && !frequency.has(t) ? NUMBER_WEIGHT * weight(t) : weight(t));
  };
  return {
    passages,
    language,
    sentencesOf: (passage) => sentencesByPassage.get(passage.position) ?? [],
    search(question, limit = 5) {
      return bm25.search(comparedText(withoutGreetings(question.slice(0, MAX_TEXT_CHARS)), language)).slice(0, limit).map((r) => ({ passage: byPosition.get(r.id as number)!, score: r.score }));
    },
    rankSentences(question, passage) {
      const terms = termsAsked(question);
      const weight = weigher(question);
      const sum = terms.reduce((s, t) => s + weight(t), 0);
      if (sum === 0) return [];
      const units = unitsByPassage.get(passage.position) ?? [];
      // A day the question names is covered by a sentence whose days hold it (days.ts): the day itself,
      // a range or a word such as "weekdays" ("a party on a wednesday" by "Weekday parties …", not by
      // "Parties run on Saturdays and Sundays"; issue 36, fourteenth round).
      const askedDays = new Map<string, number>();
      for (const w of words(withoutGreetings(question.slice(0, MAX_TEXT_CHARS)))) {
        const mask = dayOfWord(w);
        const t = mask === 0 ? null : termOf(w, language);
        if (t) askedDays.set(resolve(t), (askedDays.get(resolve(t)) ?? 0) | mask);
      }
      // Only by the sentences of the most precise tier that holds it (days.ts): "a che ora aprite il
      // sabato" by "… sabato 8:30–13:00", not by the self-service's "tutti i giorni" beside it. A day no
      // sentence of the passage holds is still covered by any that names a day: "de lunes a sábado" says
      // what is not done on Sundays.
      const tierFor = new Map<string, number>();
      for (const [t, mask] of askedDays) {
        for (let tier = 0; tier < TIERS && !tierFor.has(t); tier += 1) if (units.some((u) => (tierOf(u.days, tier) & mask) !== 0)) tierFor.set(t, tier);
      }
      const onDay = (unit: Unit, t: string) => (tierFor.has(t) ? (tierOf(unit.days, tierFor.get(t)!) & askedDays.get(t)!) !== 0
        : (unit.own.has(NAMES_A_DAY) || unit.heading.has(NAMES_A_DAY)) && !units.some((u) => u.own.has(t)));
      const compounds = new Map(terms.map((t) => [t, compoundsOf(t)]));
      // Whether it costs, unless "free" is "without" ("gluten free pizza"): the other words of COST_TERMS keep it.
      const costTerms = freeMeansWithout(question) ? new Set([...COST_TERMS].filter((t) => t !== FREE_TERM)) : COST_TERMS;
      // The thing asked the cost of ("a free trial day"): the sentence must name it, and each of its
      // words the sentence holds must stand near the sentence's price or freeness (cost-thing.ts).
      const thing = costThing(withoutGreetings(question.slice(0, MAX_TEXT_CHARS)), language, costTerms, resolve);
      // The sentence or its heading names the thing. A heading stands for it only weakly (issue 36,
      // fourteenth round): the business's name in it not at all ("is parking free?" is not a price row
      // under "… Trampoline Park"), and a heading alone, the sentence naming none of the thing, must name
      // each of its words the knowledge base uses ("is the first full day free?" is not "BEFORE YOUR
      // FIRST DAY: Book a free 2-hour trial session", which names no full day).
      const topic = (unit: Unit, x: string) => unit.heading.has(x) && !nameTerms.has(x);
      const namesThing = (unit: Unit) => thing.some((x) => unit.own.has(x))
        || (thing.some((x) => topic(unit, x)) && thing.every((x) => topic(unit, x) || !frequency.has(x)));
      // The question's cost word written by the sentence itself ("Il preventivo per lavori grandi … è gratuito").
      const writesCost = (unit: Unit) => terms.some((t) => costTerms.has(t) && unit.own.has(t));
      // Else a word of the thing the sentence holds far from its price: that price is another thing's ("we
      // will try again after 7 days and add a £5 admin charge" holds "try", a trial, eight words from it).
      const far = (unit: Unit, x: string) => unit.costNear !== undefined && unit.own.has(x) && (unit.costNear.get(x) ?? Infinity) > COST_NEAR_WORDS && !writesCost(unit);
      const costOfThing = (unit: Unit) => thing.length === 0 || (namesThing(unit) && !thing.some((x) => far(unit, x)));
      const asksPrice = terms.includes(PRICE_TERM);
      // The asker's number by a threshold counting the same thing ("mon fils a 5 ans" by "dès 4 ans"; counts.ts).
      // Not in a question for a price: there the number says which thing is priced ("a 2 hour walk" is no
      // "Group walk, 1 hour").
      const countOf = asksPrice ? new Map<string, string>() : new Map([...countsOf(withoutGreetings(question.slice(0, MAX_TEXT_CHARS)), language)].map(([n, w]) => [n, resolve(w)]));
      const counts = (unit: Unit, t: string) => unit.counted !== undefined && countOf.has(t) && unit.counted.has(countOf.get(t)!);
      return units.map((unit) => {
        let covered = 0;
        let own = 0;
        // A part of the day likewise by a sentence that states a clock time ("in the morning?" by "by 8am").
        const time = unit.own.has(NAMES_A_TIME) || unit.heading.has(NAMES_A_TIME);
        // A month likewise by a sentence that names any ("open in October?" by "from April to September").
        const month = unit.own.has(NAMES_A_MONTH) || unit.heading.has(NAMES_A_MONTH);
        // When the asker's case falls likewise by a sentence that states a period or a time ("cancel tomorrow?" by "less than 48 hours' notice").
        const period = unit.own.has(NAMES_A_PERIOD) || unit.heading.has(NAMES_A_PERIOD);
        // Whether a thing costs by a sentence that states a price, or that it is free, included or extra ("is fuel extra?" by "Fuel is included in the price").
        const cost = (unit.own.has(NAMES_A_COST) || unit.heading.has(NAMES_A_COST)) && costOfThing(unit);
        const price = asksPrice && (unit.own.has(PRICE_TERM) || unit.heading.has(PRICE_TERM));
        for (const t of terms) {
          // "free", "extra", "included" asked of a named thing: covered by that thing's price or freeness
          // only, even by a sentence that writes the word ("a free 2-hour trial session" under "BEFORE
          // YOUR FIRST DAY" is no free full day; issue 36, fourteenth round).
          if (thing.length > 0 && costTerms.has(t)) {
            if (cost) covered += weight(t);
            if (cost && unit.own.has(t)) own += weight(t);
            continue;
          }
          if (thing.includes(t) && far(unit, t)) continue;
          // A German word several compounds of the knowledge base end or begin with is covered by any of them.
          const inOwn = unit.own.has(t) || compounds.get(t)!.some((c) => unit.own.has(c));
          if (inOwn) own += weight(t);
          const inHeading = unit.heading.has(t) || compounds.get(t)!.some((c) => unit.heading.has(c));
          if (inOwn || inHeading || (DAY_TERMS.has(t) && onDay(unit, t)) || (time && MOMENT_TERMS.has(t)) || (month && MONTH_TERMS.has(t)) || (period && WHEN_TERMS.has(t)) || (cost && costTerms.has(t)) || (price && t === PAY_TERM) || counts(unit, t)) covered += weight(t);
        }
        return { sentence: unit.sentence, coverage: covered / sum, own: own / sum };
      }).sort(byCoverage);
    },
    questionWeights(question) {
      const terms = termsAsked(question);
      const sum = terms.reduce((s, t) => s + weight(t), 0);
      const unknown = terms.filter((t) => !frequency.has(t)).reduce((s, t) => s + weight(t), 0);
      return { terms: terms.length, unknown: sum === 0 ? 0 : unknown / sum };
    },
    termsOf: termsAsked,
    uncovered(question, sentence) {
      const unit = (unitsByPassage.get(sentence.passage.position) ?? []).find((u) => u.sentence.index === sentence.index);
      const terms = termsAsked(question);
      return terms.filter((t) => !unit?.own.has(t) && !unit?.heading.has(t)).map((term) => ({ term, weight: weight(term), known: frequency.has(term) }));
    },
    unknownQualifier(question, sentence) {
      const unit = (unitsByPassage.get(sentence.passage.position) ?? []).find((u) => u.sentence.index === sentence.index);
      if (!unit) return null;
      const own = askerTerms(question, language);
      const covers = (t: string) => unit.own.has(t) || unit.heading.has(t);
      const asked = words(withoutGreetings(question.slice(0, MAX_TEXT_CHARS))).map((w) => { const t = termOf(w, language); return t ? resolve(t) : null; });
      const askedSet = new Set(asked);
      // The sentence (and its heading) as a sequence of terms, stop words as null: what stands just before each word.
      const sequences = [unit.sentence.passage.heading ?? '', withoutListNumber(unit.sentence.text)]
        .map((text) => words(text.slice(0, MAX_TEXT_CHARS)).map((w) => { const t = termOf(w, language); return t ? standFor(t) : null; }));
      // The sentence names its own kind of the word ("iPhone screen" for "a laptop screen"), a word
      // the question does not use; "Screen replacement: £69" names none, and answers any screen.
      const qualifiedInSentence = (b: string) => sequences.some((seq) => seq.some((t, k) => t === b && k > 0 && seq[k - 1] !== null && !askedSet.has(seq[k - 1]!)));
      for (let i = 0; i + 1 < asked.length; i += 1) {
        const [a, b] = [asked[i], asked[i + 1]];
        if (a && b && a !== b && !frequency.has(a) && !own.has(a) && !covers(a) && covers(b) && qualifiedInSentence(b)) return a;
      }
      return null;
    },
  };
}
