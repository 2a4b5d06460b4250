// German, the third language a knowledge base is compared in (languages.ts): stop words of npm
// `stopword` less the content words that list holds ("offen", "Uhr", "Tag", "lange", "zurück"),
// what German askers wrap a question in, a light stemmer and the German words for what the English
// synonym terms name. Umlauts are folded and "ae", "oe", "ue", "ß" read as "a", "o", "u", "ss", as
// people type without them ("Gebuehr", "geoffnet", "Strasse").
import { deu } from './stop-lists.ts';

/** A German word as compared before stemming: lower case, umlauts and their spellings folded. */
export function foldGerman(word: string): string {
  return word.toLowerCase().normalize('NFD').replace(/\p{M}+/gu, '').replaceAll('ß', 'ss').replaceAll('ae', 'a').replaceAll('oe', 'o').replaceAll('ue', 'u');
}

/** Words of npm `stopword`'s German list that say what is asked about: opening, times, length, numbers. */
const CONTENT_WORDS = new Set([
  'offen', 'uhr', 'tag', 'tage', 'tagen', 'zeit', 'jahr', 'jahre', 'jahren', 'morgen', 'heute', 'lang', 'lange', 'kurz', 'weit', 'zuruck',
  'neue', 'neuen', 'gross', 'grosse', 'grossen', 'grosser', 'grosses', 'klein', 'kleine', 'kleinen', 'kleiner', 'kleines', 'hoch',
  'gut', 'gute', 'guter', 'gutes', 'mensch', 'menschen', 'ordnung', 'spater', 'fruher', 'suche', 'startseite', 'sache', 'teil',
  'zwei', 'drei', 'vier', 'funf', 'sechs', 'sieben', 'acht', 'neun', 'zehn', 'elf', 'zwolf', 'ohne', 'nicht', 'kein', 'keine',
]);
/** Greetings, thanks and framing ("Hallo", "vielen Dank", "ich wollte fragen", "mal", "eigentlich"). */
const FILLER = [
  'hallo', 'hi', 'hey', 'moin', 'servus', 'tag', 'guten', 'liebe', 'lieber', 'danke', 'dank', 'vielen', 'bitte', 'gruss', 'grusse', 'lg', 'mfg', 'vg',
  'frage', 'fragen', 'wollte', 'wollen', 'wurde', 'gerne', 'gern', 'mal', 'eigentlich', 'genau', 'bzw', 'eben', 'halt', 'ok', 'okay', 'ja', 'nein',
  'euch', 'ihr', 'sie', 'man', 'gibt', 'gibts', 'habt', 'seid', 'konnt', 'konnen', 'kann', 'muss', 'mussen', 'wie', 'was', 'wann', 'wo', 'warum', 'welche',
];
export const GERMAN_STOP: ReadonlySet<string> = new Set([...deu.map(foldGerman).filter((w) => !CONTENT_WORDS.has(w)), ...FILLER.map(foldGerman)].filter((w) => w !== 'tag'));
/**
 * Stop words only as written without an umlaut: folded, a word with one reads as them ("ändern",
 * to change, as "andern", others; issue 36, thirteenth round). A word typed with an umlaut is a stop
 * word only when some stop word is written with one and folds as it does ("für", "über", "können").
 */
const STOP_WITH_UMLAUT: ReadonlySet<string> = new Set([...deu, ...FILLER].filter((w) => /[äöüÄÖÜ]/.test(w)).map(foldGerman));
export const isGermanStop = (word: string, folded: string) => GERMAN_STOP.has(folded) && (!/[äöüÄÖÜ]/.test(word) || STOP_WITH_UMLAUT.has(folded));

/**
 * A light stem after CISTEM (Weissweiler and Fraser, 2017): without a "ge" prefix on a long word
 * ("geöffnet" → "offnet"), then endings cut while the word keeps more than three letters: "em",
 * "er", "nd" from a word of more than five, else "t", "e", "s" or "n" ("kostet", "kosten" → "kost";
 * "gekündigt", "kündigen" → "kundig"). "sch", "ei", "ie" count as one letter, as in CISTEM.
 */
export function germanStem(folded: string): string {
  let w = folded.length >= 6 && folded.startsWith('ge') ? folded.slice(2) : folded;
  w = w.replaceAll('sch', '$').replaceAll('ei', '%').replaceAll('ie', '&');
  while (w.length > 3) {
    if (w.length > 5 && (w.endsWith('em') || w.endsWith('er') || w.endsWith('nd'))) w = w.slice(0, -2);
    else if (w.endsWith('t') || w.endsWith('e') || w.endsWith('s') || w.endsWith('n')) w = w.slice(0, -1);
    else break;
  }
  return w.replaceAll('$', 'sch').replaceAll('%', 'ei').replaceAll('&', 'ie');
}

/** German words for what the English synonym terms name (synonyms.ts): a price, payment, opening, booking, a child, an address, bringing. */
export const GERMAN_SYNONYMS: ReadonlyMap<string, string> = new Map([
  ...['preis', 'preise', 'kosten', 'kostet', 'teuer', 'gebuhr', 'gebuhren', 'gunstig', 'billig', 'tarif', 'honorar'].map((w) => [germanStem(foldGerman(w)), 'price'] as const),
  ...['zahlen', 'bezahlen', 'zahlung', 'bezahlung'].map((w) => [germanStem(foldGerman(w)), 'pay'] as const),
  ...['offnen', 'geoffnet', 'offnungszeiten', 'offen', 'geschlossen', 'schliessen'].map((w) => [germanStem(foldGerman(w)), 'open'] as const),
  ...['termin', 'termine', 'buchen', 'buchung', 'reservieren', 'reservierung'].map((w) => [germanStem(foldGerman(w)), 'book'] as const),
  ...['kind', 'kinder', 'sohn', 'tochter'].map((w) => [germanStem(foldGerman(w)), 'child'] as const),
  ...['kostenlos', 'gratis', 'umsonst'].map((w) => [germanStem(foldGerman(w)), 'free'] as const),
  ...['uhrzeit', 'uhrzeiten', 'uhr'].map((w) => [germanStem(foldGerman(w)), 'hour'] as const),
  ...['adresse', 'anschrift'].map((w) => [germanStem(foldGerman(w)), 'address'] as const),
  ...['kilo', 'kg'].map((w) => [germanStem(foldGerman(w)), 'kilo'] as const),
  ...['karte', 'ec', 'girocard', 'kreditkarte', 'kartenzahlung', 'kontaktlos'].map((w) => [germanStem(foldGerman(w)), 'card'] as const),
  // "was soll ich mitnehmen?" is answered by "Bringen Sie … mit" under "Was Sie mitbringen".
  ...['mitnehmen', 'mitbringen', 'bringen', 'bringt'].map((w) => [germanStem(foldGerman(w)), 'bring'] as const),
]);
