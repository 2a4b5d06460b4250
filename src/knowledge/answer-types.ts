// The kind of answer a question asks for, and whether a text states one. "How much is a lesson?"
// asks for an amount of money, "how long is a lesson?" for a duration, "what time do you open?"
// for a time or a day, "where are you?" for a place, "how many people are in a class?" for a
// number: a sentence that covers the question's words but states none of these ("one lesson is
// part of the weekly course") does not answer it. A yes/no question ("do you repair e-bikes?") and
// a question of any other kind ("what", "why", "how do I") are not checked. English, and German's
// "wann", "wo", "was kostet", "wie teuer"; Italian and Spanish "quanto costa", "cuánto cuesta",
// "quando", "cuándo", "a che ora", "a qué hora", "dove", "dónde" (issue 36, tenth round); French
// "combien", "quelle heure", "quand", "où" and German "wie lange", "wie viele" (eleventh round), with
// the French and German words for days, months, units of time and places that state an answer.
// Words are compared without accents ("cuánto" as "cuanto", "lunedì" as "lunedi"). Everything here is one pass over the words of the text: no pattern
// backtracks, and a text is cut to MAX_TEXT_CHARS first.
import { HOW_MUCH_TIME } from './synonyms.ts';
import { MAX_TEXT_CHARS } from './terms.ts';
import { fold } from './fold.ts';

export type AnswerType = 'price' | 'duration' | 'time' | 'place' | 'number' | 'frequency' | 'distance';

/** Words as written (case kept): letters and digits; anything else separates them. */
const WORD = /[\p{L}\p{N}]+/gu;
const wordsOf = (text: string) => text.slice(0, MAX_TEXT_CHARS).match(WORD) ?? [];

const AUXILIARIES = new Set(['do', 'does', 'did', 'is', 'are', 'was', 'were', 'can', 'could', 'will', 'would', 'should', 'shall', 'may', 'might', 'must', 'have', 'has', 's', 'am']);
/** After "how much", these ask a price ("how much is it", "how much for two"); a noun asks a quantity ("how much storage"). */
const PRICE_AFTER_HOW_MUCH = new Set([...AUXILIARIES, 'for', 'to', 'it', 'extra', 'money', 'more', 'less']);
const PRICE_WORDS = new Set(['price', 'prices', 'pricing', 'cost', 'costs', 'fee', 'fees', 'charge', 'charges', 'rate', 'rates', 'tariff', 'tariffs',
  'prezzo', 'prezzi', 'costo', 'costa', 'costano', 'tariffa', 'tariffe', 'precio', 'precios', 'cuesta', 'cuestan', 'tarifa', 'tarifas']);
/** Words that may stand between "what" and the kind of answer it asks ("what are your usual opening hours"). */
const BETWEEN_WHAT_AND_KIND = new Set(['the', 'a', 'an', 'your', 'you', 'it', 'its', 'this', 'that', 'opening', 'closing', 'usual', 'exact', 'earliest', 'latest', 'next', 'first', 'last', 'total', 'current']);
const TIME_WORDS = new Set(['time', 'times', 'day', 'days', 'date', 'dates', 'hour', 'hours', 'weekday', 'weekdays', 'month', 'year']);
/** Italian and Spanish units of time (folded). */
const ROMANCE_UNITS = ['minuto', 'minuti', 'ora', 'ore', 'giorno', 'giorni', 'settimana', 'settimane', 'mese', 'mesi', 'anno', 'anni', 'notte', 'notti',
  'minutos', 'hora', 'horas', 'dia', 'dias', 'semana', 'semanas', 'mes', 'meses', 'ano', 'anos', 'noche', 'noches'];
/** French and German units of time (folded; issue 36, eleventh round). */
const FRENCH_GERMAN_UNITS = ['minute', 'minutes', 'heure', 'heures', 'jour', 'jours', 'journee', 'journees', 'semaine', 'semaines', 'mois', 'ans', 'annee', 'annees', 'nuit', 'nuits',
  'minuten', 'stunde', 'stunden', 'std', 'tag', 'tage', 'tagen', 'woche', 'wochen', 'monat', 'monate', 'monaten', 'jahr', 'jahre', 'jahren', 'nacht', 'nachte'];
const UNIT_OF_TIME = new Set([...ROMANCE_UNITS, ...FRENCH_GERMAN_UNITS, 'second', 'seconds', 'sec', 'secs', 'minute', 'minutes', 'min', 'mins', 'hour', 'hours', 'hr', 'hrs', 'h', 'day', 'days', 'night', 'nights', 'week', 'weeks', 'wk', 'month', 'months', 'year', 'years', 'yr', 'yrs', 'weekend', 'weekends', 'fortnight', 'decade', 'decades', 'century', 'centuries']);
/** Words between a number and its unit ("5 working days", "two full weeks"). */
const UNIT_MODIFIERS = new Set(['working', 'business', 'calendar', 'full', 'more', 'whole', 'consecutive', 'extra', 'to', 'or', 'and']);
const NUMBER_WORDS = new Set([
  'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen',
  'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety', 'hundred',
  'thousand', 'million', 'dozen', 'half', 'single', 'couple', 'few', 'several', 'both', 'once', 'twice', 'unlimited', 'none',
  // Italian and Spanish; not "due" nor "sei", English and Italian words as well as numbers.
  'tre', 'quattro', 'cinque', 'sette', 'otto', 'nove', 'dieci', 'dodici', 'quindici', 'venti', 'trenta',
  'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve', 'diez', 'doce', 'quince', 'veinte', 'treinta',
]);
/**
 * French and German numbers as words (eleventh round): they state how long ("dauert zwei Stunden",
 * "dure cinq jours") but not when: "wann habt ihr geöffnet?" is not answered by "in den Sommerferien
 * drei Wochen geschlossen" (a duration in digits or English words still answers "when", as before).
 */
const FRENCH_GERMAN_NUMBERS = new Set(['deux', 'trois', 'quatre', 'cinq', 'sept', 'huit', 'neuf', 'dix', 'douze', 'quinze', 'vingt', 'trente',
  'zwei', 'drei', 'vier', 'funf', 'sechs', 'sieben', 'acht', 'neun', 'zehn', 'zwolf', 'zwanzig', 'dreissig', 'halbe', 'halben']);
/** "dal primo novembre", "le premier mai", "am ersten Juli": the first of a month is a date (eleventh round). */
const FIRST = new Set(['primo', 'primero', 'premier', '1er', 'erste', 'ersten', 'first']);
/** "a week", "an hour": an article before a unit is one. */
const ONE = new Set(['a', 'an', 'per', 'each', 'every', 'una', 'uno', 'un', 'ogni', 'cada', 'une', 'par', 'chaque', 'ein', 'eine', 'einen', 'einer', 'pro', 'jede', 'jeden']);
const GERMAN_DAYS = ['montag', 'dienstag', 'mittwoch', 'donnerstag', 'freitag', 'samstag', 'sonntag', 'wochenende', 'werktags', 'feiertag', 'feiertags', 'feiertagen'];
const ROMANCE_DAYS = ['lunedi', 'martedi', 'mercoledi', 'giovedi', 'venerdi', 'sabato', 'sabati', 'domenica', 'domeniche', 'festivi', 'feriali', 'oggi', 'domani',
  'lunes', 'martes', 'miercoles', 'jueves', 'viernes', 'sabado', 'sabados', 'domingo', 'domingos', 'festivos', 'finde', 'hoy'];
const FRENCH_DAYS = ['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche', 'lundis', 'mardis', 'mercredis', 'jeudis', 'vendredis', 'samedis', 'dimanches',
  'aujourd', 'demain', 'feries', 'montags', 'dienstags', 'mittwochs', 'donnerstags', 'freitags', 'samstags', 'sonntags', 'wochenendes', 'morgen', 'heute'];
const DAYS = new Set([...GERMAN_DAYS, ...GERMAN_DAYS.map((d) => `${d}s`), ...ROMANCE_DAYS, ...FRENCH_DAYS, 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'mondays', 'tuesdays', 'wednesdays', 'thursdays', 'fridays', 'saturdays', 'sundays',
  'mon', 'tue', 'tues', 'wed', 'thu', 'thur', 'thurs', 'fri', 'weekday', 'weekdays', 'weekend', 'weekends', 'daily', 'today', 'tomorrow', 'tonight', 'yesterday']);
const MONTHS = new Set(['january', 'february', 'march', 'april', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
  'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
  'gennaio', 'febbraio', 'marzo', 'aprile', 'maggio', 'giugno', 'luglio', 'agosto', 'settembre', 'ottobre', 'novembre', 'dicembre',
  'enero', 'febrero', 'abril', 'mayo', 'junio', 'julio', 'septiembre', 'octubre', 'noviembre', 'diciembre',
  'janvier', 'fevrier', 'mars', 'avril', 'mai', 'juin', 'juillet', 'aout', 'septembre', 'octobre', 'decembre',
  'januar', 'februar', 'marz', 'juni', 'juli', 'oktober', 'dezember']);
const MOMENTS = new Set(['morning', 'mornings', 'afternoon', 'afternoons', 'evening', 'evenings', 'noon', 'midday', 'midnight', 'night', 'nights', 'lunchtime',
  'spring', 'summer', 'autumn', 'fall', 'winter', 'season', 'seasons', 'holiday', 'holidays', 'christmas', 'easter', 'anytime', 'always', 'immediately', 'instantly',
  'before', 'after', 'until', 'till', 'within', 'since', 'during', 'ago', 'end', 'beginning', 'early', 'late', 'soon', 'weekly', 'monthly', 'yearly', 'annually',
  'mattina', 'mattino', 'pomeriggio', 'sera', 'notte', 'mezzogiorno', 'estate', 'inverno', 'natale', 'pasqua', 'prima', 'dopo', 'entro', 'fino',
  'manana', 'tarde', 'noche', 'mediodia', 'verano', 'invierno', 'navidad', 'antes', 'despues', 'hasta',
  'matin', 'matinee', 'midi', 'soir', 'soiree', 'nuit', 'avant', 'apres', 'jusqu', 'pendant', 'vacances', 'ete', 'hiver', 'toujours', 'veille',
  'morgens', 'vormittags', 'nachmittags', 'abends', 'mittags', 'nachts', 'vor', 'nach', 'bis', 'wahrend', 'innerhalb', 'sommer', 'ferien', 'immer', 'vorher']);
const PLACE_WORDS = new Set(['street', 'st', 'road', 'rd', 'avenue', 'ave', 'lane', 'square', 'boulevard', 'place', 'straat', 'strasse', 'straße', 'rue', 'platz', 'plein', 'laan', 'weg',
  'address', 'located', 'location', 'floor', 'building', 'entrance', 'station', 'parking', 'car', 'park', 'corner', 'opposite', 'behind', 'next', 'near', 'nearby', 'beside',
  'across', 'inside', 'outside', 'upstairs', 'downstairs', 'online',
  'via', 'viale', 'piazza', 'corso', 'vicino', 'dietro', 'davanti', 'accanto', 'indirizzo', 'parcheggio',
  'calle', 'avenida', 'plaza', 'paseo', 'cerca', 'junto', 'detras', 'frente', 'direccion', 'aparcamiento',
  'adresse', 'chez', 'pres', 'face', 'derriere', 'gare', 'plage', 'etage', 'quartier', 'centre', 'boulevard', 'chemin', 'anschrift', 'neben', 'gegenuber', 'bahnhof', 'stock', 'eingang', 'map', 'directions', 'walk', 'km', 'miles', 'metres', 'meters', 'settings', 'menu', 'tab', 'page', 'button', 'link', 'folder', 'sidebar', 'toolbar', 'panel', 'http', 'https', 'www']);
/** A German street name is one word ending in its kind ("Schwarzwaldstraße", "Lindenweg", "Marktplatz"). */
const GERMAN_STREET_ENDINGS = ['straße', 'strasse', 'str', 'weg', 'platz', 'gasse', 'allee', 'ufer', 'damm'];
const germanStreet = (w: string) => w.length > 5 && GERMAN_STREET_ENDINGS.some((e) => w.endsWith(e));
/**
 * A British postcode ("B18 5AB", "NE1 4XF"): an outward code of one or two letters, a digit and a
 * digit or letter, then an inward code of a digit and two letters, which never are C, I, K, M, O or V.
 * An address written without a street's kind ("Unit 4, Canal Works, Hockley, Birmingham B18 5AB") is
 * still a place (issue 36, eighteenth round).
 */
const OUTWARD = /^[a-z]{1,2}\d[a-z\d]?$/;
const INWARD = /^\d[abd-hjlnp-uw-z]{2}$/;
const ukPostcode = (words: string[], i: number) => OUTWARD.test(words[i]!) && INWARD.test(words[i + 1] ?? '');
/** "in Ghent", "at Gent-Sint-Pieters": a place preposition before a capitalised word names a place. */
const PLACE_PREPOSITIONS = new Set(['au', 'dans', 'im', 'am', 'en', 'in', 'at', 'from', 'near', 'to', 'on', 'under', 'via', 'into', 'between', 'along', 'across', 'through', 'towards', 'toward', 'off', 'by', 'around', 'inside', 'outside', 'within']);
const ARTICLES = new Set(['the', 'a', 'an', 'our', 'your']);
const FREQUENCY_WORDS = new Set(['every', 'each', 'once', 'twice', 'daily', 'weekly', 'monthly', 'yearly', 'annually', 'hourly', 'always', 'regularly', 'times', 'per', 'often']);
const DISTANCE_UNITS = new Set(['km', 'kilometre', 'kilometres', 'kilometer', 'kilometers', 'mile', 'miles', 'm', 'metre', 'metres', 'meter', 'meters', 'walk', 'drive', 'ride', 'minutes', 'away']);
const CURRENCY_WORDS = new Set(['euro', 'euros', 'eur', 'pound', 'pounds', 'gbp', 'dollar', 'dollars', 'usd', 'chf', 'cents', 'p']);
const PRICE_STATEMENTS = new Set(['free', 'complimentary', 'included', 'includes', 'inclusive', 'nothing', 'poa',
  'gratis', 'gratuito', 'gratuita', 'gratuiti', 'gratuite', 'incluso', 'inclusa', 'compreso', 'compresa', 'compresi', 'comprende',
  'gratuitos', 'gratuitas', 'incluido', 'incluida', 'incluidos', 'incluye', 'incluyen']);
/**
 * "Vans are quoted on request", "price on application": the answer to "how much" is that there is
 * no set price. Only with a price word or "quote(d)": "roofs are cleaned on request" states none.
 */
const onRequest = (words: string[]) => words.some((w, i) => w === 'on' && (words[i + 1] === 'request' || words[i + 1] === 'application'))
  && words.some((w) => w === 'quote' || w === 'quoted' || PRICE_WORDS.has(w));

const capitalised = (w: string | undefined) => w !== undefined && /^\p{Lu}/u.test(w);
const isNumber = (w: string) => /^\d/.test(w) || NUMBER_WORDS.has(w.toLowerCase());
const isAnyNumber = (w: string) => isNumber(w) || FRENCH_GERMAN_NUMBERS.has(w);
const isNumberInDigitsOrEnglish = isNumber;

/** After "quanto", "cuánto": a verb of paying ("quanto costa", "cuánto cobráis", "quanto mi costa"). */
const ROMANCE_PRICE_VERBS = new Set(['costa', 'costano', 'costi', 'costerebbe', 'viene', 'vengono', 'cuesta', 'cuestan', 'costaria', 'vale', 'valen', 'cobrais', 'cobran', 'cobras', 'cobra']);
const ROMANCE_PRONOUNS = new Set(['mi', 'ci', 'si', 'me', 'nos', 'se', 'te', 'ti']);
/** After "quanto", "cuánto" (or "quanto ci", "cuánto se"): a verb of taking time ("quanto ci mettete", "cuánto tardáis"). */
const ROMANCE_TAKES_TIME = new Set(['mettete', 'mette', 'mettono', 'metti', 'metto', 'vuole', 'vogliono', 'impiegate', 'impiega', 'dura', 'durano',
  'tardais', 'tarda', 'tardan', 'tardas', 'tardo', 'lleva', 'llevan', 'duran']);
/** Words after which "quando", "cuándo" opens a question rather than a clause ("ciao, quando aprite?" but "posso venire quando chiudete?"). */
const ROMANCE_OPENERS = new Set(['e', 'ma', 'ciao', 'salve', 'buongiorno', 'buonasera', 'y', 'pero', 'hola', 'buenas', 'dias', 'ok', 'allora', 'entonces', 'pues']);
const ROMANCE_TIME_NOUNS = new Set(['ora', 'ore', 'orari', 'orario', 'giorno', 'giorni', 'hora', 'horas', 'horario', 'horarios', 'dia', 'dias']);

/** Italian and Spanish asking phrases (folded words): "quanto costa", "cuánto tiempo", "cuántos días", "quando", "a qué hora", "dove". */
function romanceKind(words: string[], i: number): AnswerType | null {
  const word = words[i]!;
  const next = words[i + 1] ?? '';
  if (word === 'quanto' || word === 'quanta' || word === 'cuanto' || word === 'cuanta') {
    if (next === 'tempo' || next === 'tiempo') return 'duration';
    // "quanto ci mettete", "quanto ci vuole", "cuánto tardáis", "cuánto se tarda", "quanto dura": how long it takes.
    if (ROMANCE_TAKES_TIME.has(next) || ((next === 'ci' || next === 'se' || next === 'le' || next === 'os') && ROMANCE_TAKES_TIME.has(words[i + 2] ?? ''))) return 'duration';
    if (ROMANCE_PRICE_VERBS.has(next) || (ROMANCE_PRONOUNS.has(next) && ROMANCE_PRICE_VERBS.has(words[i + 2] ?? ''))) return 'price';
  }
  if (word === 'quanti' || word === 'quante' || word === 'cuantos' || word === 'cuantas') return ROMANCE_UNITS.includes(next) ? 'duration' : 'number';
  if ((word === 'quando' || word === 'cuando') && (i === 0 || ROMANCE_OPENERS.has(words[i - 1]!))) return 'time';
  if ((word === 'che' || word === 'que' || word === 'quale' || word === 'quali' || word === 'cual' || word === 'cuales') && ROMANCE_TIME_NOUNS.has(next)) return 'time';
  if ((word === 'che' || word === 'que' || word === 'quale' || word === 'qual' || word === 'cual') && (next === 'prezzo' || next === 'prezzi' || next === 'precio' || next === 'tariffa' || next === 'tarifa')) return 'price';
  if (word === 'dove' || word === 'donde') return 'place';
  return null;
}

const FRENCH_TIME_NOUNS = new Set(['heure', 'heures', 'horaire', 'horaires', 'jour', 'jours', 'date', 'dates']);
const FRENCH_PRICE_NOUNS = new Set(['prix', 'tarif', 'tarifs', 'cout']);
const FRENCH_ARTICLES = new Set(['l', 'la', 'le', 'les', 'un', 'une']);
/** Words after which "quand" opens a question rather than a clause ("bonjour, quand ouvrez-vous ?", not "je paie quand j'arrive ?"). */
const FRENCH_OPENERS = new Set(['et', 'mais', 'bonjour', 'bonsoir', 'salut', 'alors', 'c', 'est', 'ok', 'vous', 'on', 'ouvrez', 'ouvert', 'ouverts']);
/** "où" as askedTypes reads it: no word of any language folds to it. */
const FRENCH_WHERE = 'où';
const GERMAN_OPEN = new Set(['offen', 'geoffnet', 'auf', 'aufhaben']);
const GERMAN_NUMBER_AFTER_WIE = new Set(['viele', 'alt', 'gross', 'schwer']);

/**
 * French and German asking phrases (folded words; issue 36, eleventh round): "combien" (a price;
 * "combien de temps" a duration, "combien de personnes" a number, "combien la séance" a price), "quel
 * prix", "quelle heure", "quels horaires", "quand", "quel âge"; "wie lange", "wie viele", "wie alt",
 * "wie weit", "welche Uhrzeit". "Où" is read from the text as written (askedTypes): folded it is "ou", "or".
 */
function frenchGermanKind(words: string[], i: number): AnswerType | null {
  const word = words[i]!;
  const next = words[i + 1] ?? '';
  if (word === FRENCH_WHERE) return 'place';
  if (word === 'combien') {
    if (next === 'de' || next === 'd') {
      const what = words[i + 2] ?? '';
      if (what === 'temps') return 'duration';
      if (UNIT_OF_TIME.has(what)) return 'duration';
      return FRENCH_ARTICLES.has(what) ? 'price' : 'number';
    }
    if (next === 'temps') return 'duration';
    return 'price';
  }
  if ((word === 'quel' || word === 'quelle' || word === 'quels' || word === 'quelles') && FRENCH_PRICE_NOUNS.has(next)) return 'price';
  if ((word === 'quel' || word === 'quelle' || word === 'quels' || word === 'quelles') && FRENCH_TIME_NOUNS.has(next)) return 'time';
  if ((word === 'quel' || word === 'quelle') && next === 'age') return 'number';
  if (word === 'quand' && (i === 0 || FRENCH_OPENERS.has(words[i - 1]!))) return 'time';
  // "wie lange habt ihr offen?" asks until when: a time.
  if (word === 'wie' && (next === 'lange' || next === 'lang')) return words.slice(i + 2).some((w) => GERMAN_OPEN.has(w)) ? 'time' : 'duration';
  if (word === 'wie' && GERMAN_NUMBER_AFTER_WIE.has(next)) return 'number';
  if (word === 'wie' && next === 'weit') return 'distance';
  if ((word === 'welche' || word === 'welcher' || word === 'um') && (next === 'uhrzeit' || next === 'uhrzeiten' || next === 'zeit' || next === 'zeiten' || next === 'tage')) return 'time';
  return null;
}

/** The kind of answer the words from i on ask for, when an asking phrase starts there. */
function kindAt(words: string[], i: number, lastCost: number): AnswerType | null {
  const word = words[i]!;
  const next = words[i + 1] ?? '';
  if (word === 'how') {
    if (next === 'much') return HOW_MUCH_TIME.has(words[i + 2] ?? '') ? 'duration' : words[i + 2] === undefined || PRICE_AFTER_HOW_MUCH.has(words[i + 2]!) ? 'price' : 'number';
    if (next === 'expensive' || next === 'cheap') return 'price';
    if (next === 'long') return words[i + 2] === 'ago' ? 'time' : 'duration';
    if (next === 'many') return UNIT_OF_TIME.has(words[i + 2] ?? '') ? 'duration' : 'number';
    if (next === 'often') return 'frequency';
    if (next === 'far') return 'distance';
    if (next === 'early' || next === 'late') return 'time';
    // "how soon can you come?" wants how long until: "within a week", "the same day", not "before we start".
    if (next === 'soon') return 'duration';
    if (next === 'old') return 'number';
  }
  if (word === 'when' && AUXILIARIES.has(next)) return 'time';
  // German: "wann habt ihr offen", "wo seid ihr", "was kostet …", "wie teuer ist …", "wie viel kostet …".
  if (word === 'wann') return 'time';
  if (word === 'wo') return 'place';
  if ((word === 'was' || word === 'viel') && (next === 'kostet' || next === 'kosten')) return 'price';
  if (word === 'wie' && next === 'teuer') return 'price';
  const french = frenchGermanKind(words, i);
  if (french) return french;
  const romance = romanceKind(words, i);
  if (romance) return romance;
  if (word === 'until' && next === 'when') return 'time';
  if (word === 'where' && AUXILIARIES.has(next)) return 'place';
  if (word === 'what' || word === 'which' || word === 'whats') {
    // "what time", "which days", "what are your opening hours", "what is your address"
    for (let j = i + 1; j < words.length; j += 1) {
      const w = words[j]!;
      if (TIME_WORDS.has(w)) return 'time';
      if (PRICE_WORDS.has(w)) return 'price';
      if (w === 'address') return 'place';
      if (w === 'age') return 'number';
      if (!AUXILIARIES.has(w) && !BETWEEN_WHAT_AND_KIND.has(w)) break;
    }
    // "what does a full service cost", "what would two nights cost"
    if (lastCost > i) return 'price';
  }
  return null;
}

/**
 * Every kind of answer a question asks for, in the order of its asking phrases, each once (none when
 * any answer may do: yes/no and other questions): "how much is a service and how long does it take?"
 * asks for an amount of money and a duration. A question comes after what it needs said first ("I
 * have my own mat. How much is a class?"), so a kind asked again moves to the end, and the last is
 * the one a reply is judged on.
 */
export function askedTypes(question: string): AnswerType[] {
  const original = wordsOf(question);
  // French "où" asks a place; folded it would be "ou", "or": it is kept apart.
  const words = original.map((w) => (w.toLowerCase() === 'où' ? FRENCH_WHERE : fold(w)));
  const lastCost = Math.max(words.lastIndexOf('cost'), words.lastIndexOf('costs'));
  const kinds: AnswerType[] = [];
  for (let i = 0; i < words.length; i += 1) {
    const kind = kindAt(words, i, lastCost);
    if (kind) {
      const seen = kinds.indexOf(kind);
      if (seen >= 0) kinds.splice(seen, 1);
      kinds.push(kind);
    }
  }
  return kinds;
}

/** A number followed, within two words, by a unit of time ("45 minutes", "5 working days", "an hour", "60-minute"). */
/** Whether the number at `i` is followed by a unit of time ("8 weeks", "5 working days", "2 to 3 hours"). */
function measuresTime(words: string[], i: number): boolean {
  for (let j = i + 1; j <= i + 3 && j < words.length; j += 1) {
    if (UNIT_OF_TIME.has(words[j]!)) return true;
    if (!UNIT_MODIFIERS.has(words[j]!) && !isNumber(words[j]!)) return false;
  }
  return false;
}

function statesDuration(words: string[], numberWords = true): boolean {
  const isNumber = numberWords ? isAnyNumber : isNumberInDigitsOrEnglish;
  for (let i = 0; i < words.length; i += 1) {
    const w = words[i]!;
    if (/^\d+(?:min|mins|h|hr|hrs|d|wk|wks|yr|yrs)$/i.test(w) || w === 'overnight' || w === 'fortnight') return true;
    // "the same day", "next day": a duration of none or one.
    if ((w === 'same' || w === 'next') && (words[i + 1] === 'day' || words[i + 1] === 'week')) return true;
    // French "un an", "1 an": "an" is no unit of its own, being English "an" ("£12 an hour").
    if ((w === 'un' || w === '1') && words[i + 1] === 'an') return true;
    if ((isNumber(w) || ONE.has(w)) && measuresTime(words, i)) return true;
  }
  return false;
}

function states(type: AnswerType, original: string[], text: string): boolean {
  const words = original.map(fold);
  switch (type) {
    case 'price':
      return /[£€$¥]/.test(text) || words.some((w, i) => (isNumber(w) && (CURRENCY_WORDS.has(words[i + 1] ?? '') || /^\d/.test(w) && text.includes('%'))) || PRICE_STATEMENTS.has(w))
        || (words.some((w) => /^\d/.test(w)) && words.some((w) => PRICE_WORDS.has(w))) || onRequest(words);
    case 'duration':
      return statesDuration(words);
    case 'time':
      return statesDuration(words, false) || words.some((w, i) => DAYS.has(w) || MOMENTS.has(w) || (MONTHS.has(w) && (isNumber(words[i + 1] ?? '') || isNumber(words[i - 1] ?? '') || FIRST.has(words[i - 1] ?? '') || (words[i - 1] === 'de' && isNumber(words[i - 2] ?? ''))))
        || (isNumber(w) && (words[i + 1] === 'am' || words[i + 1] === 'pm' || words[i + 1] === 'uhr'))
        || /^\d{1,2}(?:st|nd|rd|th|am|pm|h\d*)$/.test(w) || (/^\d{1,2}$/.test(w) && /^\d{2}$/.test(words[i + 1] ?? '')) || /^\d{3,4}s?$/.test(w));
    case 'place':
      return words.some((w, i) => PLACE_WORDS.has(w) || germanStreet(w) || (PLACE_PREPOSITIONS.has(w) && capitalised(original[ARTICLES.has(words[i + 1] ?? '') ? i + 2 : i + 1])) || /^\d{4,5}$/.test(w) || ukPostcode(words, i));
    case 'number':
      // A count: "how many photos do we get?" is not answered by "delivered within 8 weeks".
      return words.some((w, i) => isNumber(w) && !measuresTime(words, i));
    case 'frequency':
      return words.some((w) => FREQUENCY_WORDS.has(w)) || statesDuration(words);
    case 'distance':
      return words.some((w, i) => (isNumber(w) || ONE.has(w)) && DISTANCE_UNITS.has(words[i + 1] ?? '')) || statesDuration(words)
        || words.some((w) => w === 'next' || w === 'opposite' || w === 'corner' || w === 'nearby' || w === 'beside');
  }
}

/** Whether a text (a sentence with its heading) states an answer of this kind. */
export function statesAnswer(type: AnswerType, text: string): boolean {
  const cut = text.slice(0, MAX_TEXT_CHARS);
  return states(type, wordsOf(cut), cut);
}

/** How a reason names what was asked for. */
export const ANSWER_TYPE_NAMES: Record<AnswerType, string> = {
  price: 'an amount of money', duration: 'a duration', time: 'a time, day or date', place: 'a place', number: 'a number', frequency: 'how often', distance: 'a distance',
};
