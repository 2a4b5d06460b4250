// Prints how both offline spam strategies do on the held-out test split of the SpamAssassin corpus.
//   node scripts/eval-spam.ts
// The corpus is e-mail, not web forms: `standard` is tuned for form spam and catches little of it.

import { evaluateStrategies, heldOutMessages, type Figures } from './spam-evaluation.ts';

const started = performance.now();
const messages = await heldOutMessages();
const spam = messages.filter((message) => message.spam).length;
console.log(`held-out split: ${messages.length} messages (${spam} spam, ${messages.length - spam} ham)\n`);
const results = await evaluateStrategies(messages);

const header = ['strategy', 'TP', 'FP', 'TN', 'FN', 'precision', 'recall', 'F1', 'FP rate'];
const rows = Object.entries(results).map(([name, result]: [string, Figures]) => [
  name, String(result.truePositives), String(result.falsePositives), String(result.trueNegatives), String(result.falseNegatives),
  percent(result.precision), percent(result.recall), percent(result.f1), percent(result.falsePositiveRate),
]);
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
for (const row of [header, ...rows]) console.log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  '));
console.log(`\n(intelligent = standard heuristics + local text classifier, no language model; ${((performance.now() - started) / 1000).toFixed(1)} s)`);

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}
