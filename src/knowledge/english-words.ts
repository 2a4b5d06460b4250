// Whether an English stem is that of a word people actually use, by SUBTLEX-US (word counts in the
// subtitles of American films and series): a question's word that is a real word of its own
// ("piercings") is not a one-letter slip for the knowledge base's word ("pieces"), whereas
// "apointment" or "reciept" are (vocabulary.ts). The stems are built once, by
// scripts/english-stems.ts, into english-stems.txt beside this file.
import fs from 'node:fs';

let stems: Set<string> | null = null;

export function isEnglishStem(stem: string): boolean {
  // Read on the first question that needs it, once (a few milliseconds, 160 KB; about 2 MB of
  // memory): a server that answers no English question never reads it.
  stems ??= new Set(fs.readFileSync(new URL('./english-stems.txt', import.meta.url), 'utf8').split('\n').filter(Boolean));
  return stems.has(stem);
}
