// eld's medium n-gram table, held compactly. eld ships its tables as JavaScript object literals: importing
// `eld/medium` parses 2 MB of source into 105,548 small objects, about 59 MB of heap kept for good and some
// 150 MB of resident memory at its peak while V8 compiles the literal (docs/memory.md). The same
// table, written once by `npm run language:table` into language-table.bin (about 1 MB), is read here into
// a hash table of offsets in that buffer (1 MB; a Map of n-gram strings took about 6 MB), and eld's own detector is given an object
// that answers its look-ups from it, so detection is eld's code on eld's numbers (test/language-table.test.ts
// checks both against `eld/medium`).
import fs from 'node:fs';

export const TABLE_FILE = new URL('./language-table.bin', import.meta.url);

/** eld's table as its ngrams files export it: n-gram → { language index: score }. */
export interface NgramsData {
  type: string;
  languages: Record<string, string>;
  ngrams: Record<string, Record<string, number>>;
}

/**
 * The file: a JSON header line with the table's type and languages, then for each n-gram its length, its
 * characters (eld writes UTF-8 bytes as characters below 256, one byte each here), its number of languages
 * and a (language index, score) byte pair for each.
 */
export function encodeTable(data: NgramsData): Buffer {
  const header = Buffer.from(`${JSON.stringify({ type: data.type, languages: data.languages })}\n`);
  const parts: Buffer[] = [header];
  for (const [ngram, scores] of Object.entries(data.ngrams)) {
    const entries = Object.entries(scores);
    const record = Buffer.alloc(2 + ngram.length + 2 * entries.length);
    record[0] = ngram.length;
    record.write(ngram, 1, 'latin1');
    record[1 + ngram.length] = entries.length;
    entries.forEach(([language, score], i) => {
      if (score > 255 || Number(language) > 255 || [...ngram].some((c) => c.charCodeAt(0) > 255)) throw new Error(`n-gram ${ngram} does not fit a byte`);
      record[2 + ngram.length + 2 * i] = Number(language);
      record[3 + ngram.length + 2 * i] = score;
    });
    parts.push(record);
  }
  return Buffer.concat(parts);
}

/**
 * Where each n-gram's record starts, found by hashing: an open-addressing table of record offsets in a
 * typed array (1 MB for eld's 105,548 n-grams), where a Map from n-gram strings held about 6 MB of keys
 * and buckets. A look-up hashes the n-gram's characters and compares them with the file's bytes.
 */
function ngramIndex(file: Buffer, from: number): { slots: Uint32Array; find(ngram: string): number } {
  let count = 0;
  for (let at = from; at < file.length; count++) at += 2 + (file[at] as number) + 2 * (file[at + 1 + (file[at] as number)] as number);
  let size = 1;
  while (size < count * 2) size *= 2;
  const mask = size - 1;
  // 0 is "empty": a record never starts at 0, which is the header's.
  const slots = new Uint32Array(size);
  const hashBytes = (at: number, length: number) => {
    let hash = 0x811c9dc5;
    for (let i = 0; i < length; i++) hash = Math.imul(hash ^ (file[at + i] as number), 0x01000193);
    return hash >>> 0;
  };
  for (let at = from; at < file.length;) {
    const length = file[at] as number;
    let slot = hashBytes(at + 1, length) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = at;
    at += 2 + length + 2 * (file[at + 1 + length] as number);
  }
  const find = (ngram: string): number => {
    let hash = 0x811c9dc5;
    for (let i = 0; i < ngram.length; i++) hash = Math.imul(hash ^ ngram.charCodeAt(i), 0x01000193);
    for (let slot = (hash >>> 0) & mask; ; slot = (slot + 1) & mask) {
      const at = slots[slot] as number;
      if (at === 0) return -1;
      if (file[at] !== ngram.length) continue;
      let same = true;
      for (let i = 0; i < ngram.length && same; i++) same = file[at + 1 + i] === ngram.charCodeAt(i);
      if (same) return at + 1 + ngram.length;
    }
  };
  return { slots, find };
}

/** The table in the shape eld's detector reads (`ngrams[ngram]` then `for (language in scores)`), built per look-up. */
export function decodeTable(file: Buffer): NgramsData {
  const headerEnd = file.indexOf(0x0a);
  const { type, languages } = JSON.parse(file.toString('utf8', 0, headerEnd)) as Omit<NgramsData, 'ngrams'>;
  const index = ngramIndex(file, headerEnd + 1);
  const scoresAt = (at: number) => {
    const scores: Record<number, number> = {};
    for (let i = 0, count = file[at] as number; i < count; i++) scores[file[at + 1 + 2 * i] as number] = file[at + 2 + 2 * i] as number;
    return scores;
  };
  const ngrams = new Proxy({} as Record<string, Record<string, number>>, {
    get: (_, ngram) => {
      const at = typeof ngram === 'string' ? index.find(ngram) : -1;
      return at === -1 ? undefined : scoresAt(at);
    },
    has: (_, ngram) => typeof ngram === 'string' && index.find(ngram) !== -1,
  });
  return { type, languages, ngrams };
}

export const readTable = (): NgramsData => decodeTable(fs.readFileSync(TABLE_FILE));
