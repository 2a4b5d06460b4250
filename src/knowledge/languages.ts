// The language a knowledge base is written in, and how its words are reduced to the terms
// retrieval compares. English uses the Porter stemmer (terms.ts); French, the one other language of
// the evaluation data, a light stemmer written here: stop words of npm `stopword`, accents folded
// ("etes" is "êtes", "oeuvre" is "œuvre", as people type without them), elisions dropped ("l'heure",
// the apostrophe separates words and "l" is one letter) and the inflectional endings and a few
// derivational ones cut ("réparez", "réparations" → "repar"); German, with its own light stemmer
// (german.ts); Italian and Spanish (italian.ts, spanish.ts; issue 36, tenth round), each with its
// own light stemmer. A knowledge base in another language is compared as English, as before: its
// words still match themselves, only unstemmed.
import { eng, fra } from './stop-lists.ts';
import { fold } from './fold.ts';
import { GERMAN_STOP } from './german.ts';
import { ITALIAN_STOP } from './italian.ts';
import { SPANISH_STOP } from './spanish.ts';

export type Language = 'en' | 'fr' | 'de' | 'it' | 'es';
export { fold };

const FRENCH_STOP = new Set(fra.map(fold));
/**
 * What French askers wrap a question in, with the function words npm `stopword` lacks: greetings,
 * thanks, "s'il vous plaît" and its short forms, "est-ce que", "je voudrais savoir" and the like.
 */
const FRENCH_FILLER = new Set([
  'bonjour', 'bonsoir', 'salut', 'slt', 'coucou', 'merci', 'mercii', 'svp', 'stp', 'plait', 'cordialement', 'madame', 'monsieur', 'mme', 'mr',
  'voudrais', 'voudrions', 'souhaiterais', 'souhaite', 'aimerais', 'savoir', 'possible', 'question', 'questions', 'renseignement', 'info', 'infos',
  'peut', 'peux', 'pouvez', 'pourriez', 'puis', 'faut', 'il', 'ca', 'cest', 'oui', 'non', 'bien', 'alors', 'aussi', 'donc', 'tres', 'deja', 'chez',
  'quelle', 'quels', 'quelles', 'quoi', 'comment', 'quand', 'pourquoi', 'est', 'ce', 'ete', 'etes', 'etre', 'fait', 'faites', 'faire', 'vos', 'votre',
  // SMS French: "bjr", "vs" (vous), "qqch", "qqn", "jsp", "pk" (pourquoi), "dc" (donc), "tt" (tout).
  'bjr', 'bsr', 'vs', 'qqch', 'qqn', 'pk', 'pq', 'dc', 'tt', 'mdr',
  // Function words the list lacks (issue 36, fifth round): "si", "jusqu'à", "quelque chose", "je dois", "vous allez".
  'si', 'jusqu', 'jusque', 'quelque', 'quelques', 'chose', 'dois', 'doit', 'devez', 'devons', 'allez', 'aller', 'va', 'vais',
]);

/** Stop words as compared: English ones are matched as written (terms.ts), French ones folded. */
const STOP: Record<Language, (folded: string) => boolean> = {
  en: () => false,
  fr: (w) => FRENCH_STOP.has(w) || FRENCH_FILLER.has(w),
  de: (w) => GERMAN_STOP.has(w),
  it: (w) => ITALIAN_STOP.has(w),
  es: (w) => SPANISH_STOP.has(w),
};
export const isFrenchStop = (folded: string) => STOP.fr(folded);

/** Endings cut from a French word, longest first; a stem keeps at least MIN_FRENCH_STEM letters. */
const FRENCH_ENDINGS = ['issements', 'issement', 'ations', 'ation', 'ements', 'ement', 'ments', 'ment', 'ions', 'eurs', 'euse', 'euses', 'eur', 'ons', 'ees', 'ez', 'es', 'ee', 'er', 'e'];
const MIN_FRENCH_STEM = 3;

/** A light French stem of a folded word: its plural, then one ending ("paiements" → "pai", "payer" → "pay"). */
export function frenchStem(folded: string): string {
  let w = folded;
  if (w.length > 4 && (w.endsWith('s') || w.endsWith('x'))) w = w.slice(0, -1);
  for (const ending of FRENCH_ENDINGS) {
    if (w.endsWith(ending) && w.length - ending.length >= MIN_FRENCH_STEM) return w.slice(0, -ending.length);
  }
  return w;
}

/** French words for what the English synonym terms name: a price, an hour (terms.ts, synonyms.ts). */
export const FRENCH_SYNONYMS: ReadonlyMap<string, string> = new Map([
  ...['prix', 'tarif', 'tarifs', 'cout', 'coute', 'coutent', 'combien', 'cher', 'chere', 'payer', 'paiement'].map((w) => [frenchStem(w), w.startsWith('pa') ? 'pay' : 'price'] as const),
  ...['horaire', 'horaires', 'heure', 'heures'].map((w) => [frenchStem(w), 'hour'] as const),
  ...['ouvert', 'ouverte', 'ouverts', 'ouvrez', 'ouvre', 'ferme', 'fermez', 'fermeture', 'ouverture'].map((w) => [frenchStem(w), 'open'] as const),
  ...['rdv', 'rendez'].map((w) => [frenchStem(w), 'book'] as const),
  // "votre taux horaire" asks the hourly price (issue 36, seventh round).
  ...['taux'].map((w) => [frenchStem(w), 'price'] as const),
  // "votre adresse ?" asks what a street address answers, as "where are you?" does (eleventh round).
  ...['adresse'].map((w) => [frenchStem(w), 'address'] as const),
  // A child, as in the other languages ("mon fils" against "Coupe enfant"); a woman, a man; a kilo (eleventh round).
  ...['enfant', 'enfants', 'fils', 'fille', 'filles'].map((w) => [frenchStem(w), 'child'] as const),
  ...['femme', 'femmes', 'dame', 'dames'].map((w) => [frenchStem(w), 'woman'] as const),
  ...['homme', 'hommes'].map((w) => [frenchStem(w), 'man'] as const),
  ...['kilo', 'kilos', 'kg'].map((w) => [frenchStem(w), 'kilo'] as const),
  ...['cb', 'carte', 'cartes', 'contactless'].map((w) => [frenchStem(w), 'card'] as const),
]);

/** Stop words of both languages, for telling them apart. */
const ENGLISH_STOP = new Set(eng);
/** Words read to tell a knowledge base's language. */
const SAMPLE_WORDS = 3000;

/** The languages other than English a knowledge base is told apart in, with their stop words as counted (folded). */
const OTHER_STOP: ReadonlyArray<readonly [Language, ReadonlySet<string>]> = [['fr', FRENCH_STOP], ['de', GERMAN_STOP], ['it', ITALIAN_STOP], ['es', SPANISH_STOP]];

/**
 * French, German, Italian or Spanish when a text has more of that language's stop words than of
 * any other of the four, more than English ones by half again, and at least 10: a knowledge base in
 * English with a French or Italian name or address stays English. On a tie the earlier of the four wins.
 */
export function languageOf(text: string): Language {
  let en = 0;
  const counts = OTHER_STOP.map(() => 0);
  let n = 0;
  for (const m of text.matchAll(/\p{L}+/gu)) {
    const w = m[0].toLowerCase();
    if (ENGLISH_STOP.has(w)) en += 1;
    const folded = fold(w);
    OTHER_STOP.forEach(([, stop], i) => { if (stop.has(folded)) counts[i]! += 1; });
    if ((n += 1) >= SAMPLE_WORDS) break;
  }
  let best = 0;
  counts.forEach((c, i) => { if (c > counts[best]!) best = i; });
  const count = counts[best]!;
  return count >= 10 && count > en * 1.5 ? OTHER_STOP[best]![0] : 'en';
}
