// Scores both offline strategies on the held-out test split. Used by eval-spam.ts and by the tests.

import { checkIntelligent, checkStandard } from '../src/pipeline/spam/index.ts';
import type { SpamClassifier } from '../src/pipeline/spam/classifier.ts';
import { loadCorpus, splitCorpus, toSpamInput, type CorpusMessage } from './spam-corpus.ts';

export interface Figures {
  truePositives: number;
  falsePositives: number;
  trueNegatives: number;
  falseNegatives: number;
  precision: number;
  recall: number;
  f1: number;
  falsePositiveRate: number;
}

export async function heldOutMessages(): Promise<CorpusMessage[]> {
  return splitCorpus(await loadCorpus()).test;
}

export async function evaluateStrategies(messages: readonly CorpusMessage[], classifier?: SpamClassifier): Promise<{ standard: Figures; intelligent: Figures }> {
  const standard: boolean[] = [];
  const intelligent: boolean[] = [];
  for (const message of messages) {
    const input = toSpamInput(message);
    standard.push(checkStandard(input).spam);
    intelligent.push((await checkIntelligent(input, null, classifier)).spam);
  }
  const truth = messages.map((message) => message.spam);
  return { standard: figures(standard, truth), intelligent: figures(intelligent, truth) };
}

export function figures(predicted: readonly boolean[], truth: readonly boolean[]): Figures {
  let truePositives = 0;
  let falsePositives = 0;
  let trueNegatives = 0;
  let falseNegatives = 0;
  predicted.forEach((spam, index) => {
    if (truth[index]) spam ? truePositives++ : falseNegatives++;
    else spam ? falsePositives++ : trueNegatives++;
  });
  const precision = ratio(truePositives, truePositives + falsePositives);
  const recall = ratio(truePositives, truePositives + falseNegatives);
  return {
    truePositives, falsePositives, trueNegatives, falseNegatives, precision, recall,
    f1: ratio(2 * precision * recall, precision + recall),
    falsePositiveRate: ratio(falsePositives, falsePositives + trueNegatives),
  };
}

function ratio(numerator: number, denominator: number): number {
  return denominator === 0 ? 0 : numerator / denominator;
}
