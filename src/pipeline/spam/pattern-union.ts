// Lists of patterns of which most messages match none (the spam phrases, the promotion lists): one pass of their
// union over the text says so, where asking each in turn scans it once per pattern. Only when the union matches are
// the patterns asked one by one, so what matches, and in which order, is what asking each would give.

/**
 * A pattern that matches wherever one of `patterns` does. Each must have the flag `u` alone (a union has one set of
 * flags) and no backreference (the union renumbers groups). A union of linear patterns is linear.
 */
export function unionOf(patterns: readonly RegExp[]): RegExp {
  for (const pattern of patterns) {
    if (pattern.flags !== 'u' || /\\[1-9]/u.test(pattern.source)) throw new Error(`unionOf: /${pattern.source}/${pattern.flags} cannot join a union`);
  }
  return new RegExp(patterns.map((pattern) => `(?:${pattern.source})`).join('|'), 'u');
}
