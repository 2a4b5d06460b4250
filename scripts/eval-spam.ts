// Prints how both offline strategies do on the held-out parts, per set: precision, recall, F1, false-positive
// rate against the targets of issue 27, with the thresholds chosen on the validation parts (never these); then
// the reliability curve of `intelligent`'s confidence, false positives by script, and the effect of replaying
// corrections through the owner's adaptive layer.
//   node scripts/eval-spam.ts

import { heldOutMessages, falsePositivesByScript, figures, halves, reliability, targetCheck, verdictsOf, TARGETS, type Figures, type Strategy } from './spam-evaluation.ts';
import { countsFromCorrections, feedbackFeatures } from '../src/pipeline/spam/owner-feedback.ts';
import { defaultClassifier } from '../src/pipeline/spam/classifier.ts';
import { classifierText } from '../src/pipeline/spam/submission-text.ts';
import type { LabelledMessage } from './spam-sets.ts';

const started = performance.now();
const messages = await heldOutMessages();
const verdicts = await verdictsOf(messages);
const sets = [...new Set(messages.map((message) => message.set))];
const { decision } = defaultClassifier();

console.log('Held-out parts (never read by training nor by the choice of thresholds; `multilingual` and `sms` are hand-written and never trained on)');
console.log(`Thresholds chosen on the validation parts of all sets at once: standard ${decision.standardThreshold} (heuristic points); intelligent ${decision.thresholdLogit} (log-odds of classifier + ${decision.phraseWeight} × text heuristics + ${decision.formWeight} × form signals)\n`);
const groups: Array<[string, (message: LabelledMessage) => boolean]> = [
  ...sets.map((set): [string, (message: LabelledMessage) => boolean] => [set, (message) => message.set === set]),
  ['banking+clinc', (message) => message.set === 'banking' || message.set === 'clinc'],
  ['own enquiries', (message) => message.set === 'enquiries' || (message.set === 'multilingual' && !message.spam)],
];
const rows: string[][] = [];
for (const [group, member] of groups) {
  const indexes = messages.flatMap((message, index) => (member(message) ? [index] : []));
  const truth = indexes.map((index) => messages[index]!.spam);
  for (const strategy of ['standard', 'intelligent'] as Strategy[]) {
    const result = figures(indexes.map((index) => verdicts[strategy][index]!.spam), truth);
    rows.push([...row(group, strategy, truth, result), targetCheck(TARGETS[group]?.[strategy], result)]);
  }
}
table(['set', 'strategy', 'spam', 'ham', 'TP', 'FP', 'TN', 'FN', 'precision', 'recall', 'F1', 'FP rate', 'target (issue 27)'], rows);

console.log('\nPer sensitivity (the form\'s spam_sensitivity; balanced is the table above): recall, and false positives of the legitimate messages');
const sensitivityRows: string[][] = [];
for (const sensitivity of ['low', 'balanced', 'high'] as const) {
  const moved = sensitivity === 'balanced' ? verdicts : await verdictsOf(messages.map((message) => ({ ...message, input: { ...message.input, sensitivity } })));
  for (const [group, member] of groups) {
    const indexes = messages.flatMap((message, index) => (member(message) ? [index] : []));
    const truth = indexes.map((index) => messages[index]!.spam);
    for (const strategy of ['standard', 'intelligent'] as Strategy[]) {
      const result = figures(indexes.map((index) => moved[strategy][index]!.spam), truth);
      const spam = truth.filter(Boolean).length;
      sensitivityRows.push([group, strategy, sensitivity, spam ? `${percent(result.recall)} (${result.truePositives}/${spam})` : '–', `${result.falsePositives}/${truth.length - spam}`]);
    }
  }
}
table(['set', 'strategy', 'sensitivity', 'recall', 'FP'], sensitivityRows);

console.log('\nReliability of `intelligent` spam_confidence, all held-out sets (confidence bin: messages, mean confidence, share that is spam)');
table(['bin', 'messages', 'mean confidence', 'spam share'], reliability(messages, verdicts.intelligent).filter((bin) => bin.count > 0)
  .map((bin) => [`${bin.from.toFixed(1)}–${bin.to.toFixed(1)}`, String(bin.count), percent(bin.meanConfidence), percent(bin.spamShare)]));

console.log('\nLegitimate messages by script: false positives and mean spam_confidence');
const scriptRows: string[][] = [];
for (const strategy of ['standard', 'intelligent'] as Strategy[]) {
  for (const [script, entry] of [...falsePositivesByScript(messages, verdicts[strategy])].sort((a, b) => b[1].ham - a[1].ham)) {
    scriptRows.push([strategy, script, String(entry.ham), String(entry.flagged), percent(entry.meanConfidence)]);
  }
}
table(['strategy', 'script', 'ham', 'FP', 'mean confidence'], scriptRows);
console.log('\nLearning from corrections: each set\'s held-out split halved; the owner corrects every wrong verdict on the first half,');
console.log('then the second half is judged again with what those corrections taught (accuracy, recall, FP rate on the second half)');
const replayRows: string[][] = [];
for (const set of sets) {
  const { first, second } = halves(messages.filter((message) => message.set === set));
  for (const strategy of ['standard', 'intelligent'] as Strategy[]) {
    const firstVerdicts = (await verdictsOf(first))[strategy];
    const corrections = first.flatMap((message, index) => (firstVerdicts[index]!.spam === message.spam ? [] : [{ buckets: feedbackFeatures(classifierText(message.input)), spam: message.spam }]));
    const counts = countsFromCorrections(corrections);
    const truth = second.map((message) => message.spam);
    const before = figures((await verdictsOf(second))[strategy].map((verdict) => verdict.spam), truth);
    const afterwards = figures((await verdictsOf(second.map((message) => ({ ...message, input: { ...message.input, ownerFeedback: counts } }))))[strategy].map((verdict) => verdict.spam), truth);
    replayRows.push([set, strategy, String(corrections.length), String(second.length), percent(accuracy(before)), percent(accuracy(afterwards)), percent(before.recall), percent(afterwards.recall), percent(before.falsePositiveRate), percent(afterwards.falsePositiveRate)]);
  }
}
table(['set', 'strategy', 'corrections', 'judged', 'accuracy before', 'after', 'recall before', 'after', 'FP rate before', 'after'], replayRows);

console.log(`\n(intelligent = standard heuristics + local text classifier, no language model; ${((performance.now() - started) / 1000).toFixed(1)} s)`);

function row(set: string, strategy: string, truth: boolean[], result: Figures): string[] {
  const spam = truth.filter(Boolean).length;
  return [
    set, strategy, String(spam), String(truth.length - spam), String(result.truePositives), String(result.falsePositives), String(result.trueNegatives), String(result.falseNegatives),
    spam ? percent(result.precision) : '–', spam ? percent(result.recall) : '–', spam ? percent(result.f1) : '–', percent(result.falsePositiveRate),
  ];
}

function table(header: string[], body: string[][]): void {
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => cells[column]!.length)));
  for (const cells of [header, ...body]) console.log(cells.map((cell, column) => (column <= 1 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  '));
}

function accuracy(result: Figures): number {
  const all = result.truePositives + result.falsePositives + result.trueNegatives + result.falseNegatives;
  return all === 0 ? 0 : (result.truePositives + result.trueNegatives) / all;
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}
