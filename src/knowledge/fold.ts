/** Letters without their accents ("é" → "e", "œ" → "oe"); lower case. How French, Italian and Spanish words are compared (languages.ts). */
export function fold(word: string): string {
  return word.toLowerCase().normalize('NFD').replace(/\p{M}+/gu, '').replace(/œ/g, 'oe').replace(/æ/g, 'ae');
}

/** A light stemmer: the first of `endings` (longest first) a word ends in is cut, when the stem keeps at least `minStem` letters. */
export function endingStemmer(endings: readonly string[], minStem = 3): (folded: string) => string {
  return (folded) => {
    for (const ending of endings) {
      if (folded.endsWith(ending) && folded.length - ending.length >= minStem) return folded.slice(0, -ending.length);
    }
    return folded;
  };
}
