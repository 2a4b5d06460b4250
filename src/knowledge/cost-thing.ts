// Whether a thing costs: which thing, and whether a sentence states the price or the freeness of
// that thing (issue 36, thirteenth round). "is there a free trial day" asks whether a trial day
// costs nothing; the gym's "2.2 If a payment fails, we will try again after 7 days and add a £5
// admin charge" states a price, and holds "try" (a synonym of "trial") and "days", but its price is
// the admin charge's. A sentence covers the question's "free", "extra" or "included" by its price
// or freeness only when each word of the thing it holds stands near that price or freeness.
import type { Language } from './languages.ts';
import { AMOUNT } from './synonyms.ts';
import { COST_TERMS, termOf, words } from './terms.ts';

/** How many words apart a thing's word and the price or freeness stating its cost may stand. */
export const COST_NEAR_WORDS = 5;
/** The thing asked about: at most this many words right after the cost word ("a free trial day"), else before it ("is fuel extra"). */
const THING_AFTER = 2;
const THING_BEFORE = 3;
const AMOUNTS = new RegExp(AMOUNT.source, 'gi');
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/**
 * For a knowledge-base text that states a price or that a thing is free, included or extra: each of
 * its terms with the fewest words between it and such a statement (a money amount, or a word of
 * COST_TERMS). Null when the text states none.
 */
export function costDistances(text: string, language: Language): Map<string, number> | null {
  const amounts: Array<[number, number]> = [];
  for (const m of text.matchAll(AMOUNTS)) amounts.push([m.index, m.index + m[0].length]);
  const terms: Array<string | null> = [];
  const marks: number[] = [];
  for (const m of text.matchAll(WORD)) {
    const term = termOf(m[0], language);
    const start = m.index;
    const end = start + m[0].length;
    if ((term !== null && COST_TERMS.has(term)) || amounts.some(([a, b]) => start < b && end > a)) marks.push(terms.length);
    terms.push(term);
  }
  if (marks.length === 0) return null;
  const distances = new Map<string, number>();
  terms.forEach((term, i) => {
    if (term === null) return;
    let d = Infinity;
    for (const k of marks) d = Math.min(d, Math.abs(k - i));
    if (d < (distances.get(term) ?? Infinity)) distances.set(term, d);
  });
  return distances;
}

/**
 * The thing a question asks the cost of, as terms: the words just after its cost word ("a free
 * trial day" → trial, day; "free parking" → parking), or, when a stop word or nothing follows it,
 * the nearest words before ("is fuel extra?" → fuel; "le parking est payant ?" → parking). Empty
 * when the question asks it of nothing named ("is it free?") or has no cost word.
 */
export function costThing(question: string, language: Language, costTerms: ReadonlySet<string>, resolve: (term: string) => string): string[] {
  const terms = words(question).map((w) => { const t = termOf(w, language); return t === null ? null : resolve(t); });
  const at = terms.findIndex((t) => t !== null && costTerms.has(t));
  if (at < 0) return [];
  const isThing = (t: string | null): t is string => t !== null && !COST_TERMS.has(t) && !/^\d+$/.test(t);
  const after: string[] = [];
  for (let i = at + 1; i <= at + THING_AFTER && i < terms.length && isThing(terms[i]!); i += 1) after.push(terms[i]!);
  if (after.length > 0) return after;
  const before: string[] = [];
  for (let i = at - 1; i >= Math.max(0, at - THING_BEFORE) && before.length < THING_AFTER; i -= 1) if (isThing(terms[i]!)) before.push(terms[i]!);
  return before;
}
