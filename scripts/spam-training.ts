// The learning parts of scripts/train-spam.ts: logistic regression by stochastic gradient
// descent (L2-regularised, seeded shuffling, so every run gives the same weights) and the
// choice of the decision threshold on held-aside validation scores.

import { linearScore } from '../src/pipeline/spam/classifier.ts';
import { featureValue } from '../src/pipeline/spam/text.ts';

export interface Example { buckets: number[]; spam: boolean }
export interface TrainingOptions { buckets: number; epochs: number; l2: number; learningRate: number; seed: number }
export interface LogisticModel { weights: Float64Array }

export function trainLogistic(examples: readonly Example[], options: TrainingOptions): LogisticModel {
  // w = scale × v lets the L2 shrinkage of all weights be one multiplication per step.
  const v = new Float64Array(options.buckets);
  let scale = 1;
  let step = 0;
  const order = examples.map((_, index) => index);
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    shuffle(order, mulberry32(options.seed + epoch));
    for (const index of order) {
      const example = examples[index]!;
      const rate = options.learningRate / (1 + options.learningRate * options.l2 * step++);
      const x = featureValue(example.buckets.length);
      let sum = 0;
      for (const bucket of example.buckets) sum += v[bucket]!;
      const predicted = 1 / (1 + Math.exp(-(scale * sum * x)));
      const gradient = predicted - (example.spam ? 1 : 0);
      scale *= 1 - rate * options.l2;
      const delta = (rate * gradient * x) / scale;
      for (const bucket of example.buckets) v[bucket]! -= delta;
      if (scale < 1e-6) {
        for (let i = 0; i < v.length; i++) v[i]! *= scale;
        scale = 1;
      }
    }
  }
  for (let i = 0; i < v.length; i++) v[i]! *= scale;
  return { weights: v };
}

export function predictLogit(model: { weights: ArrayLike<number> }, buckets: readonly number[]): number {
  return linearScore(model.weights, buckets);
}

export interface ScoredExample { logit: number; phraseScore: number; formScore: number; spam: boolean }
export interface Decision { phraseWeight: number; formWeight: number; thresholdLogit: number; recall: number; falsePositiveRate: number }

/**
 * For each pair of candidate weights (spam phrases × other form signals), the lowest threshold that keeps the
 * validation false-positive rate within `maxFalsePositiveRate`, counting the examples whose form-signal score
 * alone reaches `overrideScore` as flagged whatever the threshold. The pair with the best recall wins (ties: the
 * larger weights, so the web-form heuristics keep as much say as the e-mail corpus allows).
 */
export function chooseDecision(
  scored: readonly ScoredExample[],
  candidates: { phraseWeights: readonly number[]; formWeights: readonly number[] },
  maxFalsePositiveRate: number,
  overrideScore: number,
): Decision {
  const hamCount = scored.filter((example) => !example.spam).length;
  const spamCount = scored.length - hamCount;
  const overridden = (example: ScoredExample) => example.formScore >= overrideScore;
  const overriddenHams = scored.filter((example) => !example.spam && overridden(example)).length;
  const overriddenSpams = scored.filter((example) => example.spam && overridden(example)).length;
  const rest = scored.filter((example) => !overridden(example));
  const allowed = Math.max(0, Math.floor(maxFalsePositiveRate * hamCount) - overriddenHams);
  let best: Decision | undefined;
  for (const phraseWeight of candidates.phraseWeights) {
    for (const formWeight of candidates.formWeights) {
      const combined = (example: ScoredExample) => example.logit + phraseWeight * example.phraseScore + formWeight * example.formScore;
      const hams = rest.filter((example) => !example.spam).map(combined).sort((a, b) => b - a);
      const spams = rest.filter((example) => example.spam).map(combined);
      const thresholdLogit = thresholdAbove(hams[allowed], [...hams, ...spams]);
      const recall = (overriddenSpams + spams.filter((value) => value >= thresholdLogit).length) / spamCount;
      const falsePositiveRate = (overriddenHams + hams.filter((value) => value >= thresholdLogit).length) / hamCount;
      if (!best || recall >= best.recall) best = { phraseWeight, formWeight, thresholdLogit, recall, falsePositiveRate };
    }
  }
  if (!best) throw new Error('chooseDecision needs at least one candidate weight');
  return best;
}

/** Halfway between the highest ham that must stay below and the next score up; everything flagged when no ham must stay below. */
function thresholdAbove(highestRejected: number | undefined, values: readonly number[]): number {
  if (highestRejected === undefined) return Math.min(...values);
  const next = values.reduce((lowest, value) => (value > highestRejected && value < lowest ? value : lowest), Infinity);
  return next === Infinity ? highestRejected + 1 : (highestRejected + next) / 2;
}

/** Deterministic pseudo-random numbers in [0, 1): the same sequence for the same seed. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: T[], random: () => number): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
}
