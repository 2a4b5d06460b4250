// Feature extraction for the text classifier, shared by training (scripts/train-spam.ts) and
// scoring (classifier.ts) so both see exactly the same features. Features are hashed into
// 2^HASH_BITS buckets (the hashing trick): no vocabulary to store, unseen words cost nothing.
//
// Features: word unigrams and bigrams and character 4-grams inside words, for Latin-script words; pieces of two
// characters of other scripts and the Latin words written inside them (issue 35, seventh round);
// link hosts and link kinds; contact patterns (phone numbers, @handles, e-mail addresses, money
// amounts); the shape of numbers; and script-independent "style" buckets (length, share of capitals,
// exclamation and question marks, emoji, links or their absence).
//
// Until issue 35's seventh round only Latin words were read: the little non-Latin text in the labelled
// corpora was almost all spam (Chinese and Korean mass mail in SpamAssassin), and its words would have
// learnt "this script is spam". The web-form rounds' sets now hold as many customers' and suppliers'
// messages in those scripts as spam (weighted, slightly more), so the pieces learn words; the texts in
// other scripts still have no feature of their script as such (test/spam-seventh-round.test.ts).

import { isIpHost, isShortener, type FoundUrl } from './urls.ts';
import { TextView } from './text-view.ts';
import { shapeFeatures } from './shape.ts';
import { MESSAGING_APP } from './contact-routes.ts';
import { letterCases } from './unicode-scripts.ts';
import { introducedAsOwnWork, linkNamed } from './own-link.ts';

export const HASH_BITS = 20;
const BUCKET_MASK = (1 << HASH_BITS) - 1;
/** Long enough for any real message; bounds the cost of pathological input. */
const MAX_TEXT_LENGTH = 20_000;
const TOKEN = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}]+)?|[$€£%!?]/gu;
// Bounded parts keep matching linear on long runs without spaces; the local part starts only where a run does
// (the lookbehind), or every position of a 60 KB run without spaces scanned 64 characters ahead for an '@' (about
// 20 ms of a worker's event loop for one hostile submission; 2 ms so).
const EMAIL_ADDRESS = /(?<![^\s@<>()])[^\s@<>()]{1,64}@[^\s@<>()]{1,253}\.[a-z]{2,24}/giu;
const DIGITS = /^\p{N}+$/u;
const MAX_TOKEN_LENGTH = 30;
const MIN_NORMALISED_FEATURES = 100;
const MAX_GRAMMED_LENGTH = 20;
const LATIN_LETTER = /\p{Script=Latin}/u;
const LETTER = /\p{L}/u;
/** A token wholly in Latin letters, marks and digits (the words every earlier round read). */
const LATIN_ONLY = /^[\p{Script=Latin}\p{M}\p{N}'’]+$/u;
const LATIN_RUN = /[\p{Script=Latin}][\p{Script=Latin}\p{M}]+/gu;
const OTHER_LETTERS = /[^\p{Script=Latin}\p{N}'’]+/gu;
// Bounded, between disjoint classes or anchored on a digit, so matching stays linear.
const PHONE_NUMBER = /\+?\d[\d ().-]{6,18}\d/gu;
const HANDLE = /(?:^|[\s:(])@[\p{L}\p{N}_.]{2,30}/gu;
const MONEY = /[$€£¥₹]\s?\d|\d\s?(?:[$€£¥₹]|usd|eur|dollars?|euros?)\b/giu;
const EMOJI = /\p{Extended_Pictographic}/gu;
const QUESTION = /[?¿؟]/u;
/** A share or a rate ("60% lower cost", "3% per day", "100% bonus"): offers quote them, requests rarely do. */
const PERCENT = /\d\s?%/u;
/** Links read per message for the link-shape features; more add cost, not evidence. */
const MAX_LINKS_SHAPED = 5;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** The states after each prefix of the per-token features: words, pairs of words, character grams, other scripts' pieces. */
const WORD_PREFIX = hashOn(FNV_OFFSET, 'w:', 0, 2);
const BIGRAM_PREFIX = hashOn(FNV_OFFSET, 'b:', 0, 2);
const GRAM_PREFIX = hashOn(FNV_OFFSET, 'c:', 0, 2);
const PIECE_PREFIX = hashOn(FNV_OFFSET, 'k:', 0, 2);

/**
 * The value of each present feature. Features are binary and the document vector has unit length, so
 * long texts do not shout louder; but very short texts are damped as if they had MIN_NORMALISED_FEATURES
 * features (a sentence of about fifteen words): three words are too little evidence to be sure of anything.
 */
export function featureValue(featureCount: number): number {
  return 1 / Math.sqrt(Math.max(featureCount, MIN_NORMALISED_FEATURES));
}

/**
 * The distinct hashed features of a text, as bucket numbers. Without `style`, only what the text says (words,
 * word pieces, link hosts): the owner's adaptive layer compares submissions by content.
 */
export function featureBuckets(rawText: string, style = true): number[] {
  const reading = readFeatures(new TextView(rawText.length > MAX_TEXT_LENGTH ? rawText.slice(0, MAX_TEXT_LENGTH) : rawText), style);
  return reading.all ?? reading.content;
}

/** A text's features: what it says (`content`) and, when style was read, all of them in the classifier's order. */
interface Reading { content: number[]; all?: number[] }

const readings = new WeakMap<TextView, Reading>();

/**
 * featureBuckets of a submission's prose (SubmissionText.view), read once per check: `intelligent` with an owner's
 * corrections asks for the content (the adaptive layer) and for all of them (the classifier), and one pass gives both
 * when the first to ask wants style. The view's links, link-free text and shape are the heuristics' own.
 */
export function viewFeatures(view: TextView, style = true): number[] {
  let reading = readings.get(view);
  if (!reading || (style && !reading.all)) {
    reading = readFeatures(view.text.length > MAX_TEXT_LENGTH ? new TextView(view.text.slice(0, MAX_TEXT_LENGTH)) : view, style);
    readings.set(view, reading);
  }
  return (style ? reading.all : undefined) ?? reading.content;
}

function readFeatures(view: TextView, style: boolean): Reading {
  const text = view.text;
  const urls = view.urls;
  const content = new Set<number>();
  const buckets = new Set<number>();
  // Content features go into both sets, style features only into `buckets`, each set in the order first added.
  const addContentBucket = (bucket: number) => {
    content.add(bucket);
    if (style) buckets.add(bucket);
  };
  const addContent = (feature: string) => addContentBucket(hashFeature(feature));
  const add = (feature: string) => buckets.add(hashFeature(feature));

  const words = style && urls.length > 0 ? view.namingWords : undefined;
  for (const url of urls) {
    addContent(`u:${registrableHost(url.host)}`);
    if (style && isShortener(url.host)) add('u!short');
    if (style && isIpHost(url.host)) add('u!ip');
    // Issue 35's ninth round: a link the sender introduces as their own work ("Портфолио: annadesign.ru"), see own-link.ts.
    if (style && !isShortener(url.host) && introducedAsOwnWork(text, url)) add('u!own');
    // And whether the message names the link's domain ("traductrice" and claire-traductions.fr) or not, as stranger_link reads it.
    const named = words && linkNamed(url, words);
    if (named !== undefined) add(named ? 'u!named' : 'u!stranger');
  }
  const prose = view.written.replace(EMAIL_ADDRESS, ' @email ');
  // Without an e-mail address the prose is the view's own, and so are its lower case and its shape.
  const own = prose === view.written;
  const lower = own ? view.lowerWritten : prose.toLowerCase();
  if (style) {
    addStyleFeatures(view.normalized, prose, lower, urls, add);
    // What the sender does (greets nobody, offers, asks about a need): see shape.ts. Style, not content, so the
    // owner's adaptive layer, which compares what submissions say, does not read it.
    for (const feature of own ? view.shape : shapeFeatures(prose, lower, urls.length)) add(feature);
  }
  // No length feature: lengths differ more between the corpora than between spam and not, so it would
  // learn which corpus a text resembles.

  let previous = '^';
  let exclamations = 0;
  for (const match of lower.matchAll(TOKEN)) {
    const token = normaliseToken(match[0]);
    if (token === '!') exclamations++;
    if (!isPlainAscii(token) && LETTER.test(token) && !(LATIN_LETTER.test(token) && LATIN_ONLY.test(token))) {
      // A run of another script, or one mixing scripts without spaces ("谷歌SEO优化", "MEO対策"): its Latin pieces
      // (trade words, brands, apps) are read as words; the rest as pieces of two characters (below).
      for (const piece of token.match(LATIN_RUN) ?? []) addContent(`w:${piece}`);
      addOtherScriptGrams(token, addContentBucket);
      previous = '~';
      continue;
    }
    // `w:${token}` and `b:${previous} ${token}`, hashed in parts: the strings would be built only to be hashed.
    addContentBucket(foldHash(hashOn(WORD_PREFIX, token, 0, token.length)));
    addContentBucket(foldHash(hashOn(hashOn(hashOn(BIGRAM_PREFIX, previous, 0, previous.length), ' ', 0, 1), token, 0, token.length)));
    addCharacterGrams(match[0], addContentBucket);
    previous = token;
  }

  if (!style) return { content: [...content] };
  const { upper, lower: lowerCase } = letterCases(text);
  const letters = upper + lowerCase;
  const capsBucket = letters >= 20 ? Math.floor((upper / letters) * 5) : 0;
  if (capsBucket > 0) add(`s:caps${capsBucket}`);
  if (exclamations > 0) add(`s:bang${logBucket(exclamations)}`);
  if (urls.length > 0) add(`s:urls${logBucket(urls.length)}`);
  return { content: [...content], all: [...buckets] };
}

/** Contact patterns and script-independent shape: what a text is like rather than what it says. */
function addStyleFeatures(withoutUrls: string, prose: string, lower: string, urls: readonly FoundUrl[], add: (feature: string) => void): void {
  if (urls.length === 0) add('s:nolink');
  addLinkShape(urls, add);
  if (PERCENT.test(prose)) add('p:percent');
  if (MESSAGING_APP.test(lower)) add('p:messenger');
  if (EMAIL_ADDRESS.test(withoutUrls)) add('p:email');
  EMAIL_ADDRESS.lastIndex = 0;
  const phones = prose.match(PHONE_NUMBER)?.length ?? 0;
  if (phones > 0) add(`p:phone${Math.min(phones, 3)}`);
  if (HANDLE.test(prose)) add('p:handle');
  HANDLE.lastIndex = 0;
  if (MONEY.test(prose)) add('p:money');
  MONEY.lastIndex = 0;
  const emoji = prose.match(EMOJI)?.length ?? 0;
  if (emoji > 0) add(`s:emoji${logBucket(emoji)}`);
  if (QUESTION.test(prose)) add('s:question');
}

/**
 * What a link's name looks like, in any language: its top-level domain (the classifier learns which endings the
 * training data's spam registers and which its honest senders use), a name strung from words with hyphens or holding
 * digits ("cripto-ganancias.pro", "winbet77.vip").
 */
function addLinkShape(urls: readonly FoundUrl[], add: (feature: string) => void): void {
  for (const url of urls.slice(0, MAX_LINKS_SHAPED)) {
    const labels = url.host.split('.');
    if (labels.length < 2) continue;
    add(`t:${labels.at(-1)}`);
    const name = labels.at(-2)!;
    if (name.includes('-')) add('u!hyphen');
    if (/\d/u.test(name) && !isIpHost(url.host)) add('u!digit');
  }
}

/** Pieces of words, so spellings never seen in training ("v1agra", "m0rtgage", "refinancing") still share features with seen ones. */
function addCharacterGrams(token: string, addBucket: (bucket: number) => void): void {
  if (token.length < 4 || token.length > MAX_GRAMMED_LENGTH) return;
  const padded = ` ${token} `;
  // The features `c:${padded.slice(i, i + 4)}`.
  for (let i = 0; i + 4 <= padded.length; i++) addBucket(foldHash(hashOn(GRAM_PREFIX, padded, i, i + 4)));
}

/**
 * Text in scripts the word features skip, as pieces of two characters across its letters (one for a lone letter):
 * Chinese, Japanese and Thai write without spaces, and two characters are about a word there; in Cyrillic, Arabic
 * or Devanagari they are coarser than words but still name the trade. The training data now holds customers' and
 * suppliers' messages in these scripts beside their spam (the web-form rounds' sets), so the pieces learn words, not
 * the script; a piece seen in both is worth little.
 */
function addOtherScriptGrams(token: string, addBucket: (bucket: number) => void): void {
  for (const run of token.match(OTHER_LETTERS) ?? []) {
    // The features `k:${run}` for a lone letter, else `k:${run.slice(i, i + 2)}`.
    if (run.length === 1) { addBucket(foldHash(hashOn(PIECE_PREFIX, run, 0, 1))); continue; }
    const end = Math.min(run.length - 1, MAX_TEXT_LENGTH);
    for (let i = 0; i < end; i++) addBucket(foldHash(hashOn(PIECE_PREFIX, run, i, i + 2)));
  }
}

/**
 * A token of ASCII letters, digits and apostrophes (or one of $ % ! ?), as most are: a Latin word or no word, so the
 * three script tests can be left out. Not "#long", which the script tests send to the other scripts' branch.
 */
function isPlainAscii(token: string): boolean {
  for (let i = 0; i < token.length; i++) {
    const code = token.charCodeAt(i);
    if (code >= 0x80 || code === HASH_SIGN) return false;
  }
  return true;
}

const HASH_SIGN = 0x23;

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
  return foldHash(hashOn(FNV_OFFSET, feature, 0, feature.length));
}

/** FNV-1a's state after reading text[start, end) on from `hash`: a feature can be hashed in parts, never built. */
function hashOn(hash: number, text: string, start: number, end: number): number {
  let state = hash;
  for (let i = start; i < end; i++) {
    state ^= text.charCodeAt(i);
    state = Math.imul(state, FNV_PRIME);
  }
  return state;
}

/** Folding the high bits in keeps them from being thrown away by the mask. */
function foldHash(hash: number): number {
  return ((hash >>> HASH_BITS) ^ hash) & BUCKET_MASK;
}

