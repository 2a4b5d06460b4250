// Measures the heap a passage index holds, to check the model src/knowledge/index-cache.ts budgets by:
//   node --expose-gc scripts/knowledge-index-memory.ts
// Knowledge bases of several sizes are made from the sample bases in scripts/data/knowledge (each copy's
// longer words given a suffix of its own, so that a large base has a vocabulary that grows as real
// text does); for each size, a number of indexes are built and kept, and the heap after a full
// collection is compared before and after.
import fs from 'node:fs';
import path from 'node:path';
import { estimatedIndexBytes } from '../src/knowledge/index-cache.ts';
import { splitPassages } from '../src/knowledge/passages.ts';
import { buildIndex } from '../src/knowledge/retrieval.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const dir = path.join(import.meta.dirname, 'data/knowledge');
const samples = fs.readdirSync(dir).filter((f) => /\.(md|txt)$/.test(f)).map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));

function knowledgeBase(bytes: number, seed: number): string {
  let text = '';
  for (let copy = 0; Buffer.byteLength(text) < bytes; copy++) {
    const sample = samples[(seed + copy) % samples.length]!;
    const suffix = copy === 0 ? '' : `${String.fromCharCode(97 + (copy % 26))}${String.fromCharCode(97 + (Math.floor(copy / 26) % 26))}`;
    text += `${sample.replace(/\b([a-z]{5,})\b/g, (word) => word + suffix)}\n\n`;
  }
  return text;
}

console.log('| Text | Indexes | Heap per index | Per character | Estimate |\n|---|---|---|---|---|');
for (const [bytes, count] of [[2_000, 20], [16_000, 10], [64_000, 5], [512 * 1024, 2]] as const) {
  const bases = Array.from({ length: count }, (_, i) => splitPassages(knowledgeBase(bytes, i)));
  buildIndex(bases[0]!); // loads what the first index loads once (stemmer, stop words, synonyms)
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept = bases.map((passages) => buildIndex(passages));
  gc();
  const perIndex = (process.memoryUsage().heapUsed - before) / kept.length;
  const chars = bases.reduce((sum, passages) => sum + passages.reduce((s, p) => s + p.body.length + (p.heading?.length ?? 0), 0), 0) / count;
  const estimate = bases.reduce((sum, passages) => sum + estimatedIndexBytes(passages), 0) / count;
  console.log(`| ${(chars / 1024).toFixed(0)} K characters | ${kept.length} | ${(perIndex / 1024).toFixed(0)} KB | ${(perIndex / chars).toFixed(1)} B | ${(estimate / 1024).toFixed(0)} KB |`);
}
