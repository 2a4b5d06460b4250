// Which days of the week a text names, as masks (bit 0 Monday … bit 6 Sunday) in three tiers, the
// most precise first: a day by its name or in a range of days ("Monday to Friday", "Mo–Fr", "de lunes
// a sábado", "von Dienstag bis Freitag"); a word for the working week or the weekend ("weekdays",
// "en semaine", "werktags", "fine settimana"); a word for every day ("daily", "tous les jours",
// "7 days a week"). A sentence naming Saturday says more of Saturday than "tutti i giorni" beside it. Issue 36, fourteenth round: a question naming a day is covered only
// by a sentence whose days hold it (retrieval.ts), so that "a party on a wednesday" is not answered
// by "Parties run on Saturdays and Sundays" beside "Weekday parties after school start at 16:30".
// One pass over the words; no pattern backtracks.
import { fold } from './fold.ts';

export const WEEKDAYS = 0b0011111;
export const WEEKEND = 0b1100000;
export const EVERY_DAY = 0b1111111;

/** The days' names, Monday first, with the forms they take (plural, German adverb, Italian plural). */
const NAMES: ReadonlyArray<readonly string[]> = [
  ['monday', 'mondays', 'lundi', 'lundis', 'montag', 'montags', 'montage', 'montagen', 'lunedi', 'lunes'],
  ['tuesday', 'tuesdays', 'mardi', 'mardis', 'dienstag', 'dienstags', 'dienstage', 'dienstagen', 'martedi', 'martes'],
  ['wednesday', 'wednesdays', 'mercredi', 'mercredis', 'mittwoch', 'mittwochs', 'mittwoche', 'mittwochen', 'mercoledi', 'miercoles'],
  ['thursday', 'thursdays', 'jeudi', 'jeudis', 'donnerstag', 'donnerstags', 'donnerstage', 'donnerstagen', 'giovedi', 'jueves'],
  ['friday', 'fridays', 'vendredi', 'vendredis', 'freitag', 'freitags', 'freitage', 'freitagen', 'venerdi', 'viernes'],
  ['saturday', 'saturdays', 'samedi', 'samedis', 'samstag', 'samstags', 'samstage', 'samstagen', 'sonnabend', 'sonnabends', 'sabato', 'sabati', 'sabado', 'sabados'],
  ['sunday', 'sundays', 'dimanche', 'dimanches', 'sonntag', 'sonntags', 'sonntage', 'sonntagen', 'domenica', 'domeniche', 'domingo', 'domingos'],
];
/** Short forms, read as days only at either end of a range ("Mon–Fri", "Mo-Fr", "lun-ven"): alone, "do", "sat", "mar" are words. */
const SHORT: ReadonlyArray<readonly string[]> = [
  ['mon', 'mo', 'lun'],
  ['tue', 'tues', 'di', 'mar'],
  ['wed', 'weds', 'mi', 'mer', 'mie'],
  ['thu', 'thur', 'thurs', 'do', 'jeu', 'gio', 'jue'],
  ['fri', 'fr', 'ven', 'vie'],
  ['sat', 'sa', 'sam', 'sab'],
  ['sun', 'so', 'dim', 'dom'],
];
const dayMap = (lists: ReadonlyArray<readonly string[]>) => new Map(lists.flatMap((forms, day) => forms.map((f) => [f, day] as const)));
const DAY_OF = dayMap(NAMES);
const SHORT_DAY_OF = dayMap(SHORT);
/** Words that stand for several days on their own. */
const GROUP_OF: ReadonlyMap<string, number> = new Map([
  ...['weekday', 'weekdays', 'werktags', 'wochentags', 'feriali', 'feriale', 'laborables', 'laborable'].map((w) => [w, WEEKDAYS] as const),
  ...['weekend', 'weekends', 'wochenende', 'wochenenden', 'wochenendes', 'finde', 'findes'].map((w) => [w, WEEKEND] as const),
  ...['daily', 'everyday', 'taglich', 'diario', 'diariamente', 'quotidien'].map((w) => [w, EVERY_DAY] as const),
]);
/** What joins the two ends of a range. */
const RANGE_WORDS = new Set(['-', '–', '—', 'to', 'till', 'until', 'through', 'thru', 'au', 'a', 'al', 'bis', 'hasta', 'fino']);
const DASHES = new Set(['-', '–', '—']);
/** Words, numbers and dashes, each a token. */
const TOKEN = /[\p{L}\p{M}]+|\d+|[-–—]/gu;

/** A range's days, Monday to Friday or round the end of the week (Friday to Monday). */
function range(from: number, to: number): number {
  let mask = 0;
  for (let d = from; ; d = (d + 1) % 7) {
    mask |= 1 << d;
    if (d === to) return mask;
  }
}

/** Bits of one tier in daysOf's number: tier 0 names and ranges, 1 the week or the weekend, 2 every day. */
export const tierOf = (days: number, tier: number) => (days >> (7 * tier)) & EVERY_DAY;
export const TIERS = 3;

/** The days a knowledge-base text names (see the top of this file), its three tiers in one number. */
export function daysOf(text: string): number {
  const tokens = Array.from(text.matchAll(TOKEN), (m) => fold(m[0]));
  let mask = 0;
  let group = 0;
  let every = 0;
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i]!;
    const day = DAY_OF.get(token) ?? SHORT_DAY_OF.get(token);
    if (day !== undefined) {
      const end = RANGE_WORDS.has(tokens[i + 1] ?? '') ? DAY_OF.get(tokens[i + 2] ?? '') ?? SHORT_DAY_OF.get(tokens[i + 2] ?? '') : undefined;
      if (end !== undefined) {
        mask |= range(day, end);
        i += 2;
      } else if (DAY_OF.has(token)) {
        mask |= 1 << day;
      }
      continue;
    }
    const stands = GROUP_OF.get(token) ?? 0;
    if (stands === EVERY_DAY) every = EVERY_DAY;
    else group |= stands;
    // "week-end": the dash between is no word.
    const dashed = DASHES.has(tokens[i - 1] ?? '') ? 1 : 0;
    const before = tokens[i - 1 - dashed] ?? '';
    const twoBefore = tokens[i - 2 - dashed] ?? '';
    // "week-end", "fine settimana", "fin de semana"; "en semaine", "entre semana"; "every day", "tous les jours", "tutti i giorni", "todos los días", "jeden Tag", "ogni giorno", "cada día".
    if ((token === 'end' && before === 'week') || (token === 'settimana' && before === 'fine') || (token === 'semana' && before === 'de' && twoBefore === 'fin')) group |= WEEKEND;
    if ((token === 'semaine' && before === 'en') || (token === 'semana' && before === 'entre')) group |= WEEKDAYS;
    // "7 days a week", not "7 days before your booking".
    if ((token === 'day' && before === 'every') || (token === 'days' && (before === '7' || before === 'seven') && tokens[i + 1] === 'a' && tokens[i + 2] === 'week')
      || (token === 'jours' && before === 'les' && twoBefore === 'tous') || (token === 'giorni' && before === 'i' && twoBefore === 'tutti')
      || (token === 'dias' && before === 'los' && twoBefore === 'todos') || (token === 'tag' && before === 'jeden')
      || (token === 'giorno' && before === 'ogni') || (token === 'dia' && before === 'cada')) every = EVERY_DAY;
  }
  return mask | (group << 7) | (every << 14);
}

/** The days one word of a question names: a day by its full name, or a weekend. Zero for any other word. */
export function dayOfWord(word: string): number {
  const folded = fold(word);
  const day = DAY_OF.get(folded);
  if (day !== undefined) return 1 << day;
  return GROUP_OF.get(folded) === WEEKEND ? WEEKEND : 0;
}
