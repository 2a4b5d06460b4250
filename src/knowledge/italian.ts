// Italian, compared in its own terms (languages.ts) since issue 36's tenth round: the stop words of
// npm `stopword`, what Italian askers wrap a question in, a light stemmer and the Italian words for
// what the English synonym terms name. Accents are folded first ("lunedì", "è" as "lunedi", "e"), as
// people type without them; an elision is two words ("dell'abbonamento": "dell" is a stop word).
import { ita } from './stop-lists.ts';
import { endingStemmer, fold } from './fold.ts';

/** Greetings, thanks and framing ("buongiorno", "grazie mille", "volevo sapere", "di preciso"), and verbs of asking. */
const FILLER = [
  'ciao', 'salve', 'buongiorno', 'buonasera', 'buonsera', 'grazie', 'mille', 'saluti', 'cordiali', 'gentile', 'gentili', 'favore', 'cortesia', 'perfavore',
  'vorrei', 'volevo', 'vorremmo', 'volevamo', 'sapere', 'chiedere', 'domanda', 'domande', 'info', 'informazione', 'informazioni', 'preciso', 'esattamente',
  'posso', 'possiamo', 'potete', 'puoi', 'puo', 'potrei', 'potreste', 'devo', 'dobbiamo', 'devono', 'fate', 'fare', 'fa', 'qual', 'quali', 'cosa',
  'ok', 'si', 'no', 'allora', 'quindi', 'pure', 'ancora', 'gia', 'qualcosa', 'qualche', 'tipo', 'c', 'e', 'ce', 'x', 'cmq', 'ke', 'nn', 'xche',
  // "quando", "possibile", like English "when", "possible" (eleventh round; Spanish "cuando" and "posible" were already dropped).
  'quando', 'possibile',
];
export const ITALIAN_STOP: ReadonlySet<string> = new Set([...ita, ...FILLER].map(fold));

/**
 * Endings cut from a folded Italian word, longest first, while the stem keeps at least three
 * letters: nouns' and adjectives' endings ("prezzi", "prezzo" → "prezz"), verbs' ("prenotare",
 * "prenotazione", "prenotarla" → "prenot"; "costano", "costa" → "cost").
 */
const ENDINGS = [
  'azioni', 'azione', 'amenti', 'amento', 'imenti', 'imento', 'mente', 'arla', 'arlo', 'arle', 'arli', 'erla', 'erlo', 'irla', 'irlo', 'aggio', 'aggi',
  'iamo', 'ando', 'endo', 'ato', 'ata', 'ati', 'ate', 'ito', 'ita', 'iti', 'ite', 'uto', 'uta', 'uti', 'ute', 'are', 'ere', 'ire', 'ano', 'ono', 'ete', 'i', 'e', 'a', 'o',
];
export const italianStem = endingStemmer(ENDINGS);

/** Italian words for what the English synonym terms name (synonyms.ts): a price, payment, hours, opening, booking, a child, free. */
export const ITALIAN_SYNONYMS: ReadonlyMap<string, string> = new Map([
  ...['prezzo', 'prezzi', 'costo', 'costi', 'costa', 'costano', 'tariffa', 'tariffe', 'caro', 'cara', 'listino'].map((w) => [italianStem(w), 'price'] as const),
  ...['pagare', 'pagamento', 'pagamenti', 'paga', 'pago'].map((w) => [italianStem(w), 'pay'] as const),
  ...['orario', 'orari', 'ora', 'ore'].map((w) => [italianStem(w), 'hour'] as const),
  ...['aperto', 'aperti', 'aperta', 'aprite', 'apre', 'aprono', 'apertura', 'chiuso', 'chiusi', 'chiudete', 'chiude', 'chiudono', 'chiusura'].map((w) => [italianStem(w), 'open'] as const),
  ...['prenotare', 'prenotazione', 'prenotazioni', 'appuntamento'].map((w) => [italianStem(w), 'book'] as const),
  ...['bambino', 'bambini', 'bambina', 'figlio', 'figlia', 'figli'].map((w) => [italianStem(w), 'child'] as const),
  ...['gratis', 'gratuito', 'gratuita', 'gratuiti'].map((w) => [italianStem(w), 'free'] as const),
  ...['indirizzo'].map((w) => [italianStem(w), 'address'] as const),
  // Not "signora", "signore": "Gentile signora" greets.
  ...['donna', 'donne'].map((w) => [italianStem(w), 'woman'] as const),
  ...['uomo', 'uomini'].map((w) => [italianStem(w), 'man'] as const),
  ...['chilo', 'chili', 'kilo', 'kg'].map((w) => [italianStem(w), 'kilo'] as const),
  // "posso pagare con il bancomat?" against "carta con il POS", as English "contactless" is "card".
  ...['carta', 'carte', 'bancomat', 'pos', 'contactless'].map((w) => [italianStem(w), 'card'] as const),
]);
