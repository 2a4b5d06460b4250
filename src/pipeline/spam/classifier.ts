// The local text classifier: loads the committed model (model.json, written by
// scripts/train-spam.ts) and scores text as a spam probability. Pure and deterministic.

import { readFileSync } from 'node:fs';
import { featureBuckets, featureValue, HASH_BITS } from './text.ts';
import { decodeBackground, decodeWeights, MODEL_FORMAT, type OperatingPoint, type SpamModelFile } from './model-file.ts';
import type { SpamSensitivity } from './types.ts';

export interface SpamClassifier {
  /** 0..1: how spam-like the text reads to the model; `buckets`, when given, are the text's featureBuckets, already read. */
  probability(text: string, buckets?: readonly number[]): number;
  readonly decision: SpamModelFile['decision'];
  /** Per content-feature bucket: the share of ordinary legitimate messages that have it. */
  readonly background: ArrayLike<number>;
}

export const DEFAULT_MODEL_URL = new URL('./model.json', import.meta.url);

let committedModel: SpamClassifier | undefined;

/** The committed model, read once: it is a constant of the code, not configuration. */
export function defaultClassifier(): SpamClassifier {
  committedModel ??= loadClassifier(DEFAULT_MODEL_URL);
  return committedModel;
}

export function loadClassifier(file: string | URL): SpamClassifier {
  return classifierFromModel(JSON.parse(readFileSync(file, 'utf8')) as SpamModelFile);
}

export function classifierFromModel(model: SpamModelFile): SpamClassifier {
  if (model.format !== MODEL_FORMAT || model.hashBits !== HASH_BITS) {
    throw new Error(`spam model: expected ${MODEL_FORMAT} with ${HASH_BITS} hash bits, got ${model.format} with ${model.hashBits}`);
  }
  const weights = decodeWeights(model.weights, 2 ** model.hashBits);
  const { decision } = model;
  return {
    decision,
    background: decodeBackground(model.background, 2 ** model.hashBits),
    probability: (text, buckets = featureBuckets(text)) => sigmoid(linearScore(weights, buckets)),
  };
}

/** No intercept: a text without known features scores 0.5, since the corpus' share of spam says nothing about a form's. */
export function linearScore(weights: ArrayLike<number>, buckets: readonly number[]): number {
  let sum = 0;
  for (const bucket of buckets) sum += weights[bucket]!;
  return sum * featureValue(buckets.length);
}

/** The thresholds of a sensitivity; `balanced` (and a model file without the others) gives the decision's own. */
export function operatingPoint(decision: SpamModelFile['decision'], sensitivity: SpamSensitivity = 'balanced'): OperatingPoint {
  const chosen = sensitivity === 'balanced' ? undefined : decision.sensitivities?.[sensitivity];
  return chosen ?? { standardThreshold: decision.standardThreshold, thresholdLogit: decision.thresholdLogit };
}

/** What a combined score means as a probability of spam, by the model's calibration. */
export function calibrated(decision: SpamModelFile['decision'], score: number): number {
  return sigmoid(decision.calibration.slope * score + decision.calibration.intercept);
}

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

export function logit(p: number): number {
  const clamped = Math.min(1 - 1e-9, Math.max(1e-9, p));
  return Math.log(clamped / (1 - clamped));
}
