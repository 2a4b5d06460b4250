// Lists what both strategies get wrong on the validation parts of chosen sets (the parts rules and thresholds
// may be chosen on), with each message's score, confidence and signals, so that signals are written against
// validation errors and never against held-out ones. Never reads the held-out parts.
//   node scripts/spam-validation-misses.ts [set …]   (default: webforms introductions)

import { checkIntelligent, checkStandard } from '../src/pipeline/spam/index.ts';
import { loadSets } from './spam-sets.ts';

const wanted = new Set(process.argv.slice(2).length ? process.argv.slice(2) : ['webforms', 'introductions']);
const { validation } = await loadSets();
const counts = new Map<string, { spam: number; ham: number; missed: [number, number]; flagged: [number, number] }>();
for (const message of validation.filter((entry) => wanted.has(entry.set))) {
  const standard = checkStandard(message.input);
  const intelligent = await checkIntelligent(message.input, null);
  const entry = counts.get(message.set) ?? { spam: 0, ham: 0, missed: [0, 0], flagged: [0, 0] };
  entry[message.spam ? 'spam' : 'ham']++;
  const wrong = [standard.spam !== message.spam, intelligent.spam !== message.spam];
  wrong.forEach((isWrong, strategy) => { if (isWrong) entry[message.spam ? 'missed' : 'flagged'][strategy]!++; });
  counts.set(message.set, entry);
  if (!wrong.some(Boolean)) continue;
  const marks = `${wrong[0] ? 'S' : '-'}${wrong[1] ? 'I' : '-'}`;
  console.log(`${message.spam ? 'MISSED ' : 'FLAGGED'} ${marks} ${message.id} i=${intelligent.confidence.toFixed(2)} [${[...new Set([...standard.signals, ...intelligent.signals])].join(',')}]`);
  console.log(`    ${String(message.input.data.message).slice(0, 260).replace(/\s+/gu, ' ')}`);
}
for (const [set, entry] of counts) {
  console.log(`${set}: ${entry.spam} spam, missed standard ${entry.missed[0]} intelligent ${entry.missed[1]}; ${entry.ham} ham, flagged standard ${entry.flagged[0]} intelligent ${entry.flagged[1]}`);
}
