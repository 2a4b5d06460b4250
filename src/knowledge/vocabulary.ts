// The knowledge base's own word for a term of a question: the term itself, an inflection ("rent"
// for "rental", both ways, when one is the other plus at most three letters), or a one-letter slip
// ("apointment") that is not a word of its own. A term with several candidates takes the one most passages use. The knowledge
// base's inflections of one word are compared as one term, the one most passages use.
import type { Steps } from './steps.ts';

const MAX_ENDING = 3;
const MIN_RELATED_CHARS = 4;
const MIN_TYPO_CHARS = 5;
/** Longer terms are not looked for among one-letter slips: the candidates grow with the square of the length. */
const MAX_TYPO_CHARS = 24;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** A word cut short, or a German compound's part, is looked for from this many letters (clipped). */
const MIN_CLIPPED_CHARS = 4;
/** More words than this beginning or ending with a term: ambiguous, no need to list them all. */
const MAX_CLIPPED = 8;

/** Candidate words one edit away (deletion, transposition, substitution, insertion of a-z). */
function oneEditAway(term: string): string[] {
  const out: string[] = [];
  for (let i = 0; i <= term.length; i += 1) {
    const head = term.slice(0, i);
    const tail = term.slice(i);
    if (i < term.length) out.push(head + tail.slice(1));
    if (i < term.length - 1) out.push(head + tail[1] + tail[0] + tail.slice(2));
    for (const c of LETTERS) {
      if (i < term.length) out.push(head + c + tail.slice(1));
      out.push(head + c + tail);
    }
  }
  return out;
}

/** Terms looked at between two pauses of vocabularySteps. */
const TERMS_PER_SLICE = 2_000;

export interface Vocabulary {
  /** The term a question's term is compared as. */
  resolve(term: string): string;
  /**
   * In German, the knowledge base's compounds a term unknown to it is the first or last part of, when
   * there are several ("Schuhe" for "Kletterschuhe" and "Straßenschuhe"): each of them stands for it.
   * Empty otherwise.
   */
  compoundsOf(term: string): readonly string[];
  /** The term a word of the knowledge base is compared as. */
  standFor(term: string): string;
}

/**
 * `frequency`: in how many passages each term of the knowledge base occurs. `isWord`: whether a term
 * is a word of the language in its own right, never taken as a slip for another ("piercings" is not
 * "pieces"; issue 36, ninth round). Pauses every
 * TERMS_PER_SLICE terms (steps.ts).
 */
export function* vocabularySteps(frequency: ReadonlyMap<string, number>, isWord: (term: string) => boolean = () => false, compounds = false): Steps<Vocabulary> {
  const sorted = [...frequency.keys()].sort();
  // The knowledge base's words spelt backwards, sorted: the words that end with a term are a range of them.
  const reversed = compounds ? sorted.map((t) => [...t].reverse().join('')).sort() : [];
  const mostUsed = (candidates: Iterable<string>): string | null => {
    let best: string | null = null;
    for (const c of candidates) if (frequency.has(c) && (best === null || frequency.get(c)! > frequency.get(best)!)) best = c;
    return best;
  };
  /** The words of `list` (sorted) that begin with `prefix`, at most `limit` of them. */
  function beginning(list: readonly string[], prefix: string, limit = Infinity): string[] {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < list.length && list[i]!.startsWith(prefix) && out.length < limit; i += 1) out.push(list[i]!);
    return out;
  }
  /** The words of the knowledge base that begin with `term` and are at most MAX_ENDING letters longer. */
  const longer = (term: string): string[] => beginning(sorted, term).filter((t) => t.length - term.length <= MAX_ENDING);
  /**
   * A word cut short ("combi" for "combinaison", "furgo" for "furgoneta") or, in German, a compound's
   * first or last part ("Schuhe" for "Kletterschuhe", "parken" for "Parkplatz"): the knowledge base's
   * one word, or one word and its inflections (all standing for one term), that begins with the term
   * (ends with it, in German) and is more than MAX_ENDING letters longer. A term several words of
   * the knowledge base begin or end with is ambiguous, and left alone.
   */
  const longerWords = (term: string): Set<string> => {
    if (term.length < MIN_CLIPPED_CHARS || !/^[a-z]+$/.test(term)) return new Set();
    const backwards = [...term].reverse().join('');
    const found = [
      ...beginning(sorted, term, MAX_CLIPPED + 1),
      ...(compounds ? beginning(reversed, backwards, MAX_CLIPPED + 1).map((r) => [...r].reverse().join('')) : []),
    ].filter((t) => t.length - term.length > MAX_ENDING);
    return new Set(found.map((t) => own.get(t) ?? t));
  };
  const clipped = (term: string): string | null => {
    const terms = longerWords(term);
    return terms.size === 1 ? [...terms][0]! : null;
  };

  const related = (term: string): string | null => {
    if (term.length < MIN_RELATED_CHARS) return null;
    const shorter: string[] = [];
    for (let k = Math.max(MIN_RELATED_CHARS, term.length - MAX_ENDING); k < term.length; k += 1) shorter.push(term.slice(0, k));
    return mostUsed([...shorter, ...longer(term)]);
  };
  // The knowledge base's own inflections are one term too ("Rentals" over "We rent …"): each of its
  // words stands for the most used of itself and the words it begins or that begin it.
  const own = new Map<string, string>();
  for (const [i, term] of sorted.entries()) {
    if (i > 0 && i % TERMS_PER_SLICE === 0) yield;
    const other = related(term);
    const more = other !== null && other !== term && (frequency.get(other)! > frequency.get(term)! || (frequency.get(other) === frequency.get(term) && other < term));
    own.set(term, more ? other : term);
  }
  /** The term a word of the knowledge base is compared as. */
  const standFor = (term: string): string => own.get(term) ?? term;

  function resolve(term: string): string {
    if (frequency.has(term)) return standFor(term);
    const other = related(term);
    if (other) return standFor(other);
    if (isWord(term)) return term;
    if (term.length >= MIN_TYPO_CHARS && term.length <= MAX_TYPO_CHARS && /^[a-z]+$/.test(term)) {
      const slip = mostUsed(oneEditAway(term));
      if (slip) return standFor(slip);
    }
    return clipped(term) ?? term;
  }
  const compoundsOf = (term: string): readonly string[] => {
    if (!compounds || frequency.has(term) || resolve(term) !== term) return [];
    const terms = longerWords(term);
    return terms.size > 1 && terms.size <= MAX_CLIPPED ? [...terms] : [];
  };
  return { resolve, standFor, compoundsOf };
}
