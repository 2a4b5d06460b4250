// How fast the owner's corrections teach on the web-form kinds (issue 35): the owner marks the validation part's
// supplier and agency introductions "not spam" and its web-form spam "spam", k of each in file order, and the
// held-out parts (never marked) are judged again with what those marks taught. Prints, per k, the held-out
// introductions flagged and the held-out web-form spam caught under both strategies.
//   node scripts/spam-correction-speed.ts

import { countsFromCorrections, feedbackFeatures } from '../src/pipeline/spam/owner-feedback.ts';
import { classifierText } from '../src/pipeline/spam/submission-text.ts';
import { loadSets, type LabelledMessage } from './spam-sets.ts';
import { verdictsOf } from './spam-evaluation.ts';

const { validation, test } = await loadSets();
const marked = {
  introductions: validation.filter((message) => message.set === 'introductions'),
  spam: validation.filter((message) => message.set === 'webforms' && message.spam),
};
const judged = test.filter((message) => message.set === 'introductions' || message.set === 'webforms');
const flagged = (verdicts: { spam: boolean }[], pick: (message: LabelledMessage) => boolean) => judged.filter((message, index) => pick(message) && verdicts[index]!.spam).length;
const introductions = (message: LabelledMessage) => message.set === 'introductions';
const webSpam = (message: LabelledMessage) => message.set === 'webforms' && message.spam;
const webHam = (message: LabelledMessage) => message.set === 'webforms' && !message.spam;
console.log(`held out: ${judged.filter(introductions).length} introductions, ${judged.filter(webSpam).length} web-form spam, ${judged.filter(webHam).length} web-form enquiries`);
console.log('marks of each kind | standard: introductions flagged, spam caught, enquiries flagged | intelligent: the same');
for (const k of [0, 1, 2, 4, 8, 16, Math.max(marked.introductions.length, marked.spam.length)]) {
  const corrections = [
    ...marked.introductions.slice(0, k).map((message) => ({ buckets: feedbackFeatures(classifierText(message.input)), spam: false })),
    ...marked.spam.slice(0, k).map((message) => ({ buckets: feedbackFeatures(classifierText(message.input)), spam: true })),
  ];
  const counts = k === 0 ? null : countsFromCorrections(corrections);
  const verdicts = await verdictsOf(judged.map((message) => ({ ...message, input: { ...message.input, ownerFeedback: counts } })));
  const cells = (['standard', 'intelligent'] as const).map((strategy) => `${flagged(verdicts[strategy], introductions)}, ${flagged(verdicts[strategy], webSpam)}, ${flagged(verdicts[strategy], webHam)}`);
  console.log(`${String(k).padStart(2)} | ${cells.join(' | ')}`);
}

// The same campaign again: how many marks of a message's own text turn its next copy's verdict (at most 8).
console.log('\ncopies: marks of the same text needed to turn the next copy (held-out messages judged wrong; "-" = not within 8)');
for (const strategy of ['standard', 'intelligent'] as const) {
  const before = (await verdictsOf(judged))[strategy];
  const wrong = judged.filter((message, index) => before[index]!.spam !== message.spam);
  const needed: Array<{ kind: string; marks: string }> = [];
  for (const message of wrong) {
    const buckets = feedbackFeatures(classifierText(message.input));
    let marks = 0;
    for (let k = 1; k <= 8 && marks === 0; k++) {
      const counts = countsFromCorrections(Array.from({ length: k }, () => ({ buckets, spam: message.spam })));
      if ((await verdictsOf([{ ...message, input: { ...message.input, ownerFeedback: counts } }]))[strategy][0]!.spam === message.spam) marks = k;
    }
    needed.push({ kind: message.spam ? 'spam missed' : `${message.set} flagged`, marks: marks ? String(marks) : '-' });
  }
  for (const kind of new Set(needed.map((entry) => entry.kind))) {
    const tally = Object.entries(needed.filter((entry) => entry.kind === kind).reduce<Record<string, number>>((sum, { marks }) => ({ ...sum, [marks]: (sum[marks] ?? 0) + 1 }), {}));
    console.log(`${strategy}, ${kind}: marks needed (marks: messages) ${tally.sort().map(([marks, n]) => `${marks}: ${n}`).join(', ')}`);
  }
}
