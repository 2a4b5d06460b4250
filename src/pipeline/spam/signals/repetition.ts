// Shouting and repetition: the same content sent again, ALL-CAPS text, runs of "!!!!",
// and one word or character repeated far beyond what a person writes.

import type { SignalHit } from '../types.ts';
import type { SubmissionText } from '../submission-text.ts';
import { letterCases } from '../unicode-scripts.ts';

const MIN_LETTERS_FOR_CAPS = 20;
const CAPS_SHARE = 0.7;
const PUNCTUATION_RUN = /[!?]{3,}|\${3,}/u;
const EXCLAMATION = /!/gu;
const MANY_EXCLAMATIONS = 5;
const CHARACTER_RUN = /(\p{L})\1{5,}/u;
const WORD = /\p{L}{3,}/gu;
const MIN_REPEATS_OF_A_WORD = 5;
const REPEATED_WORD_SHARE = 0.3;

export function repeatedSubmissionSignal(repeatsFromSender: number): SignalHit | null {
  if (!(repeatsFromSender > 0)) return null;
  const weight = repeatsFromSender >= 3 ? 1 : repeatsFromSender === 2 ? 0.7 : 0.4;
  const times = repeatsFromSender === 1 ? 'once' : `${repeatsFromSender} times`;
  return { id: 'repeated_submission', weight, detail: `same content already sent ${times} by this sender` };
}

export function allCapsSignal(text: SubmissionText): SignalHit | null {
  let letters = 0;
  let upper = 0;
  for (const field of text.prose) {
    const cases = letterCases(field.value);
    upper += cases.upper;
    letters += cases.upper + cases.lower;
  }
  return letters >= MIN_LETTERS_FOR_CAPS && upper / letters >= CAPS_SHARE ? { id: 'all_caps', weight: 0.35, detail: 'text in capitals' } : null;
}

export function exclamationSignal(text: SubmissionText): SignalHit | null {
  const field = text.prose.find((candidate) => PUNCTUATION_RUN.test(candidate.value) || (candidate.value.match(EXCLAMATION)?.length ?? 0) >= MANY_EXCLAMATIONS);
  return field ? { id: 'exclamations', weight: 0.25, detail: `excessive punctuation ("!!!") in "${field.name}"` } : null;
}

export function repeatedWordsSignal(text: SubmissionText): SignalHit | null {
  for (const field of text.prose) {
    const run = CHARACTER_RUN.exec(field.value);
    if (run) return { id: 'repetition', weight: 0.4, detail: `a character repeated ${run[0].length} times in "${field.name}"` };
    const word = dominatingWord(field.value);
    if (word) return { id: 'repetition', weight: 0.4, detail: `"${word.word}" repeated ${word.count} times` };
  }
  return null;
}

function dominatingWord(value: string): { word: string; count: number } | null {
  const counts = new Map<string, number>();
  let total = 0;
  for (const match of value.toLowerCase().matchAll(WORD)) {
    total++;
    counts.set(match[0], (counts.get(match[0]) ?? 0) + 1);
  }
  let best: { word: string; count: number } | null = null;
  for (const [word, count] of counts) if (count > (best?.count ?? 0)) best = { word, count };
  return best && best.count >= MIN_REPEATS_OF_A_WORD && best.count / total >= REPEATED_WORD_SHARE ? best : null;
}
