// When a question's case falls, and what in a knowledge-base text answers it: days of the week,
// parts of the day, months, "tomorrow" and "a week before", and deadlines ("48 hours' notice"), in the
// five languages of knowledge bases. A question naming one is answered by a sentence naming any day,
// clock time, month or period: terms.ts (textTerms) adds the NAMES_A_… markers to a text's terms and
// retrieval.ts weighs them.
import { stemmer } from 'stemmer';
import { frenchStem } from './languages.ts';
import { foldGerman, germanStem } from './german.ts';
import { italianStem } from './italian.ts';
import { spanishStem } from './spanish.ts';
import { englishTerm } from './synonyms.ts';

/** The days of the week, by stem: a question naming one is about the days a business keeps. */
export const DAY_TERMS = new Set([
  ...['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => stemmer(day)),
  ...['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche'].map((day) => frenchStem(day)),
  ...['lunedi', 'martedi', 'mercoledi', 'giovedi', 'venerdi', 'sabato', 'domenica'].map((day) => italianStem(day)),
  // German (issue 36, fourteenth round): "habt ihr am Samstag auf?", "montags".
  ...['montag', 'dienstag', 'mittwoch', 'donnerstag', 'freitag', 'samstag', 'sonntag', 'montags', 'dienstags', 'mittwochs', 'donnerstags', 'freitags', 'samstags', 'sonntags'].map((day) => germanStem(foldGerman(day))),
  ...['lunes', 'martes', 'miercoles', 'jueves', 'viernes', 'sabado', 'domingo'].map((day) => spanishStem(day)),
]);
/** Not a word: what a knowledge-base text that names a day of the week also says (see retrieval.ts). */
export const NAMES_A_DAY = '·day';

/**
 * The parts of a day, by stem: a question naming one ("can I drop him off in the morning?", "if I
 * cancel on the morning") is about the times a business keeps, and a sentence stating a clock time
 * ("by 8am", "from 7:30 to 18:00") answers it, as a sentence naming any day answers a question about one.
 */
export const MOMENT_TERMS = new Set([
  ...['morning', 'afternoon', 'evening', 'lunchtime', 'midday', 'noon'].map((w) => stemmer(w)),
  ...['matin', 'matinee', 'soir', 'soiree', 'midi'].map((w) => frenchStem(w)),
  ...['mattina', 'mattino', 'pomeriggio', 'sera', 'serata', 'mezzogiorno', 'notte'].map((w) => italianStem(w)),
  ...['manana', 'tarde', 'noche', 'mediodia', 'madrugada'].map((w) => spanishStem(w)),
]);
/** Not a word: what a knowledge-base text that states a clock time also says (see retrieval.ts). */
export const NAMES_A_TIME = '·time';

/**
 * The months, by term: a question naming one ("are you open in October?", "ouverts en octobre ?")
 * is about the dates a business keeps, and a sentence naming any month ("open from 1 April to 30
 * September") answers it, as with days. Not "may" and "march", which are more often a verb.
 */
export const MONTH_TERMS = new Set([
  ...['january', 'february', 'april', 'june', 'july', 'august', 'september', 'october', 'november', 'december'].map((m) => stemmer(m)),
  ...['janvier', 'fevrier', 'mars', 'avril', 'mai', 'juin', 'juillet', 'aout', 'septembre', 'octobre', 'novembre', 'decembre'].map((m) => frenchStem(m)),
  ...['januar', 'februar', 'marz', 'april', 'mai', 'juni', 'juli', 'august', 'september', 'oktober', 'november', 'dezember'].map((m) => germanStem(foldGerman(m))),
  ...['gennaio', 'febbraio', 'marzo', 'aprile', 'maggio', 'giugno', 'luglio', 'agosto', 'settembre', 'ottobre', 'novembre', 'dicembre', 'ferragosto'].map((m) => italianStem(m)),
  ...['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'].map((m) => spanishStem(m)),
]);
/** Not a word: what a knowledge-base text that names a month also says (see retrieval.ts). */
export const NAMES_A_MONTH = '·month';

/**
 * When the asker's case falls, by stem: "I need to cancel tomorrow", "can you come out tonight?",
 * "if we cancel a week before", "si j'annule la veille", "mon rdv de demain". A sentence that states
 * a period or a time ("less than 48 hours' notice", "14 days or more before arrival", "24 heures à
 * l'avance", "by 8am") answers it, whichever day the asker names, as with days and months (issue 36,
 * ninth round).
 */
export const WHEN_TERMS = new Set([
  ...['tomorrow', 'today', 'tonight', 'yesterday', 'week', 'month', 'fortnight'].map(englishTerm),
  ...['demain', 'aujourd', 'veille', 'semaine', 'mois'].map((w) => frenchStem(w)),
  ...['morgen', 'heute', 'woche', 'monat'].map((w) => germanStem(foldGerman(w))),
  ...['domani', 'oggi', 'stasera', 'settimana', 'mese'].map((w) => italianStem(w)),
  ...['hoy', 'semana', 'mes'].map((w) => spanishStem(w)),
]);
/** A period of time: a number and its unit ("48 hours", "14 days", "24 heures", "vier Wochen", "tre giorni", "48 horas"). */
const PERIOD_SOURCE = String.raw`(?:\d+|two|three|four|five|six|seven|ten|twelve|deux|trois|quatre|cinq|zwei|drei|vier|fünf|due|tre|dos|tres)\s+(?:(?:working|business|full|clear)\s+)?(?:hours?|days?|nights?|weeks?|months?|heures?|jours?|semaines?|mois|Stunden|Tagen?|Wochen|Monate?n?|ore|giorni|settimane|mesi|horas|d[ií]as|semanas|meses)\b`;
/**
 * A period as a deadline: before or after it ("less than 48 hours' notice", "14 days or more before
 * arrival", "within 6 months", "24 heures à l'avance"), not an amount bought ("a block of 10 hours").
 */
export const DEADLINE = new RegExp(String.raw`\b(?:within|than|least|moins\s+de|au\s+moins|mindestens|innerhalb|spätestens|almeno|entro|menos\s+de|m[aá]s\s+de|al\s+menos|hasta)\s+${PERIOD_SOURCE}|\b${PERIOD_SOURCE}['’]?\s+(?:[\p{L}'’]+\s+){0,3}?(?:notice|before|ahead|advance|prior|avance|avant|vorher|vor|anticipo|prima|antelaci[oó]n|antes)\b`, 'iu');
/** Not a word: what a knowledge-base text that states a deadline or a clock time also says (see retrieval.ts). */
export const NAMES_A_PERIOD = '·period';
