// Every verdict of both spam checks, hashed: the labelled sets' three parts and the benchmark's submissions, at `balanced`
// and `high`, with and without an owner's replayed corrections. A change meant only to make the checks faster must print
// the same hashes before and after (docs/spam.md, Cost).
//   node scripts/spam-verdict-hash.ts
import { createHash } from 'node:crypto';
import { generateSubmissions } from '../bench/pipeline-corpus.ts';
import { checkIntelligent, checkStandard, type SpamInput } from '../src/pipeline/spam/index.ts';
import { countsFromCorrections, feedbackFeatures } from '../src/pipeline/spam/owner-feedback.ts';
import { classifierText } from '../src/pipeline/spam/submission-text.ts';
import { loadSets } from './spam-sets.ts';
import { CORPUS_FORM_FIELDS } from './spam-corpus.ts';
const sets = await loadSets();
const labelled = [...sets.train, ...sets.validation, ...sets.test].map((m) => m.input);
const bench = generateSubmissions(20_000).map((s) => ({ formName: 'Contact', intent: null, fields: CORPUS_FORM_FIELDS, data: s.data, repeatsFromSender: 0 }) as SpamInput);
const all = [...labelled, ...bench];
const corrections = all.slice(0, 400).map((input, i) => ({ buckets: feedbackFeatures(classifierText(input)), spam: i % 3 !== 0 }));
const counts = countsFromCorrections(corrections);
let total = 0;
for (const sensitivity of ['balanced', 'high'] as const) for (const fb of [false, true]) {
  const hs = createHash('sha256'), hi = createHash('sha256');
  for (const input of all) {
    const i = { ...input, sensitivity, ownerFeedback: fb ? counts : null } as SpamInput;
    hs.update(JSON.stringify(checkStandard({ ...i }))); hi.update(JSON.stringify(await checkIntelligent({ ...i }, null)));
    total++;
  }
  console.log(sensitivity, fb ? 'corrections' : 'plain', hs.digest('hex').slice(0, 16), hi.digest('hex').slice(0, 16));
}
console.log('inputs', all.length, 'runs', total);
