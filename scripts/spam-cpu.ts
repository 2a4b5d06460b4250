// CPU time per submission of the spam checks alone (no database, no pipeline), on the pipeline benchmark's
// generated submissions: `standard`, `intelligent` (local classifier, no language model), and both again for an
// owner whose corrections the adaptive layer reads. Best of RUNS, as the machine is shared.
//   node scripts/spam-cpu.ts [runs]

import { generateSubmissions } from '../bench/pipeline-corpus.ts';
import { checkIntelligent, checkStandard, type SpamInput } from '../src/pipeline/spam/index.ts';
import { defaultClassifier } from '../src/pipeline/spam/classifier.ts';
import { countsFromCorrections, feedbackFeatures } from '../src/pipeline/spam/owner-feedback.ts';
import { classifierText } from '../src/pipeline/spam/submission-text.ts';
import { CORPUS_FORM_FIELDS } from './spam-corpus.ts';

const RUNS = Number(process.argv[2] ?? 7);
const submissions = generateSubmissions(20_000);
const inputs: SpamInput[] = submissions.map((submission) => ({ formName: 'Contact', intent: null, fields: CORPUS_FORM_FIELDS, data: submission.data, repeatsFromSender: 0 }));
// An owner who corrected 200 submissions, mostly spam that got through: the lookup a check then reads.
const corrections = inputs.slice(0, 200).map((input, index) => ({ buckets: feedbackFeatures(classifierText(input)), spam: index % 10 !== 0 }));
const counts = countsFromCorrections(corrections);
defaultClassifier();

/** Fresh objects every run: nothing a check may remember about an input object carries over. */
async function microsPerSubmission(check: (input: SpamInput) => unknown, feedback: boolean): Promise<number> {
  let best = Infinity;
  for (let run = 0; run < RUNS; run++) {
    const list = inputs.map((input) => ({ ...input, ownerFeedback: feedback ? counts : null }));
    const start = process.cpuUsage();
    for (const input of list) await check(input);
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / list.length);
  }
  return best;
}

const intelligent = (input: SpamInput) => checkIntelligent(input, null);
for (const [label, check, feedback] of [
  ['standard', checkStandard, false], ['intelligent', intelligent, false],
  ['standard, owner with corrections', checkStandard, true], ['intelligent, owner with corrections', intelligent, true],
] as const) {
  console.log(`${label}: ${(await microsPerSubmission(check, feedback)).toFixed(1)} µs CPU per submission (best of ${RUNS}, ${inputs.length} submissions)`);
}
