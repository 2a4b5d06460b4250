// Lists of patterns of which most messages match none (the spam phrases, the promotion lists): one pass of their
// union over the text says so, where asking each in turn scans it once per pattern. Only when the union matches are
// the patterns asked one by one, so what matches, and in which order, is what asking each would give.
//
// Why the openings are shared: V8's regular expressions try every alternative at every position of the text, and
// almost all of these alternatives open with `\b`. Written `\b(?:a|b|…)` instead of `\ba|\bb|…`, the boundary is
// asked once per position and fails at once inside words, which are most positions: the spam phrases' union ran
// three times faster on the benchmark's submissions (9.0 to 3.1 µs; issue 35, after its twelfth round). The two forms match the same
// text at the same place, alternative for alternative, as only neighbouring alternatives are joined (a union, which
// only says whether anything matches, brings alike openings together first).

/** Openings that alternatives may share: a word boundary, or no letter before. */
const SHARED_OPENINGS = [String.raw`\b`, String.raw`(?<!\p{L})`];

/** Says whether any of its patterns matches a text. */
export interface PatternUnion {
  test(text: string): boolean;
}

/**
 * A union of `patterns`: it matches a text when one of them does. Each must have the flag `u` alone (a union has one
 * set of flags) and no backreference (the union renumbers groups). A union of linear patterns is linear.
 */
export function unionOf(patterns: readonly RegExp[]): PatternUnion {
  for (const pattern of patterns) {
    if (pattern.flags !== 'u' || /\\[1-9]/u.test(pattern.source)) throw new Error(`unionOf: /${pattern.source}/${pattern.flags} cannot join a union`);
  }
  // Whether any alternative matches does not depend on their order, so alike openings are brought together, one
  // pattern for each: asked in one pattern, a lookbehind's alternatives slowed the boundary's (3 µs more of 9).
  const alternatives = patterns.flatMap((pattern) => topLevelAlternatives(pattern.source));
  const unions = [...SHARED_OPENINGS, ''].map((opening) => alternatives.filter((alternative) => openingOf(alternative) === opening))
    .filter((group) => group.length > 0).map((group) => new RegExp(withSharedOpenings(group), 'u'));
  return { test: (text) => unions.some((union) => union.test(text)) };
}

/** The alternatives of a pattern's source outside any group or class: `a|b(c|d)|[|]` gives `a`, `b(c|d)` and `[|]`. */
export function topLevelAlternatives(source: string): string[] {
  const alternatives: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === '\\') i++;
    else if (inClass) inClass = char !== ']';
    else if (char === '[') inClass = true;
    else if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === '|' && depth === 0) {
      alternatives.push(source.slice(start, i));
      start = i + 1;
    }
  }
  alternatives.push(source.slice(start));
  return alternatives;
}

function openingOf(alternative: string): string {
  return SHARED_OPENINGS.find((opening) => alternative.startsWith(opening)) ?? '';
}

/** The alternatives joined, each run of neighbours that open alike written as the opening and a group of the rest. */
export function withSharedOpenings(alternatives: readonly string[]): string {
  const parts: string[] = [];
  for (let i = 0; i < alternatives.length;) {
    const opening = openingOf(alternatives[i]!);
    let end = i + 1;
    while (opening && end < alternatives.length && openingOf(alternatives[end]!) === opening) end++;
    if (!opening || end - i === 1) parts.push(`(?:${alternatives[i]})`);
    else parts.push(`${opening}(?:${alternatives.slice(i, end).map((alternative) => alternative.slice(opening.length)).join('|')})`);
    i = end;
  }
  return parts.join('|');
}
