// The business's name in a knowledge base's title ("Jumping Jacks Trampoline Park: Party Packages"):
// two or more capitalised words of its first line that the knowledge base never writes in lower case.
// A heading holding the name is no topic for the thing a price is for (retrieval.ts): "is parking
// free?" is not answered by a price row under "… Trampoline Park" (issue 36, fourteenth round).
// "Party Packages" is no name: the base writes "party" in lower case too. One pass over the text.
import type { Language } from './languages.ts';
import type { Passage } from './passages.ts';
import { termOf } from './terms.ts';

const WORD = /[\p{L}\p{M}'’]+/gu;
/** Small words a name may hold between its capitalised ones ("Vélos du Lac", "Bar & Grill"). */
const JOINS = new Set(['of', 'the', 'and', 'du', 'de', 'des', 'la', 'le', 'di', 'del', 'della', 'von', 'der', 'y', 'e', 'da', 'el']);
/** What ends a run of a name's words in a title: a colon, a dash between spaces, a bar, a dot, a comma, a bracket. */
const BREAKS = ':|·,()/–—';
const startsUpper = (word: string) => word[0] !== word[0]!.toLowerCase();

/** The terms of the business's name, or none when the title names no such run of words. */
export function businessNameTerms(passages: readonly Passage[], language: Language): Set<string> {
  const first = passages[0];
  if (!first) return new Set();
  const title = (first.heading ?? first.body).trimStart().split('\n', 1)[0]!.replace(/^#+/, '').slice(0, 200);
  const lower = new Set<string>();
  for (const p of passages) {
    for (const m of `${p.heading ?? ''}\n${p.body}`.matchAll(WORD)) if (!startsUpper(m[0])) lower.add(m[0].toLowerCase());
  }
  const names: string[] = [];
  let run: string[] = [];
  let capitals = 0;
  const close = () => {
    if (capitals >= 2) names.push(...run);
    run = [];
    capitals = 0;
  };
  let at = 0;
  for (const m of title.matchAll(WORD)) {
    if ([...title.slice(at, m.index)].some((c) => BREAKS.includes(c)) || / - /.test(title.slice(at, m.index))) close();
    at = m.index + m[0].length;
    const word = m[0];
    if (startsUpper(word) && !lower.has(word.toLowerCase())) {
      run.push(word);
      capitals += 1;
    } else if (run.length > 0 && JOINS.has(word)) {
      continue;
    } else {
      close();
    }
  }
  close();
  return new Set(names.map((w) => termOf(w, language)).filter((t): t is string => t !== null));
}
