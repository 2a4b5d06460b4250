// The questions a message asks. People write several in one message ("how much is a service and
// how long does it take? and do you take Bancontact?"), wrapped in greetings and context ("my son
// is 14 and hurt his ankle. Do you treat children?"). A question is a sentence that ends with a
// question mark or starts like one, cut again where "and" (or "also", "or") starts a new question.
// A question that points back ("can you repair it?", "how much?") takes the sentence before
// it along, which says what "it" is. Without any question, the whole message is the one question.
// French, German, Italian and Spanish messages are cut alike (issue 36, eleventh round): "et",
// "und", "e", "y" before a word that opens a question of that language ("… e fate anche
// riparazioni?", "… und habt ihr eine Sauna?"); not "ou", "oder", "o": "tengo que pedir cita o
// puedo ir directamente?" asks one question of two alternatives.
import { fold } from '../knowledge/fold.ts';
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

/**
 * How a question opens in the other languages, words folded (no accents, lower case). `asking`:
 * question words; `verbs`: the forms that open a question put to the business ("fate", "avete",
 * "tenéis", "hay", "gibt", "habt"), a closed list: an Italian "-ate" is as often a participle
 * ("lavate e stirate") as a verb; `subjects`: in German and French, a verb opens a question when
 * one of these follows it ("habt ihr", "kann man"; "pouvez-vous"); `before`: words that ask only
 * before one of `verbs` ("quando aprite", not "quando arrivo"); `typed`: words that ask only when
 * one of these nouns follows ("che ora", "qué precio"), being "that" otherwise; `accented`: the
 * words that ask only as written with their accent (French "où", not "ou", "or"; Spanish "qué", "cuándo").
 */
interface Openers {
  joiners: ReadonlySet<string>; greetings: ReadonlySet<string>; asking: ReadonlySet<string>; verbs: ReadonlySet<string>;
  subjects: ReadonlySet<string>; notVerbs: ReadonlySet<string>; before: ReadonlySet<string>; typed: ReadonlyMap<string, ReadonlySet<string>>; accented: ReadonlySet<string>;
  /** Endings of the forms that address the business ("tenéis", "reparáis"), anywhere; `leading`: only as a clause's first word ("riparate i condizionatori …"). */
  endings?: RegExp; leading?: RegExp;
}
const set = (...words: string[]) => new Set(words);
const KINDS_IT = set('ora', 'ore', 'orari', 'orario', 'giorno', 'giorni', 'prezzo', 'prezzi', 'tipo', 'cosa');
const KINDS_ES = set('hora', 'horas', 'horario', 'horarios', 'dia', 'dias', 'precio', 'precios', 'tipo');
const OPENERS: Record<Exclude<Language, 'en'>, Openers> = {
  fr: {
    joiners: set('et', 'aussi', 'puis', 'mais', 'sinon', 'ensuite', 'egalement'),
    greetings: set('bonjour', 'bonsoir', 'salut', 'coucou', 'merci', 'svp', 'oui', 'non', 'alors', 'bjr'),
    asking: set('combien', 'comment', 'pourquoi', 'quel', 'quelle', 'quels', 'quelles', 'quand', 'quoi', 'est'),
    verbs: set('vous', 'avez', 'faites', 'acceptez', 'prenez', 'proposez', 'etes', 'pouvez', 'faut'),
    subjects: set('vous', 'on', 'il', 't', 'je', 'elle', 'ils'),
    notVerbs: set(), before: set(),
    typed: new Map([['y', set('a')], ['il', set('y', 'faut')], ['on', set('peut')], ['je', set('peux', 'dois', 'peut')]]), accented: set('où'),
  },
  de: {
    joiners: set('und', 'ausserdem', 'außerdem', 'sowie', 'aber', 'auch'),
    greetings: set('hallo', 'hi', 'moin', 'servus', 'danke', 'ja', 'nein', 'also', 'ok'),
    asking: set('wie', 'was', 'wo', 'wann', 'warum', 'wieso', 'welche', 'welcher', 'welches', 'welchen', 'wieviel', 'wieviele', 'woher', 'wohin', 'wer', 'ab', 'bis'),
    verbs: set('ist', 'sind', 'gibt', 'gibts', 'habt', 'hat', 'kann', 'konnt', 'muss', 'darf', 'kostet', 'kosten', 'bietet', 'nehmt', 'macht', 'seid', 'braucht'),
    subjects: set('ihr', 'sie', 'man', 'ich', 'es', 'du', 'wir'),
    // A German word before a pronoun opens a question when it is the verb; these are not.
    notVerbs: set('und', 'oder', 'aber', 'auch', 'wenn', 'ob', 'dass', 'weil', 'als', 'da', 'damit', 'fur', 'mit', 'bei', 'von', 'zu', 'so', 'denn', 'dann', 'nicht', 'noch', 'wo', 'wie', 'was', 'wann', 'ich', 'es', 'sie', 'ihr', 'man', 'du', 'wir', 'mal', 'schon', 'nur', 'hallo', 'danke'),
    before: set(), typed: new Map(), accented: set(),
  },
  it: {
    joiners: set('e', 'ed', 'anche', 'poi', 'inoltre', 'ma', 'pero'),
    greetings: set('ciao', 'salve', 'buongiorno', 'buonasera', 'grazie', 'si', 'no', 'ok', 'allora', 'senta', 'scusate'),
    asking: set('quanto', 'quanta', 'quanti', 'quante', 'come', 'dove', 'perche', 'quale', 'quali', 'cosa'),
    verbs: set('fate', 'avete', 'siete', 'potete', 'accettate', 'aprite', 'chiudete', 'vendete', 'offrite', 'prendete', 'consegnate', 'lavorate',
      'fai', 'hai', 'sei', 'puoi', 'posso', 'possiamo', 'ce', 'c', 'ci', 'si'),
    subjects: set(), notVerbs: set(),
    before: set('quando'), typed: new Map([['che', KINDS_IT], ['a', set('che')]]), accented: set(),
    // "riparate", "vendete", "offrite" open a question; inside a sentence such a word is as often a participle ("lavate e stirate").
    leading: /^\p{L}{2,}(?:ate|ete|ite)$/u,
  },
  es: {
    joiners: set('y', 'e', 'tambien', 'ademas', 'pero', 'luego'),
    greetings: set('hola', 'buenas', 'buenos', 'gracias', 'si', 'no', 'vale', 'ok', 'oye', 'saludos'),
    asking: set('cuanto', 'cuanta', 'cuantos', 'cuantas', 'como', 'donde', 'cual', 'cuales'),
    verbs: set('teneis', 'tienen', 'tienes', 'haceis', 'hacen', 'haces', 'hay', 'puedo', 'podemos', 'podeis', 'pueden', 'puede', 'se',
      'aceptan', 'abris', 'abren', 'cierran', 'dais', 'dan', 'ofrecen', 'venden', 'incluye', 'hace'),
    subjects: set(), notVerbs: set(),
    before: set('cuando'), typed: new Map([['que', KINDS_ES], ['a', set('que')], ['por', set('que')]]), accented: set('qué', 'cuándo'),
    // The forms of "vosotros" ("tenéis", "hacéis", "reparáis", "estáis") address the business; no participle ends so.
    endings: /^\p{L}{2,}(?:ais|eis)$/u,
  },
};

/** Whether the word at i opens a question: "how …", or "do you …", "is there …" (an auxiliary and its subject). */
function startsQuestion(words: Array<{ word: string; raw?: string; hyphen?: boolean }>, i: number, language: Language = 'en', leading = false): boolean {
  const word = words[i]!.word;
  const next = words[i + 1]?.word ?? '';
  if (language !== 'en') {
    const o = OPENERS[language];
    const raw = words[i]!.raw ?? word;
    if (o.accented.has(raw) || o.asking.has(word) || o.verbs.has(word) || o.endings?.test(word) || (leading && o.leading?.test(word))) return true;
    if (o.before.has(word) && o.verbs.has(next)) return true;
    if (o.typed.get(word)?.has(next)) return true;
    // "habt ihr", "kann man", "gibt es"; "pouvez-vous", "y a-t-il".
    if (o.subjects.has(next) && (language === 'de' ? !o.notVerbs.has(word) : words[i]!.hyphen === true)) return true;
    return false;
  }
  return ASKING.has(word) || (ASKING_BEFORE_VERB.has(word) && (AUXILIARIES.has(next) || next === 'am' || next === 'was')) || (AUXILIARIES.has(word) && SUBJECTS.has(next));
}

const joinerOf = (language: Language, word: string) => (language === 'en' ? JOINERS : OPENERS[language].joiners).has(word);
const greetingOf = (language: Language, word: string) => (language === 'en' ? GREETINGS : OPENERS[language].greetings).has(word);

interface Clause { text: string; question: boolean }

interface Word { word: string; start: number; raw: string; hyphen: boolean }

/**
 * Lower-cased words with their positions, letters and apostrophes only (apostrophes dropped); in
 * the other languages folded ("tenéis" is "teneis"), `raw` as written, `hyphen` when a hyphen
 * follows ("pouvez-vous"). An elided French or Italian word is its own ("c'è": "c", "è"; "qu'il").
 */
function wordsAt(text: string, language: Language = 'en'): Word[] {
  const out: Word[] = [];
  const pattern = language === 'fr' || language === 'it' ? /\p{L}+/gu : /[\p{L}'’]+/gu;
  for (const m of text.matchAll(pattern)) {
    const raw = m[0].toLowerCase().replace(/['’]/g, '');
    out.push({ word: language === 'en' ? raw : fold(raw), start: m.index, raw, hyphen: text[m.index + m[0].length] === '-' });
  }
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
function clausesOf(sentence: { text: string; asks: boolean }, language: Language): Clause[] {
  const words = wordsAt(sentence.text, language);
  const cuts: number[] = [];
  for (let i = 1; i < words.length; i += 1) {
    const before = sentence.text.slice(words[i - 1]!.start + words[i - 1]!.raw.length, words[i]!.start);
    const joined = joinerOf(language, words[i - 1]!.word) && i >= 2;
    if (startsQuestion(words, i, language) && (joined || before.includes(';') || before.includes(':'))) cuts.push(joined ? words[i - 1]!.start : words[i]!.start);
  }
  const pieces: string[] = [];
  let start = 0;
  for (const cut of cuts) {
    pieces.push(sentence.text.slice(start, cut));
    start = cut;
  }
  pieces.push(sentence.text.slice(start));
  const texts = pieces.map((p) => p.trim().replace(/^[,;:¿¡]\s*/, '')).filter((p) => p.length > 0);
  const clauses = texts.map((text, i) => {
    const words = wordsAt(text, language);
    const first = words.findIndex((w) => !joinerOf(language, w.word) && !greetingOf(language, w.word));
    // In the other languages a question word further in asks too, in a sentence that asks or was
    // cut ("c'est combien le stage et vous faites … ?", "il faut amener quoi ?"): the word order of
    // their questions does not put it first.
    const asksInside = language !== 'en' && (sentence.asks || texts.length > 1) && words.some((w) => OPENERS[language].asking.has(w.word) || OPENERS[language].accented.has(w.raw));
    // "Two questions:" announces questions and asks none; "I'm a teacher, are you hiring?" asks in its last clause.
    return { text, question: !text.endsWith(':') && ((first >= 0 && startsQuestion(words, first, language, true)) || asksInside || (sentence.asks && i === texts.length - 1)) };
  });
  // In the other languages a sentence whose first clause asks nothing recognisable stays whole ("tengo
  // un perro mayor y podéis venir a casa?"): without "it" and "they" to point back (POINTERS), cut off,
  // what that clause says would be lost.
  if (language !== 'en' && clauses.length > 1 && !clauses[0]!.question) {
    const [a, b, ...rest] = clauses;
    return [{ text: `${a!.text} ${b!.text}`, question: b!.question }, ...rest];
  }
  return clauses;
}

/** The terms that only name the kind of answer wanted ("how much", "combien", "what hours"): "and how much?" says what is asked about nowhere. */
const KIND_TERMS = new Set([termOf(AMOUNT_WORD), termOf(CLOCK_WORD)]);

/** The questions of a message, each with the context it needs; one when the message asks nothing recognisable as a question. */
export function questionParts(message: string, language: Language = 'en'): string[] {
  const text = message.slice(0, MAX_TEXT_CHARS).replace(/\r\n?/g, '\n');
  const parts: string[] = [];
  let previous: string | null = null;
  for (const clause of sentencesOf(text).flatMap((sentence) => clausesOf(sentence, language))) {
    // A question of kind words only ("do you clean carpets? and how much?") asks about what the one before it named.
    const terms = [...queryTerms(clause.text, language)].filter((t) => !KIND_TERMS.has(t)).length;
    if (clause.question && terms === 0 && parts.length > 0 && previous === parts.at(-1)) {
      // "… or can I just come by?": says nothing new, it belongs to the question before.
      parts[parts.length - 1] = `${parts.at(-1)} ${clause.text}`;
    } else if (clause.question && (terms > 0 || previous)) {
      const pointsBack = terms === 0 || (language === 'en' && wordsAt(clause.text).some((w) => POINTERS.has(w.word)));
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
