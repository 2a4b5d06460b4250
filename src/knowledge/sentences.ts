// A passage's body cut into the pieces a reply may quote: the sentences of its prose, and each line
// of a list or a table on its own. Pieces are offsets into the body, so a quote is always the
// owner's text exactly as written. Everything here is a single pass over the text.

export interface Unit {
  start: number;
  end: number;
  /** A list item, a table row or a short line of its own, rather than a sentence of prose. */
  row: boolean;
}

/**
 * A list item's marker: a dash, a bullet or a number, or an emoji or tick opening the line ("📍 12
 * Mill Lane", "✔ Free parking"; issue 36, eleventh round): such lines often end without a full
 * stop, and read as prose they ran together into one sentence.
 */
const BULLET = /^[ \t]*(?:[-*+•·–][ \t]|\d{1,3}[.)][ \t]|[\p{Extended_Pictographic}✓✔➤►▪●◦→][\p{Extended_Pictographic}\u{FE0F}\u{200D}\p{M}]*[ \t])/u;
const ABBREVIATIONS = new Set(['e.g', 'i.e', 'etc', 'dr', 'mr', 'mrs', 'ms', 'st', 'no', 'nr', 'approx', 'incl', 'vs', 'ca', 'min', 'max', 'tel', 'p.m', 'a.m']);
/** A line this short that does not end a sentence stands on its own (a title, a menu item). */
const SHORT_LINE = 50;

function isRow(line: string): boolean {
  return BULLET.test(line) || line.includes('\t') || line.includes('|');
}

/** Whether a line's last character (closing quotes and brackets aside) ends a sentence. */
function endsSentence(line: string): boolean {
  let end = line.trimEnd().length;
  while (end > 0 && `"')]`.includes(line[end - 1]!)) end -= 1;
  return end > 0 && '.!?:;'.includes(line[end - 1]!);
}
const startsUpper = (line: string) => /^[ \t]*["'(\[]*[\p{Lu}\p{N}€$£]/u.test(line);

/** Whether the dot at `dot` closes an abbreviation ("e.g.", "St.", "U.S.") or an initial rather than a sentence. */
export function isAbbreviation(text: string, dot: number): boolean {
  const word = wordBefore(text, dot);
  return ABBREVIATIONS.has(word) || /^\p{L}$/u.test(word) || /^(?:\p{L}\.)+\p{L}$/u.test(word);
}

/**
 * German writes a day of the month as an ordinal, "24. Juni", "1. Mai": the dot after a day's number,
 * before a month's name, ends no sentence ("Spargel: Mitte April bis 24. Juni" is one line; issue 36,
 * fifteenth round). Months as written, with their common short forms.
 */
const GERMAN_MONTH = /^(?:jan(?:uar)?|feb(?:ruar)?|m(?:ä|ae)rz|apr(?:il)?|mai|juni?|juli?|aug(?:ust)?|sep(?:t(?:ember)?)?|okt(?:ober)?|nov(?:ember)?|dez(?:ember)?)$/i;
/** Whether the dot at `dot` follows a day's number (1 to 31) and comes before a German month's name. */
export function isGermanDate(text: string, dot: number, next: number): boolean {
  const day = /(?:^|[^\p{L}\p{N}.])(\d{1,2})$/u.exec(text.slice(Math.max(0, dot - 3), dot));
  if (!day || Number(day[1]) < 1 || Number(day[1]) > 31) return false;
  const word = /^\p{L}+/u.exec(text.slice(next, next + 12));
  return word !== null && GERMAN_MONTH.test(word[0]);
}

/** The word just before `end` (letters and inner dots), lower-cased: an abbreviation's dot ends no sentence. */
function wordBefore(text: string, end: number): string {
  let start = end;
  while (start > 0 && /[\p{L}.]/u.test(text[start - 1]!) && end - start < 12) start -= 1;
  return text.slice(start, end).toLowerCase();
}

/** Sentence ends in a stretch of prose: . ! or ? (closing quotes and brackets after it) then space and a capital or digit. */
function proseUnits(text: string, offset: number, units: Unit[]): void {
  let start = 0;
  const n = text.length;
  for (let i = 0; i < n; i += 1) {
    const c = text[i];
    if (c !== '.' && c !== '!' && c !== '?') continue;
    let j = i + 1;
    while (j < n && /["')\]]/.test(text[j]!)) j += 1;
    if (j >= n || !/\s/.test(text[j]!)) continue;
    let k = j;
    while (k < n && /\s/.test(text[k]!)) k += 1;
    if (k >= n || !startsUpper(text.slice(k, k + 4))) continue;
    if (c === '.' && (isAbbreviation(text, i) || isGermanDate(text, i, k))) continue;
    pushTrimmed(text, start, j, offset, false, units);
    start = k;
    i = k - 1;
  }
  pushTrimmed(text, start, n, offset, false, units);
}

function pushTrimmed(text: string, start: number, end: number, offset: number, row: boolean, units: Unit[]): void {
  while (start < end && /\s/.test(text[start]!)) start += 1;
  while (end > start && /\s/.test(text[end - 1]!)) end -= 1;
  if (end > start) units.push({ start: offset + start, end: offset + end, row });
}

export function splitUnits(body: string): Unit[] {
  const units: Unit[] = [];
  let blockStart = -1;
  let blockEnd = -1;
  let previous = '';
  const flush = () => {
    if (blockStart >= 0) proseUnits(body.slice(blockStart, blockEnd), blockStart, units);
    blockStart = -1;
  };
  let lineStart = 0;
  while (lineStart <= body.length) {
    let lineEnd = body.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = body.length;
    const line = body.slice(lineStart, lineEnd);
    if (line.trim() === '') {
      flush();
    } else if (isRow(line)) {
      flush();
      pushTrimmed(line, 0, line.length, lineStart, true, units);
    } else {
      // Prose wraps across lines; a short line that ends no sentence, before a capital, is a line of its own.
      const apart = blockStart >= 0 && !endsSentence(previous) && previous.trim().length < SHORT_LINE && startsUpper(line);
      if (apart) flush();
      if (blockStart < 0) blockStart = lineStart;
      blockEnd = lineEnd;
    }
    previous = line;
    lineStart = lineEnd + 1;
  }
  flush();
  return units;
}
