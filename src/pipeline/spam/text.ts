// Feature extraction for the text classifier, shared by training (scripts/train-spam.ts) and
// scoring (classifier.ts) so both see exactly the same features. Features are hashed into
// 2^HASH_BITS buckets (the hashing trick): no vocabulary to store, unseen words cost nothing.
//
// Features: word unigrams and bigrams; character 4-grams inside words (pairs for CJK); link hosts
// and link kinds; the shape of numbers; and a few coarse "style" buckets (share of capitals,
// exclamation marks, link count). Only presence features: nothing fires for what a text lacks.

import { findUrls, isIpHost, isShortener, removeUrls } from './urls.ts';
import { foldHomoglyphs } from './unicode-scripts.ts';

export const HASH_BITS = 20;
const BUCKET_MASK = (1 << HASH_BITS) - 1;
/** Long enough for any real message; bounds the cost of pathological input. */
const MAX_TEXT_LENGTH = 20_000;
const TOKEN = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}]+)?|[$€£%!?]/gu;
// Bounded parts keep matching linear on long runs without spaces.
const EMAIL_ADDRESS = /[^\s@<>()]{1,64}@[^\s@<>()]{1,253}\.[a-z]{2,24}/giu;
const DIGITS = /^\p{N}+$/u;
const UPPER_CASE = /\p{Lu}/gu;
const LOWER_CASE = /\p{Ll}/gu;
const MAX_TOKEN_LENGTH = 30;
const MIN_NORMALISED_FEATURES = 800;
const MAX_GRAMMED_LENGTH = 20;
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * The value of each present feature. Features are binary and the document vector has unit length, so
 * long texts do not shout louder; but short texts are damped as if they had MIN_NORMALISED_FEATURES
 * features (about 150 words): a handful of words is too little evidence, and the e-mail corpus has
 * hardly any short legitimate messages, so undamped it would read "Can you call me back?" as spam.
 */
export function featureValue(featureCount: number): number {
  return 1 / Math.sqrt(Math.max(featureCount, MIN_NORMALISED_FEATURES));
}

/** The distinct hashed features of a text, as bucket numbers. */
export function featureBuckets(rawText: string): number[] {
  const text = rawText.length > MAX_TEXT_LENGTH ? rawText.slice(0, MAX_TEXT_LENGTH) : rawText;
  const buckets = new Set<number>();
  const add = (feature: string) => buckets.add(hashFeature(feature));

  const urls = findUrls(text);
  for (const url of urls) {
    add(`u:${registrableHost(url.host)}`);
    if (isShortener(url.host)) add('u!short');
    if (isIpHost(url.host)) add('u!ip');
  }
  const prose = foldHomoglyphs(removeUrls(text)).replace(EMAIL_ADDRESS, ' @email ');

  let previous = '^';
  let exclamations = 0;
  for (const match of prose.toLowerCase().matchAll(TOKEN)) {
    const token = normaliseToken(match[0]);
    if (token === '!') exclamations++;
    add(`w:${token}`);
    add(`b:${previous} ${token}`);
    addCharacterGrams(match[0], add);
    previous = token;
  }

  const upper = text.match(UPPER_CASE)?.length ?? 0;
  const letters = upper + (text.match(LOWER_CASE)?.length ?? 0);
  const capsBucket = letters >= 20 ? Math.floor((upper / letters) * 5) : 0;
  if (capsBucket > 0) add(`s:caps${capsBucket}`);
  if (exclamations > 0) add(`s:bang${logBucket(exclamations)}`);
  if (urls.length > 0) add(`s:urls${logBucket(urls.length)}`);
  return [...buckets];
}

/**
 * Pieces of words, so spellings never seen in training ("v1agra", "m0rtgage", "refinancing") still share
 * features with seen ones. Chinese, Japanese and Korean are written without spaces: their "words" are
 * whole phrases, so they get character pairs instead.
 */
function addCharacterGrams(token: string, add: (feature: string) => void): void {
  if (UNSPACED_SCRIPT.test(token)) {
    for (let i = 0; i + 2 <= token.length && i < MAX_TOKEN_LENGTH; i++) add(`k:${token.slice(i, i + 2)}`);
    return;
  }
  if (token.length < 4 || token.length > MAX_GRAMMED_LENGTH) return;
  const padded = ` ${token} `;
  for (let i = 0; i + 4 <= padded.length; i++) add(`c:${padded.slice(i, i + 4)}`);
}

function normaliseToken(token: string): string {
  if (DIGITS.test(token)) return `#${Math.min(token.length, 6)}`;
  if (token.length > MAX_TOKEN_LENGTH) return '#long';
  return token;
}

/** "mail.example.co.uk" → "example.co.uk"-ish: the last two labels, or three when the second-last is short. */
function registrableHost(host: string): string {
  const labels = host.split('.');
  const keep = labels.length >= 3 && (labels.at(-2)?.length ?? 0) <= 3 ? 3 : 2;
  return labels.slice(-keep).join('.');
}

function logBucket(count: number): number {
  return count === 0 ? 0 : Math.min(8, 1 + Math.floor(Math.log2(count)));
}

/** 32-bit FNV-1a over UTF-16 code units, folded into the bucket range. */
export function hashFeature(feature: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < feature.length; i++) {
    hash ^= feature.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  // Folding the high bits in keeps them from being thrown away by the mask.
  return ((hash >>> HASH_BITS) ^ hash) & BUCKET_MASK;
}
