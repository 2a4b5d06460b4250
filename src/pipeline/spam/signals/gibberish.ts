// Random strings: what bots type into name and message fields to get past "required".
// A word-like token is gibberish when it has no vowel at all, a long consonant run in a
// vowel-poor word, near-random capitalisation, a keyboard-row mash, or nearly all-distinct
// letters with few vowels (high entropy). Tokens with digits (order numbers, codes) are left alone.

import type { SignalHit } from '../types.ts';
import { fieldWithoutUrls, type SubmissionText } from '../submission-text.ts';

const LETTER_TOKEN = /\p{L}{6,40}/gu;
const VOWELS = new Set('aeiouyàáâãäåæèéêëìíîïòóôõöøùúûüýÿœ');
const KEYBOARD_ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm', 'qwertzuiop', 'azertyuiop', 'qsdfghjklm'];
const KEYBOARD_RUN = 5;
/** Every run of KEYBOARD_RUN keys along a row, either way: one lookup per piece of a word instead of a search per row. */
const KEYBOARD_PIECES: ReadonlySet<string> = new Set(KEYBOARD_ROWS.flatMap((row) => [row, [...row].reverse().join('')]).flatMap((keys) =>
  Array.from({ length: keys.length - KEYBOARD_RUN + 1 }, (_, start) => keys.slice(start, start + KEYBOARD_RUN))));
const MAX_EXAMPLES = 3;
const MIN_LENGTH = 6;
const WHITESPACE = /\s+/u;
const REPEATED_LETTER = /(.)\1+/gu;
const LATIN_WORD = /^[a-zà-ÿœ]+$/u;

export function gibberishSignal(text: SubmissionText): SignalHit | null {
  const found = new Set<string>();
  for (const field of text.prose) {
    for (const chunk of fieldWithoutUrls(text, field).split(WHITESPACE)) {
      // A chunk shorter than a token holds none.
      if (chunk.length < MIN_LENGTH || chunk.includes('@') || isEncodedBlock(chunk)) continue;
      for (const match of chunk.matchAll(LETTER_TOKEN)) {
        if (isGibberish(match[0])) found.add(match[0]);
      }
    }
  }
  if (found.size === 0) return null;
  const weight = found.size >= 3 ? 1 : found.size === 2 ? 0.7 : 0.4;
  const examples = [...found].slice(0, MAX_EXAMPLES).map((token) => `"${token}"`).join(', ');
  const noun = found.size === 1 ? 'string' : 'strings';
  return { id: 'gibberish', weight, detail: `${found.size} random-looking ${noun} (${examples})` };
}

export function isGibberish(token: string): boolean {
  // Stretched words ("Hmmmmm", "ARRRGHHH") are emphasis, not noise: judge them with runs collapsed.
  const lower = token.toLowerCase().replace(REPEATED_LETTER, '$1');
  // Only Latin-alphabet words have the vowel structure these tests rely on.
  if (lower.length < MIN_LENGTH || !LATIN_WORD.test(lower)) return false;
  let vowels = 0;
  for (const char of lower) if (VOWELS.has(char)) vowels++;
  const vowelRatio = vowels / lower.length;
  if (vowels === 0) return true;
  if (vowelRatio < 0.2 && longestConsonantRun(token) >= 6) return true;
  if (lower.length >= 12 && vowelRatio < 0.2 && new Set(lower).size >= lower.length - 1) return true;
  return (token.length >= 8 && hasRandomCase(token)) || hasKeyboardRun(lower);
}

/** Within each CamelCase part, so "FindMsgs" is two short words rather than one six-consonant run. */
function longestConsonantRun(token: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < token.length; i++) {
    const char = token[i]!;
    const startsPart = i > 0 && isUpperCase(char) && !isUpperCase(token[i - 1]!);
    if (startsPart || VOWELS.has(char.toLowerCase())) run = 0;
    if (!VOWELS.has(char.toLowerCase())) run++;
    if (run > longest) longest = run;
  }
  return longest;
}

/** Base64 and PGP lines: long unbroken chunks with digits or slashes are encodings, not words. */
function isEncodedBlock(chunk: string): boolean {
  return chunk.length >= 40 && /[\d+/=]/u.test(chunk);
}

/** "xKqLmPzW": many case changes with lone lower-case letters, unlike "JavaScript", "iPhone" or "McDonald". */
function hasRandomCase(token: string): boolean {
  let runs = 0;
  let loneLowerCase = 0;
  let runStart = 0;
  for (let i = 1; i <= token.length; i++) {
    if (i < token.length && isUpperCase(token[i]!) === isUpperCase(token[i - 1]!)) continue;
    runs++;
    if (i - runStart === 1 && !isUpperCase(token[runStart]!)) loneLowerCase++;
    runStart = i;
  }
  return runs >= 5 && loneLowerCase >= 2;
}

function isUpperCase(char: string): boolean {
  return char !== char.toLowerCase();
}

function hasKeyboardRun(lower: string): boolean {
  for (let start = 0; start + KEYBOARD_RUN <= lower.length; start++) {
    if (KEYBOARD_PIECES.has(lower.slice(start, start + KEYBOARD_RUN))) return true;
  }
  return false;
}
