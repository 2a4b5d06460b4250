// Prints how both offline strategies do on the held-out splits, per set: precision, recall, F1, false-positive
// rate, the reliability curve of `intelligent`'s confidence, and false positives by script.
//   node scripts/eval-spam.ts

import { heldOutMessages, falsePositivesByScript, figures, reliability, verdictsOf, type Figures, type Strategy, type Verdicts } from './spam-evaluation.ts';
import type { LabelledMessage, SetName } from './spam-sets.ts';

const started = performance.now();
const messages = await heldOutMessages();
const verdicts = await verdictsOf(messages);
const sets = [...new Set(messages.map((message) => message.set))];

console.log('Held-out splits (never seen by training; `multilingual` is hand-written and evaluation-only)\n');
const rows: string[][] = [];
for (const set of sets) {
  const indexes = messages.flatMap((message, index) => (message.set === set ? [index] : []));
  const truth = indexes.map((index) => messages[index]!.spam);
  for (const strategy of ['standard', 'intelligent'] as Strategy[]) {
    const result = figures(indexes.map((index) => verdicts[strategy][index]!.spam), truth);
    rows.push(row(set, strategy, truth, result));
  }
}
table(['set', 'strategy', 'spam', 'ham', 'TP', 'FP', 'TN', 'FN', 'precision', 'recall', 'F1', 'FP rate'], rows);

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
console.log(`\n(intelligent = standard heuristics + local text classifier, no language model; ${((performance.now() - started) / 1000).toFixed(1)} s)`);

function row(set: SetName, strategy: string, truth: boolean[], result: Figures): string[] {
  const spam = truth.filter(Boolean).length;
  return [
    set, strategy, String(spam), String(truth.length - spam), String(result.truePositives), String(result.falsePositives), String(result.trueNegatives), String(result.falseNegatives),
    spam ? percent(result.precision) : '–', spam ? percent(result.recall) : '–', spam ? percent(result.f1) : '–', percent(result.falsePositiveRate),
  ];
}

export function table(header: string[], body: string[][]): void {
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => cells[column]!.length)));
  for (const cells of [header, ...body]) console.log(cells.map((cell, column) => (column <= 1 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  '));
}

export function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

export type { LabelledMessage, Verdicts };
