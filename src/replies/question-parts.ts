// The questions a message asks. People write several in one message ("how much is a service and
// how long does it take? and do you take Bancontact?"), wrapped in greetings and context ("my son
// is 14 and hurt his ankle. Do you treat children?"). A question is a sentence that ends with a
// question mark or starts like one, cut again where "and" (or "also", "or") starts a new question.
// A question that points back ("can you repair it?", "how much?") takes the sentence before
// it along, which says what "it" is. Without any question, the whole message is the one question.
import { isAbbreviation } from '../knowledge/sentences.ts';
import { AMOUNT_WORD, CLOCK_WORD } from '../knowledge/synonyms.ts';
import { MAX_TEXT_CHARS, queryTerms, termOf, type Language } from '../knowledge/terms.ts';

/** A message is answered as at most this many questions; the rest join the last. */
const MAX_PARTS = 6;
/** A question that says "it" or "they" is about what the sentence before it names. */
const POINTERS = new Set(['it', 'its', 'they', 'them', 'their', 'this', 'that', 'these', 'those', 'one', 'ones']);
const JOINERS = new Set(['and', 'also', 'or', 'plus', 'but', 'so']);
const GREETINGS = new Set(['hi', 'hello', 'hey', 'hallo', 'dear', 'ok', 'okay', 'well', 'please', 'thanks', 'sorry', 'yes', 'no']);
/** Words that open a new question in the middle of a sentence ("…, and how long does it take?"). */
const ASKING = new Set(['how', 'what', 'whats', 'why', 'which']);
/** These ask only before a verb ("when do you open"); else they start a clause ("when I arrive"). */
const ASKING_BEFORE_VERB = new Set(['when', 'where', 'who', 'whom', 'whose', 'wheres', 'whos']);
const AUXILIARIES = new Set(['do', 'does', 'did', 'is', 'are', 'can', 'could', 'will', 'would', 'should', 'may', 'have', 'has']);
const SUBJECTS = new Set(['i', 'you', 'we', 'they', 'it', 'there', 'the', 'a', 'an', 'my', 'your', 'our', 'this', 'that', 'he', 'she', 'u', 'ya']);

/** Whether the word at i opens a question: "how …", or "do you …", "is there …" (an auxiliary and its subject). */
function startsQuestion(words: Array<{ word: string }>, i: number): boolean {
  const word = words[i]!.word;
  const next = words[i + 1]?.word ?? '';
  return ASKING.has(word) || (ASKING_BEFORE_VERB.has(word) && (AUXILIARIES.has(next) || next === 'am' || next === 'was')) || (AUXILIARIES.has(word) && SUBJECTS.has(next));
}

interface Clause { text: string; question: boolean }

/** Lower-cased words with their positions, letters and apostrophes only (apostrophes dropped). */
function wordsAt(text: string): Array<{ word: string; start: number }> {
  const out: Array<{ word: string; start: number }> = [];
  const pattern = /[\p{L}'’]+/gu;
  for (const m of text.matchAll(pattern)) out.push({ word: m[0].toLowerCase().replace(/['’]/g, ''), start: m.index });
  return out;
}

/** Sentences: at line breaks, and after . ! or ? followed by a space (not after "St." or "U.S."). */
function sentencesOf(text: string): Array<{ text: string; asks: boolean }> {
  const out: Array<{ text: string; asks: boolean }> = [];
  for (const line of text.split('\n')) {
    let start = 0;
    for (let i = 0; i < line.length; i += 1) {
      const c = line[i];
      if ((c !== '.' && c !== '!' && c !== '?') || (i + 1 < line.length && line[i + 1] !== ' ')) continue;
      if (c === '.' && isAbbreviation(line, i)) continue;
      const piece = line.slice(start, i + 1).trim();
      if (piece) out.push({ text: piece, asks: c === '?' });
      start = i + 1;
    }
    const rest = line.slice(start).trim();
    if (rest) out.push({ text: rest, asks: false });
  }
  return out;
}

/** A sentence cut where a joiner ("and", "also") or a comma is followed by a word that starts a question. */
function clausesOf(sentence: { text: string; asks: boolean }): Clause[] {
  const words = wordsAt(sentence.text);
  const cuts: number[] = [];
  for (let i = 1; i < words.length; i += 1) {
    const before = sentence.text.slice(words[i - 1]!.start + words[i - 1]!.word.length, words[i]!.start);
    const joined = JOINERS.has(words[i - 1]!.word) && i >= 2;
    if (startsQuestion(words, i) && (joined || before.includes(';') || before.includes(':'))) cuts.push(joined ? words[i - 1]!.start : words[i]!.start);
  }
  const pieces: string[] = [];
  let start = 0;
  for (const cut of cuts) {
    pieces.push(sentence.text.slice(start, cut));
    start = cut;
  }
  pieces.push(sentence.text.slice(start));
  const texts = pieces.map((p) => p.trim().replace(/^[,;:]\s*/, '')).filter((p) => p.length > 0);
  return texts.map((text, i) => {
    const words = wordsAt(text);
    const first = words.findIndex((w) => !JOINERS.has(w.word) && !GREETINGS.has(w.word));
    // "Two questions:" announces questions and asks none; "I'm a teacher, are you hiring?" asks in its last clause.
    return { text, question: !text.endsWith(':') && ((first >= 0 && startsQuestion(words, first)) || (sentence.asks && i === texts.length - 1)) };
  });
}

/** The terms that only name the kind of answer wanted ("how much", "combien", "what hours"): "and how much?" says what is asked about nowhere. */
const KIND_TERMS = new Set([termOf(AMOUNT_WORD), termOf(CLOCK_WORD)]);

/** The questions of a message, each with the context it needs; one when the message asks nothing recognisable as a question. */
export function questionParts(message: string, language: Language = 'en'): string[] {
  const text = message.slice(0, MAX_TEXT_CHARS).replace(/\r\n?/g, '\n');
  const parts: string[] = [];
  let previous: string | null = null;
  for (const clause of sentencesOf(text).flatMap(clausesOf)) {
    // A question of kind words only ("do you clean carpets? and how much?") asks about what the one before it named.
    const terms = [...queryTerms(clause.text, language)].filter((t) => !KIND_TERMS.has(t)).length;
    if (clause.question && terms === 0 && parts.length > 0 && previous === parts.at(-1)) {
      // "… or can I just come by?": says nothing new, it belongs to the question before.
      parts[parts.length - 1] = `${parts.at(-1)} ${clause.text}`;
    } else if (clause.question && (terms > 0 || previous)) {
      const pointsBack = terms === 0 || wordsAt(clause.text).some((w) => POINTERS.has(w.word));
      // A question about what the question before it asked about is part of that question.
      if (pointsBack && previous !== null && previous === parts.at(-1)) parts[parts.length - 1] = `${previous} ${clause.text}`;
      else parts.push(pointsBack && previous ? `${previous} ${clause.text}` : clause.text);
    }
    if (terms > 0) previous = clause.question ? parts.at(-1)! : clause.text;
  }
  if (parts.length === 0) return text.trim() ? [text.trim()] : [];
  if (parts.length > MAX_PARTS) return [...parts.slice(0, MAX_PARTS - 1), parts.slice(MAX_PARTS - 1).join(' ')];
  return parts;
}
