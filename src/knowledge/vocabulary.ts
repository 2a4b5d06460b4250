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
  /** The term a word of the knowledge base is compared as. */
  standFor(term: string): string;
}

/**
 * `frequency`: in how many passages each term of the knowledge base occurs. `isWord`: whether a term
 * is a word of the language in its own right, never taken as a slip for another ("piercings" is not
 * "pieces"; issue 36, ninth round). Pauses every
 * TERMS_PER_SLICE terms (steps.ts).
 */
export function* vocabularySteps(frequency: ReadonlyMap<string, number>, isWord: (term: string) => boolean = () => false): Steps<Vocabulary> {
  const sorted = [...frequency.keys()].sort();
  const mostUsed = (candidates: Iterable<string>): string | null => {
    let best: string | null = null;
    for (const c of candidates) if (frequency.has(c) && (best === null || frequency.get(c)! > frequency.get(best)!)) best = c;
    return best;
  };
  /** The words of the knowledge base that begin with `term` and are at most MAX_ENDING letters longer. */
  function longer(term: string): string[] {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]! < term) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < sorted.length && sorted[i]!.startsWith(term); i += 1) if (sorted[i]!.length - term.length <= MAX_ENDING) out.push(sorted[i]!);
    return out;
  }

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
    if (term.length >= MIN_TYPO_CHARS && term.length <= MAX_TYPO_CHARS && /^[a-z]+$/.test(term) && !isWord(term)) return standFor(mostUsed(oneEditAway(term)) ?? term);
    return term;
  }
  return { resolve, standFor };
}
