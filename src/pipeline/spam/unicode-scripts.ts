// Writing systems of free text: which script dominates a value, and words that mix Latin
// with Cyrillic or Greek look-alikes ("vіagra" with a Cyrillic "і"), a trick to slip past filters.

/** Each tested on one character; no character is in two of them. */
const SCRIPTS: ReadonlyArray<readonly [string, RegExp]> = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Han', /\p{Script=Han}/u],
  ['Japanese kana', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
];
const NO_SCRIPT = -1;
const LATIN = 0;
const ONLY_ASCII = /^[\x00-\x7f]*$/u;
const ASCII_LETTER = /[A-Za-z]/u;
const CYRILLIC_OR_GREEK = /[\u0370-\u03ff\u0400-\u052f]/u;
const WORD = /[\p{L}\p{M}]+/gu;
const LATIN_LETTER = /\p{Script=Latin}/u;

// Cyrillic and Greek letters that render like Latin ones in common fonts.
const HOMOGLYPHS: Record<string, string> = {
  а: 'a', в: 'b', е: 'e', ё: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x', і: 'i', ї: 'i', ј: 'j', ѕ: 's',
  ԁ: 'd', ԛ: 'q', ԝ: 'w', һ: 'h', ӏ: 'l', А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', У: 'Y',
  Х: 'X', І: 'I', Ј: 'J', Ѕ: 'S', α: 'a', ο: 'o', ρ: 'p', ν: 'v', ι: 'i', κ: 'k', υ: 'u', ε: 'e', Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z',
  Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
};
const HOMOGLYPH_CHARACTER = new RegExp(`[${Object.keys(HOMOGLYPHS).join('')}]`, 'gu');

/** The script most of the letters are written in, or null when there are fewer than `minLetters`. */
export function dominantScript(text: string, minLetters = 1): string | null {
  const { script, letters } = scriptLetters(text);
  return letters >= minLetters ? script : null;
}

/**
 * The script most of the letters are written in (the first of SCRIPTS on a tie; null without letters) and how many
 * letters of those scripts the text holds, read in one pass over its characters.
 */
export function scriptLetters(text: string): { script: string | null; letters: number } {
  if (ONLY_ASCII.test(text)) return { script: 'Latin', letters: countAsciiLetters(text) };
  const counts: number[] = SCRIPTS.map(() => 0);
  const scriptOf = new Map<string, number>();
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      // An ASCII character is a Latin letter or none.
      const lower = code | 0x20;
      if (lower >= 97 && lower <= 122) counts[LATIN]!++;
      continue;
    }
    const point = text.codePointAt(i)!;
    if (point > 0xffff) i++;
    const character = String.fromCodePoint(point);
    let index = scriptOf.get(character);
    if (index === undefined) {
      index = SCRIPTS.findIndex(([, pattern]) => pattern.test(character));
      scriptOf.set(character, index);
    }
    if (index !== NO_SCRIPT) counts[index]!++;
  }
  let best: string | null = null;
  let bestCount = 0;
  let total = 0;
  SCRIPTS.forEach(([name], index) => {
    const count = counts[index]!;
    total += count;
    if (count > bestCount) [best, bestCount] = [name, count];
  });
  return { script: best, letters: total };
}

/** The first word that mixes Latin letters with Cyrillic or Greek ones, if any. */
export function findMixedScriptWord(text: string): string | null {
  if (!CYRILLIC_OR_GREEK.test(text)) return null;
  for (const match of text.matchAll(WORD)) {
    const word = match[0];
    if (CYRILLIC_OR_GREEK.test(word) && LATIN_LETTER.test(word)) return word;
  }
  return null;
}

/** Replaces look-alike Cyrillic and Greek letters inside mixed words with their Latin twins. */
export function foldHomoglyphs(text: string): string {
  if (!CYRILLIC_OR_GREEK.test(text)) return text;
  return text.replace(WORD, (word) => (LATIN_LETTER.test(word) ? word.replace(HOMOGLYPH_CHARACTER, (c) => HOMOGLYPHS[c] ?? c) : word));
}

function countAsciiLetters(text: string): number {
  if (!ASCII_LETTER.test(text)) return 0;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i) | 0x20;
    if (code >= 97 && code <= 122) count++;
  }
  return count;
}

const UPPER_CASE = /\p{Lu}/u;
const LOWER_CASE = /\p{Ll}/u;

/** How many upper-case and lower-case letters a text holds, read in one pass (ASCII without a pattern). */
export function letterCases(text: string): { upper: number; lower: number } {
  let upper = 0;
  let lower = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      if (code >= 65 && code <= 90) upper++;
      else if (code >= 97 && code <= 122) lower++;
      continue;
    }
    const point = text.codePointAt(i)!;
    if (point > 0xffff) i++;
    const character = String.fromCodePoint(point);
    if (UPPER_CASE.test(character)) upper++;
    else if (LOWER_CASE.test(character)) lower++;
  }
  return { upper, lower };
}
