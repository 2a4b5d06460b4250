// What an offline reply answers with: for each question of the message, the sentence of the
// knowledge base that covers it best when the answer rule accepts it, with the text that sentence
// needs to make sense (the sentence before one that starts "It …" or "This …", the sentence after
// a bare "Yes." or an introduction ending in a colon, the title over a list item or a table row).
import { ANSWER_RULE, certaintyOf, confidence, passes, type AnswerRule, type Certainty } from '../knowledge/answerability.ts';
import { askedTypes, statesAnswer, type AnswerType } from '../knowledge/answer-types.ts';
import type { Passage } from '../knowledge/passages.ts';
import type { PassageIndex, Sentence, SentenceMatch } from '../knowledge/retrieval.ts';
import { withoutListNumber } from '../knowledge/passage-layout.ts';
import { MAX_TEXT_CHARS } from '../knowledge/terms.ts';
import { questionParts } from './question-parts.ts';

/** At most this many passages are offered to a model. */
export const CANDIDATES = 5;

export interface PartAnswer {
  question: string;
  /** The best sentence found, answered or not: it says why a question was declined. */
  best: SentenceMatch | null;
  /** How far the best passage is ahead of the second, (best − second) / best, by BM25. */
  margin: number;
  /** coverage² × margin: what the answer rule judges. */
  confidence: number;
  /** The kind of answer the question asks for (answer-types.ts), null when any may do. */
  wanted: AnswerType | null;
  /** It asks for a kind of answer that no sentence of the best passage states: not answered, whatever its confidence. */
  typeMissing: boolean;
  answered: boolean;
  /** How sure an answered question is (answerability.ts); null when not answered. */
  certainty: Certainty | null;
  /** The best sentence of the next-best passage (of the kind asked, when one is): what the owner may use instead. */
  second: SentenceMatch | null;
  /** The lines quoted, verbatim from the knowledge base; empty when not answered. */
  quote: string[];
}

export interface Answer {
  parts: PartAnswer[];
  /** The passages quoted from, in order of the knowledge base. */
  passages: Passage[];
}

const POINTS_BACK = /^["'(]*(?:it|its|this|that|these|those|they|their|there|then|so|but|however|otherwise|also|such|he|she|his|her|both|each|either|neither|which|in that case|if so)\b/i;
/** A sentence this short ("Yes.", "No, sorry.") needs the one after it. */
const MIN_ANSWER_WORDS = 4;

/** A Q&A pair's answer this short is quoted whole when its question is what matched. */
const SHORT_ANSWER_SENTENCES = 3;
/** At most this many sentences that cover the question equally well are quoted. */
const MAX_TIED = 3;

/** A sentence with what it needs to make sense: the title over a row, the sentence before "It …", the one after "Yes." or a colon. */
function withContext(all: readonly Sentence[], sentence: Sentence): Sentence[] {
  const before = all[sentence.index - 1];
  const after = all[sentence.index + 1];
  const out: Sentence[] = [];
  if (!sentence.row && before && !before.aside && POINTS_BACK.test(sentence.text)) out.push(before);
  out.push(sentence);
  const short = sentence.text.split(/\s+/).length < MIN_ANSWER_WORDS;
  if (after && !after.aside && (short || sentence.text.endsWith(':'))) out.push(after);
  return out;
}

/** `also`: sentences of the same passage quoted with the best (the best of each other kind of answer asked). */
function quoteOf(index: PassageIndex, ranked: SentenceMatch[], also: SentenceMatch[] = []): string[] {
  const best = ranked[0]!;
  const passage = best.sentence.passage;
  const all = index.sentencesOf(passage);
  let chosen: Sentence[];
  if (best.sentence.index < 0) {
    // The question of a Q&A pair matched: its answer answers, whole when short, else its opening;
    // who asked and answered it, and when, are no part of the answer (post-metadata.ts).
    const answer = all.filter((s) => !s.aside);
    chosen = answer.length <= SHORT_ANSWER_SENTENCES ? answer : withContext(all, answer[0]!);
  } else {
    const tied = ranked.filter((m) => m.sentence.index >= 0 && m.coverage >= best.coverage - 1e-9).slice(0, MAX_TIED);
    chosen = tied.flatMap((m) => withContext(all, m.sentence));
  }
  for (const m of also) if (m.sentence.passage === passage && m.sentence.index >= 0) chosen.push(...withContext(all, m.sentence));
  const unique = [...new Map(chosen.map((s) => [s.index, s])).values()].sort((a, b) => a.index - b.index);
  const lines: string[] = [];
  // A list item or a table row is read under its title (the line before that ends in a colon, or the heading).
  const firstRow = unique.find((s) => s.row);
  if (firstRow) {
    const intro = all[firstRow.index - 1];
    if (intro && !intro.row && !intro.aside && intro.text.endsWith(':')) {
      if (!unique.includes(intro)) lines.push(intro.text);
    } else if (passage.heading) {
      lines.push(passage.heading);
    }
    // A Markdown table's row is read under the row naming its columns (passage-layout.ts, markTables).
    if (firstRow.header) lines.push(firstRow.header.text);
  }
  // Sentences next to each other are quoted as they stand in the knowledge base, line breaks and all.
  for (let i = 0; i < unique.length; i += 1) {
    let j = i;
    while (j + 1 < unique.length && unique[j + 1]!.index === unique[j]!.index + 1) j += 1;
    lines.push(passage.body.slice(unique[i]!.start, unique[j]!.end));
    i = j;
  }
  return lines;
}

/** Heading text beyond this is not read for an answer type: it is read once per sentence. */
const MAX_HEADING_CHARS = 200;

/** The sentences that state the kind of answer asked for, with what they would be quoted with and their heading, in the same order. */
function ofType(index: PassageIndex, ranked: SentenceMatch[], wanted: AnswerType | null): SentenceMatch[] {
  if (!wanted) return ranked;
  // A numbered clause's number ("6. Edited photos …") is where it stands, not a number it states.
  return ranked.filter((m) => statesAnswer(wanted, [(m.sentence.passage.heading ?? '').slice(0, MAX_HEADING_CHARS), ...quoteOf(index, [m]).map(withoutListNumber)].join('\n')));
}

/**
 * What the asker says of their case beside a one-question message ("… a placement test? I'm a
 * complete beginner.") can decide the answer, which the passage may give in a sentence of its own
 * ("Beginners with no German at all do not need to take the test"). That sentence is quoted too
 * when it covers a word of the case that neither the question nor the best sentence (nor the
 * heading) does, and a word of the question.
 */
function caseSentence(index: PassageIndex, message: string, question: string, best: SentenceMatch): SentenceMatch | null {
  const at = message.indexOf(question);
  const context = at < 0 ? '' : `${message.slice(0, at)} ${message.slice(at + question.length)}`;
  if (context.trim() === '' || best.sentence.index < 0) return null;
  const asked = index.termsOf(question);
  const caseTerms = index.uncovered(context, best.sentence).filter((t) => t.known && !asked.includes(t.term)).map((t) => t.term);
  if (caseTerms.length === 0) return null;
  const covers = (text: string, sentence: Sentence, terms: string[]) => {
    const missing = new Set(index.uncovered(text, sentence).map((t) => t.term));
    return terms.some((t) => !missing.has(t));
  };
  const found = index.sentencesOf(best.sentence.passage).find((s) => s.index !== best.sentence.index && covers(context, s, caseTerms) && covers(question, s, asked));
  return found ? { sentence: found, coverage: 0, own: 0 } : null;
}

/** How many passages by BM25 are looked at for a sentence that covers the question better (answerParts). */
const RESCUE_PASSAGES = 3;
/** How much more of the question such a sentence must cover than the first passage's best. */
const RESCUE_LEAD = 0.5;
/** What an unknown qualifier (retrieval.ts, unknownQualifier) leaves of a sentence's confidence: chosen on validation (docs/reply-evaluation.md). */
export const QUALIFIER_FACTOR = 0.5;
export function answerParts(index: PassageIndex, message: string, rule: AnswerRule = ANSWER_RULE): Answer {
  const asked = questionParts(message, index.language);
  const whole = message.slice(0, MAX_TEXT_CHARS);
  // A single question's passage is found from the whole message (what comes around a question says
  // what it is about); its sentence is judged by how much of the question itself it covers.
  const parts = (asked.length > 0 ? asked : [whole]).map((question): PartAnswer => {
    const found = index.search(asked.length === 1 ? whole : question, RESCUE_PASSAGES);
    let passages = found.slice(0, 2);
    let top = passages[0];
    let margin = top && top.score > 0 ? (top.score - (passages[1]?.score ?? 0)) / top.score : 0;
    let all = top ? index.rankSentences(question, top.passage) : [];
    // A passage just under the first by BM25 whose best sentence covers far more of the question
    // ("are your walkers police checked?": "All walkers are DBS checked" under "Keys and safety",
    // below "Walks") answers instead; its margin is its sentence's lead in coverage.
    const topCoverage = all[0]?.coverage ?? 0;
    let rescue: { match: (typeof found)[number]; ranked: SentenceMatch[]; coverage: number } | null = null;
    for (const other of found.slice(1)) {
      const ranked = index.rankSentences(question, other.passage);
      const coverage = ranked[0]?.coverage ?? 0;
      if (coverage - topCoverage >= RESCUE_LEAD && coverage > (rescue?.coverage ?? 0)) rescue = { match: other, ranked, coverage };
    }
    if (rescue && top) {
      margin = (rescue.coverage - topCoverage) / rescue.coverage;
      passages = [rescue.match, top];
      top = rescue.match;
      all = rescue.ranked;
    }
    // A question that asks for a price, a duration, a time … is answered by a sentence that states
    // one; one that asks for several ("how much is it and how long does it take?"), by a sentence of
    // each, judged on the one of the kind asked last.
    const kinds = askedTypes(question);
    const byKind = kinds.map((kind) => ({ kind, ranked: ofType(index, all, kind) }));
    const missing = byKind.find((k) => k.ranked.length === 0);
    const ranked = byKind.at(-1)?.ranked ?? all;
    const wanted = missing?.kind ?? kinds.at(-1) ?? null;
    const typeMissing = all.length > 0 && missing !== undefined;
    const best = (typeMissing ? null : ranked[0]) ?? all[0] ?? null;
    // "a laptop screen" against "iPhone screen replacement": a word the knowledge base never uses,
    // just before one the sentence covers, likely makes the question about something else
    // (retrieval.ts): its confidence is halved, which keeps it under the auto gate in most cases.
    const qualifier = best ? index.unknownQualifier(question, best.sentence) : null;
    const value = best ? confidence(best.coverage, margin) * (qualifier === null ? 1 : QUALIFIER_FACTOR) : 0;
    const accepted = best !== null && !typeMissing && passes(value, best.coverage, rule);
    const also = byKind.slice(0, -1).map((k) => k.ranked[0]!);
    const stated = accepted && asked.length === 1 ? caseSentence(index, whole, question, best) : null;
    const quote = accepted ? quoteOf(index, ranked, stated ? [...also, stated] : also) : [];
    const certainty = accepted ? certaintyOf(value, best.coverage) ?? 'low' : null;
    // Only a reply that is not sure offers the next-best passage; found only then, as it costs a ranking.
    const next = accepted && certainty !== 'high' ? passages[1] : undefined;
    const others = next ? index.rankSentences(question, next.passage) : [];
    const second = (wanted ? ofType(index, others, wanted)[0] : undefined) ?? others[0] ?? null;
    return { question, best, margin, confidence: value, wanted, typeMissing, answered: accepted, certainty, second, quote };
  });
  const quoted = new Map<number, Passage>();
  for (const part of parts) if (part.answered) quoted.set(part.best!.sentence.passage.position, part.best!.sentence.passage);
  return { parts, passages: [...quoted.values()].sort((a, b) => a.position - b.position) };
}

export const answered = (answer: Answer) => answer.parts.some((p) => p.answered);

/** The unanswered question that came closest (any, when all were answered and a model declined): what a decline reports. */
export function closestUnanswered(answer: Answer): PartAnswer | null {
  const unanswered = answer.parts.filter((p) => !p.answered && p.best);
  const open = unanswered.length > 0 ? unanswered : answer.parts.filter((p) => p.best);
  return open.reduce<PartAnswer | null>((best, p) => (!best || p.confidence > best.confidence ? p : best), null);
}

/** What an offline reply quotes (each line once) and which questions it names as unanswered. */
export function replyPieces(answer: Answer): { quotes: string[]; unanswered: number[] } {
  const seen = new Set<string>();
  const quotes: string[] = [];
  for (const part of answer.parts) {
    const lines = part.quote.filter((line) => !seen.has(line));
    lines.forEach((line) => seen.add(line));
    if (lines.length > 0) quotes.push(lines.join('\n'));
  }
  const unanswered = answered(answer) && answer.parts.length > 1 ? answer.parts.flatMap((p, i) => (p.answered ? [] : [i + 1])) : [];
  return { quotes, unanswered };
}

/** The passages a model is given: each question's passage, then the message's next best, at most CANDIDATES. */
export function modelPassages(index: PassageIndex, answer: Answer, message: string): Passage[] {
  const chosen = new Map<number, Passage>();
  for (const part of answer.parts) if (part.best) chosen.set(part.best.sentence.passage.position, part.best.sentence.passage);
  for (const match of index.search(message, CANDIDATES)) if (chosen.size < CANDIDATES) chosen.set(match.passage.position, match.passage);
  return [...chosen.values()].slice(0, CANDIDATES);
}
