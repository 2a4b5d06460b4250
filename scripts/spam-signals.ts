// How often each heuristic fires on the spam and on the legitimate messages of every set, so that a signal is
// kept where the data shows it helps. Reads the training and validation parts only (never the held-out
// parts). The validation part of the self-written text-message spam is among them, marked as such: it was written
// to check the text-message signals and cannot show how common their patterns are in the world.
//   node scripts/spam-signals.ts [signal-id …]   (with ids: also prints the legitimate messages they fire on)

import { standardSignals } from '../src/pipeline/spam/standard.ts';
import { loadSets, type LabelledMessage } from './spam-sets.ts';

const shown = new Set(process.argv.slice(2));
const { train, validation } = await loadSets();
const messages: LabelledMessage[] = [...train, ...validation];
const sets = [...new Set(messages.map((message) => message.set))];
const counts = new Map<string, Map<string, { spam: number; ham: number }>>();
const totals = new Map(sets.map((set) => [set, { spam: 0, ham: 0 }]));
for (const message of messages) {
  const total = totals.get(message.set)!;
  message.spam ? total.spam++ : total.ham++;
  for (const hit of standardSignals(message.input)) {
    const bySet = counts.get(hit.id) ?? new Map<string, { spam: number; ham: number }>();
    const entry = bySet.get(message.set) ?? { spam: 0, ham: 0 };
    message.spam ? entry.spam++ : entry.ham++;
    bySet.set(message.set, entry);
    counts.set(hit.id, bySet);
    if (!message.spam && shown.has(hit.id)) console.log(`${hit.id} on ${message.set} ham: ${JSON.stringify(message.input.data.message).slice(0, 160)} (${hit.detail})`);
  }
}
const label = (set: string) => (set === 'sms' ? 'sms (self-written)' : set);
console.log(`signal: spam fired / spam, legitimate fired / legitimate, per set (training and validation parts)`);
console.log(`sets: ${sets.map((set) => `${label(set)} ${totals.get(set)!.spam}/${totals.get(set)!.ham}`).join(', ')}`);
for (const [id, bySet] of [...counts].sort((a, b) => a[0].localeCompare(b[0]))) {
  const cells = sets.flatMap((set) => {
    const entry = bySet.get(set);
    return entry ? [`${label(set)} ${entry.spam}/${entry.ham}`] : [];
  });
  console.log(`${id.padEnd(20)} ${cells.join(', ')}`);
}
