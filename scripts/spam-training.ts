// The learning parts of scripts/train-spam.ts: logistic regression by stochastic gradient
// descent (L2-regularised, seeded shuffling, so every run gives the same weights) and the
// choice of the decision threshold on held-aside validation scores.

import { linearScore } from '../src/pipeline/spam/classifier.ts';
import { featureValue } from '../src/pipeline/spam/text.ts';

/** `weight` (default 1) multiplies the example's gradient: how much one example of its set counts. */
export interface Example { buckets: number[]; spam: boolean; weight?: number }
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
      const gradient = (predicted - (example.spam ? 1 : 0)) * (example.weight ?? 1);
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

/** `overridden`: flagged by signals that decide whatever the score (see overridingSignals). */
export interface ScoredExample { logit: number; phraseScore: number; formScore: number; spam: boolean; group: string; overridden: boolean }
export interface Decision { phraseWeight: number; formWeight: number; thresholdLogit: number; recall: number; falsePositiveRate: number }

/** The most false positives allowed per group (set), as a share of its legitimate messages; groups not named allow `otherwise`. */
export interface FalsePositiveBudget { perGroup: Readonly<Record<string, number>>; otherwise: number }

function allowedShare(budget: number | FalsePositiveBudget, group: string): number {
  return typeof budget === 'number' ? budget : (budget.perGroup[group] ?? budget.otherwise);
}

/**
 * For each pair of candidate weights (text heuristics × form signals the classifier cannot see), the lowest
 * threshold that keeps the validation false-positive rate within its budget in EVERY group (set) that has
 * legitimate examples, counting the overridden examples as flagged whatever the threshold. The pair with the best
 * mean recall over the groups with spam wins (ties: the larger weights, so the heuristics keep as much say as the
 * data allows).
 */
export function chooseDecision(
  scored: readonly ScoredExample[],
  candidates: { phraseWeights: readonly number[]; formWeights: readonly number[] },
  budget: number | FalsePositiveBudget,
): Decision {
  const overridden = (example: ScoredExample) => example.overridden;
  const groups = [...new Set(scored.map((example) => example.group))];
  let best: Decision | undefined;
  for (const phraseWeight of candidates.phraseWeights) {
    for (const formWeight of candidates.formWeights) {
      const combined = (example: ScoredExample) => example.logit + phraseWeight * example.phraseScore + formWeight * example.formScore;
      let thresholdLogit = -Infinity;
      for (const group of groups) {
        const members = scored.filter((example) => example.group === group);
        const hams = members.filter((example) => !example.spam);
        if (hams.length === 0) continue;
        const allowed = Math.max(0, Math.floor(allowedShare(budget, group) * hams.length) - hams.filter(overridden).length);
        const ranked = hams.filter((example) => !overridden(example)).map(combined).sort((a, b) => b - a);
        thresholdLogit = Math.max(thresholdLogit, thresholdAbove(ranked[allowed], members.map(combined)));
      }
      const flagged = (example: ScoredExample) => overridden(example) || combined(example) >= thresholdLogit;
      const { recall, falsePositiveRate } = meanRecall(scored, groups, flagged);
      if (!best || recall >= best.recall) best = { phraseWeight, formWeight, thresholdLogit, recall, falsePositiveRate };
    }
  }
  if (!best) throw new Error('chooseDecision needs at least one candidate weight');
  return best;
}

export interface ScoredBySignals { score: number; spam: boolean; group: string }

/**
 * The `standard` strategy's threshold: the lowest candidate at which no group's validation false-positive rate
 * exceeds its budget (recall only falls as the threshold rises, so the lowest that holds is the best). When
 * none holds, the highest candidate.
 */
export function chooseScoreThreshold(scored: readonly ScoredBySignals[], candidates: readonly number[], budget: FalsePositiveBudget): { threshold: number; recall: number; falsePositiveRate: number } {
  const groups = [...new Set(scored.map((example) => example.group))];
  const sorted = [...candidates].sort((a, b) => a - b);
  const holds = (threshold: number) => groups.every((group) => {
    const hams = scored.filter((example) => example.group === group && !example.spam);
    return hams.filter((example) => example.score >= threshold).length <= Math.floor(allowedShare(budget, group) * hams.length);
  });
  const threshold = sorted.find(holds) ?? sorted.at(-1)!;
  return { threshold, ...meanRecall(scored, groups, (example) => example.score >= threshold) };
}

/** Recall averaged over the groups with spam (each set counts the same), and the false-positive rate over all legitimate examples. */
function meanRecall<T extends { spam: boolean; group: string }>(scored: readonly T[], groups: readonly string[], flagged: (example: T) => boolean): { recall: number; falsePositiveRate: number } {
  const recalls = groups.map((group) => scored.filter((example) => example.group === group && example.spam)).filter((spams) => spams.length > 0)
    .map((spams) => spams.filter(flagged).length / spams.length);
  const hams = scored.filter((example) => !example.spam);
  return { recall: recalls.reduce((sum, value) => sum + value, 0) / Math.max(1, recalls.length), falsePositiveRate: hams.filter(flagged).length / Math.max(1, hams.length) };
}

/** Halfway between the highest ham that must stay below and the next score up; everything flagged when no ham must stay below. */
function thresholdAbove(highestRejected: number | undefined, values: readonly number[]): number {
  if (highestRejected === undefined) return Math.min(...values);
  const next = values.reduce((lowest, value) => (value > highestRejected && value < lowest ? value : lowest), Infinity);
  return next === Infinity ? highestRejected + 1 : (highestRejected + next) / 2;
}

export interface Calibration { slope: number; intercept: number }

/**
 * Platt scaling: the logistic curve sigmoid(slope × score + intercept) that best fits the labels of held-out
 * scores (Newton's method on the log-loss, with Platt's smoothed targets so no score is mapped to a certain 0 or 1).
 */
export function fitCalibration(scores: readonly number[], labels: readonly boolean[]): Calibration {
  const positives = labels.filter(Boolean).length;
  const negatives = labels.length - positives;
  const high = (positives + 1) / (positives + 2);
  const low = 1 / (negatives + 2);
  let slope = 1;
  let intercept = 0;
  for (let iteration = 0; iteration < 100; iteration++) {
    let g0 = 0, g1 = 0, h00 = 1e-9, h01 = 0, h11 = 1e-9;
    scores.forEach((score, index) => {
      const p = 1 / (1 + Math.exp(-(slope * score + intercept)));
      const error = p - (labels[index] ? high : low);
      const w = p * (1 - p);
      g0 += error * score;
      g1 += error;
      h00 += w * score * score;
      h01 += w * score;
      h11 += w;
    });
    const determinant = h00 * h11 - h01 * h01;
    if (Math.abs(determinant) < 1e-12) break;
    const stepSlope = (h11 * g0 - h01 * g1) / determinant;
    const stepIntercept = (h00 * g1 - h01 * g0) / determinant;
    slope -= stepSlope;
    intercept -= stepIntercept;
    if (Math.abs(stepSlope) + Math.abs(stepIntercept) < 1e-9) break;
  }
  return { slope, intercept };
}

export interface ReliabilityBin { from: number; to: number; count: number; meanConfidence: number; spamShare: number }

/** Confidence in ten equal bins against the share of spam actually in each: a calibrated model keeps them close. */
export function reliabilityCurve(confidences: readonly number[], labels: readonly boolean[], bins = 10): ReliabilityBin[] {
  const sums = Array.from({ length: bins }, () => ({ count: 0, confidence: 0, spam: 0 }));
  confidences.forEach((confidence, index) => {
    const bin = sums[Math.min(bins - 1, Math.floor(confidence * bins))]!;
    bin.count++;
    bin.confidence += confidence;
    if (labels[index]) bin.spam++;
  });
  return sums.map((bin, index) => ({
    from: index / bins, to: (index + 1) / bins, count: bin.count,
    meanConfidence: bin.count ? bin.confidence / bin.count : 0, spamShare: bin.count ? bin.spam / bin.count : 0,
  }));
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

/**
 * The owner's-inbox operating point: the cost of a threshold is the mean share of spam missed over the groups
 * with spam plus `falsePositiveCost` times the mean false-positive rate over the groups with legitimate messages
 * (each group counting the same, so no large set outweighs the small ones), and the cheapest threshold wins among
 * those that keep every group within its cap (the targets, where there are some). With a cost of 10, flagging
 * 1 % of a set's legitimate messages has to buy 10 points of mean recall.
 */
export interface CostChoice {
  falsePositiveCost: number;
  caps: FalsePositiveBudget;
  /**
   * Log-odds added to every legitimate validation message's score while `intelligent`'s threshold is chosen: the
   * threshold is chosen as if each scored that much more spam-like, so that it does not settle just above the highest
   * legitimate message of a few dozen (the hand-written sets' validation parts are small).
   */
  legitimateMargin?: number;
}
export interface CostDecision extends Decision { cost: number }

export function chooseDecisionByCost(
  scored: readonly ScoredExample[],
  candidates: { phraseWeights: readonly number[]; formWeights: readonly number[] },
  choice: CostChoice,
): CostDecision {
  let best: CostDecision | undefined;
  for (const phraseWeight of candidates.phraseWeights) {
    for (const formWeight of candidates.formWeights) {
      const margin = choice.legitimateMargin ?? 0;
      const scores = scored.map((example) => (example.overridden ? Infinity : example.logit + phraseWeight * example.phraseScore + formWeight * example.formScore + (example.spam ? 0 : margin)));
      const swept = cheapestThreshold(scored, scores, choice);
      if (!best || swept.cost < best.cost - 1e-12 || (Math.abs(swept.cost - best.cost) <= 1e-12 && phraseWeight + formWeight > best.phraseWeight + best.formWeight)) {
        best = { phraseWeight, formWeight, thresholdLogit: swept.threshold, recall: swept.recall, falsePositiveRate: swept.falsePositiveRate, cost: swept.cost };
      }
    }
  }
  if (!best) throw new Error('chooseDecisionByCost needs at least one candidate weight');
  return best;
}

/** `standard`'s threshold among fixed candidates, by the same cost and caps. */
export function chooseScoreThresholdByCost(scored: readonly ScoredBySignals[], candidates: readonly number[], choice: CostChoice): { threshold: number; recall: number; falsePositiveRate: number; cost: number } {
  const asExamples = scored.map((example) => ({ logit: example.score, phraseScore: 0, formScore: 0, spam: example.spam, group: example.group, overridden: false }));
  let best: { threshold: number; recall: number; falsePositiveRate: number; cost: number } | undefined;
  for (const threshold of [...candidates].sort((a, b) => a - b)) {
    const result = costAt(asExamples, (example) => example.logit >= threshold, choice);
    if (result.withinCaps && (!best || result.cost < best.cost - 1e-12)) best = { threshold, ...result };
  }
  return best ?? { threshold: Math.max(...candidates), ...costAt(asExamples, (example) => example.logit >= Math.max(...candidates), choice) };
}

/** Sweeps the threshold down through every distinct score (midpoints between them), keeping per-group counts. */
function cheapestThreshold(scored: readonly ScoredExample[], scores: readonly number[], choice: CostChoice): { threshold: number; recall: number; falsePositiveRate: number; cost: number } {
  const order = scores.map((_, index) => index).sort((a, b) => scores[b]! - scores[a]!);
  const groups = [...new Set(scored.map((example) => example.group))];
  const totals = new Map(groups.map((group) => [group, { spam: 0, ham: 0, caught: 0, flagged: 0 }]));
  for (const example of scored) totals.get(example.group)![example.spam ? 'spam' : 'ham']++;
  const spamGroups = groups.filter((group) => totals.get(group)!.spam > 0);
  const hamGroups = groups.filter((group) => totals.get(group)!.ham > 0);
  const hamCount = scored.filter((example) => !example.spam).length;
  let flaggedHams = 0;
  let best = { threshold: Infinity, recall: 0, falsePositiveRate: 0, cost: Infinity };
  const evaluate = (threshold: number) => {
    const recall = spamGroups.reduce((sum, group) => sum + totals.get(group)!.caught / totals.get(group)!.spam, 0) / Math.max(1, spamGroups.length);
    const meanFalsePositives = hamGroups.reduce((sum, group) => sum + totals.get(group)!.flagged / totals.get(group)!.ham, 0) / Math.max(1, hamGroups.length);
    const withinCaps = hamGroups.every((group) => totals.get(group)!.flagged <= Math.floor(allowedShare(choice.caps, group) * totals.get(group)!.ham));
    const cost = 1 - recall + choice.falsePositiveCost * meanFalsePositives;
    if (withinCaps && cost < best.cost - 1e-12) best = { threshold, recall, falsePositiveRate: flaggedHams / Math.max(1, hamCount), cost };
  };
  const finite = order.filter((index) => Number.isFinite(scores[index]!));
  for (const index of order.filter((candidate) => !Number.isFinite(scores[candidate]!))) flag(index);
  evaluate(finite.length ? scores[finite[0]!]! + 1 : 0);
  for (let position = 0; position < finite.length; position++) {
    const index = finite[position]!;
    flag(index);
    const next = finite[position + 1];
    if (next !== undefined && scores[next] === scores[index]) continue;
    evaluate(next === undefined ? scores[index]! - 1e-6 : (scores[index]! + scores[next]!) / 2);
  }
  return best;

  function flag(index: number): void {
    const example = scored[index]!;
    const counts = totals.get(example.group)!;
    if (example.spam) counts.caught++;
    else {
      counts.flagged++;
      flaggedHams++;
    }
  }
}

function costAt(scored: readonly ScoredExample[], flagged: (example: ScoredExample) => boolean, choice: CostChoice): { recall: number; falsePositiveRate: number; cost: number; withinCaps: boolean } {
  const groups = [...new Set(scored.map((example) => example.group))];
  const { recall, falsePositiveRate } = meanRecall(scored, groups, flagged);
  const hamGroups = groups.map((group) => scored.filter((example) => example.group === group && !example.spam)).filter((hams) => hams.length > 0);
  const rates = hamGroups.map((hams) => hams.filter(flagged).length / hams.length);
  const withinCaps = hamGroups.every((hams) => hams.filter(flagged).length <= Math.floor(allowedShare(choice.caps, hams[0]!.group) * hams.length));
  return { recall, falsePositiveRate, withinCaps, cost: 1 - recall + (choice.falsePositiveCost * rates.reduce((sum, rate) => sum + rate, 0)) / Math.max(1, rates.length) };
}

/**
 * `low`'s floor: the lowest threshold above `from` (midpoints between distinct validation scores, the weights
 * given) at which the validation mean recall is at least `drop` below its value at `from`. When the cost choice
 * for `low` lands on `balanced`'s point (no false positive left on validation for the higher cost to avoid), this
 * still makes `low` measurably stricter. Validation only, like every other choice here.
 */
export function raiseUntilRecallDrops(
  scored: readonly ScoredExample[], weights: { phraseWeight: number; formWeight: number }, from: number, drop: number,
): { threshold: number; recall: number; falsePositiveRate: number } {
  const scores = scored.map((example) => (example.overridden ? Infinity : example.logit + weights.phraseWeight * example.phraseScore + weights.formWeight * example.formScore));
  const groups = [...new Set(scored.filter((example) => example.spam).map((example) => example.group))];
  const spamTotal = new Map(groups.map((group) => [group, scored.filter((example) => example.spam && example.group === group).length]));
  const caught = new Map(groups.map((group) => [group, scored.filter((example, index) => example.spam && example.group === group && scores[index]! >= from).length]));
  const hamCount = scored.filter((example) => !example.spam).length;
  let flaggedHams = scored.filter((example, index) => !example.spam && scores[index]! >= from).length;
  const recall = () => groups.reduce((sum, group) => sum + caught.get(group)! / spamTotal.get(group)!, 0) / Math.max(1, groups.length);
  const base = recall();
  // Every finite score at or above `from`, lowest first: raising the threshold past one unflags its examples.
  const order = scores.map((_, index) => index).filter((index) => Number.isFinite(scores[index]!) && scores[index]! >= from).sort((a, b) => scores[a]! - scores[b]!);
  for (let position = 0; position < order.length; position++) {
    const example = scored[order[position]!]!;
    if (example.spam) caught.set(example.group, caught.get(example.group)! - 1);
    else flaggedHams--;
    const next = order[position + 1];
    if (next !== undefined && scores[next] === scores[order[position]!]) continue;
    if (recall() <= base - drop + 1e-12) {
      const threshold = next === undefined ? scores[order[position]!]! + 1e-6 : (scores[order[position]!]! + scores[next]!) / 2;
      return { threshold, recall: recall(), falsePositiveRate: flaggedHams / Math.max(1, hamCount) };
    }
  }
  const threshold = order.length ? scores[order.at(-1)!]! + 1e-6 : from;
  return { threshold, recall: recall(), falsePositiveRate: flaggedHams / Math.max(1, hamCount) };
}
