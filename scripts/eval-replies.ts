// Measures offline smart replies on StackFAQ (../shared/data/faq; StackExchange content, CC BY-SA,
// from Karan and Šnajder 2018 via ML-Recipes/BERT-FAQ). Five folds: in each, one fifth of the
// threads is held out and the knowledge base is made of the others (question and answers as a Q&A
// pair); the paraphrases of knowledge-base threads are the answerable submissions, the questions and
// paraphrases of held-out threads the unanswerable ones. Threads are also split in two by a hash:
// the answer rule is chosen on the validation half, and the figures are reported on the test half
// with the rule the code ships (src/knowledge/answerability.ts).
//   npm run eval:replies [-- path/to/stackexchange-faq.json]
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ANSWER_RULE, type AnswerRule } from '../src/knowledge/answerability.ts';
import { splitPassages } from '../src/knowledge/passages.ts';
import { buildIndex, type Match } from '../src/knowledge/retrieval.ts';
import { composeReply } from '../src/replies/compose.ts';
import { ungroundedSentences } from '../src/replies/grounding.ts';
import { answerFromMatches, CANDIDATES } from '../src/replies/offline.ts';

interface Thread { question: string; answer: string | string[]; rephr: Array<string | null> }
type Part = 'validation' | 'test';
/** One submission against one fold's knowledge base; `right` is the position of its thread's passage, null when unanswerable. */
interface Trial { part: Part; right: number | null; matches: Match[]; fold: number }

const FOLDS = 5;
const file = process.argv[2] ?? path.resolve(import.meta.dirname, '../../shared/data/faq/stackexchange-faq.json');
const threads = (JSON.parse(fs.readFileSync(file, 'utf8')) as { root: { qapair: Thread[] } }).root.qapair;
const hash = (text: string, salt: string) => createHash('sha256').update(salt + text).digest().readUInt32BE(0);
const foldOf = (t: Thread) => hash(t.question, 'fold') % FOLDS;
const partOf = (t: Thread): Part => (hash(t.question, 'part') % 2 === 0 ? 'validation' : 'test');
// An answer line that looks like a question or answer marker would start a new pair.
const safe = (text: string) => text.replace(/^(\s*)(Q|A|Question|Answer)(\s*[:.)])/gim, '$1- $2$3');
const usable = (text: string | null): text is string => typeof text === 'string' && text.trim().length >= 4;

const trials: Trial[] = [];
const contents: string[] = [];
let answerableCount = 0;
let unanswerableCount = 0;
for (let fold = 0; fold < FOLDS; fold += 1) {
  const kbThreads = threads.filter((t) => foldOf(t) !== fold);
  const content = kbThreads.map((t) => `Q: ${safe(t.question)}\nA: ${safe([t.answer].flat().join('\n\n'))}`).join('\n\n');
  const passages = splitPassages(content);
  if (passages.length !== kbThreads.length) throw new Error(`fold ${fold}: expected ${kbThreads.length} passages, got ${passages.length}`);
  contents.push(content);
  const index = buildIndex(passages);
  kbThreads.forEach((t, position) => {
    for (const text of t.rephr.filter(usable)) trials.push({ part: partOf(t), right: position, matches: index.search(text, CANDIDATES), fold });
  });
  for (const t of threads.filter((t) => foldOf(t) === fold)) {
    for (const text of [t.question, ...t.rephr].filter(usable)) trials.push({ part: partOf(t), right: null, matches: index.search(text, CANDIDATES), fold });
  }
}
answerableCount = trials.filter((t) => t.right !== null).length;
unanswerableCount = trials.length - answerableCount;

interface Figures { replies: number; right: number; answerable: number; answered: number; unanswerable: number; wronglyAnswered: number; ungrounded: number }

function evaluate(rule: AnswerRule, part: Part, checkGrounding: boolean): Figures {
  const f: Figures = { replies: 0, right: 0, answerable: 0, answered: 0, unanswerable: 0, wronglyAnswered: 0, ungrounded: 0 };
  for (const trial of trials) {
    if (trial.part !== part) continue;
    const found = answerFromMatches(trial.matches, rule);
    if (trial.right === null) f.unanswerable += 1;
    else f.answerable += 1;
    if (!found) continue;
    f.replies += 1;
    if (trial.right === null) f.wronglyAnswered += 1;
    else {
      f.answered += 1;
      if (found[0]?.position === trial.right) f.right += 1;
    }
    if (checkGrounding) {
      const reply = composeReply({ name: 'Ada', passages: found.map((p) => p.body), signature: 'The support team', formName: 'Help' });
      f.ungrounded += ungroundedSentences(reply.body, `${contents[trial.fold]}\nThe support team`, reply.templateLines).length;
    }
  }
  return f;
}

const precision = (f: Figures) => (f.replies === 0 ? 1 : f.right / f.replies);
const coverage = (f: Figures) => f.answered / f.answerable;
const falseAnswers = (f: Figures) => f.wronglyAnswered / f.unanswerable;
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

// Validation: the widest coverage that keeps precision ≥ 95 % and unanswerable answered ≤ 5 %.
const grid: AnswerRule[] = [];
for (let c = 0.02; c <= 0.801; c += 0.01) grid.push({ minConfidence: +c.toFixed(2) });
const scored = grid.map((rule) => ({ rule, f: evaluate(rule, 'validation', false) }));
const meeting = scored.filter(({ f }) => precision(f) >= 0.95 && falseAnswers(f) <= 0.05).sort((a, b) => coverage(b.f) - coverage(a.f));
const chosen = meeting[0] ?? scored.sort((a, b) => precision(b.f) - precision(a.f))[0]!;

console.log(`StackFAQ: ${threads.length} threads, ${FOLDS} folds (each holds out a fifth of the threads; the knowledge base is the rest)`);
console.log(`trials: ${answerableCount} answerable paraphrases, ${unanswerableCount} unanswerable (held-out questions and paraphrases)\n`);
console.log(`validation: widest-coverage rule meeting the targets: margin × coverage ≥ ${chosen.rule.minConfidence}`
  + ` (precision ${pct(precision(chosen.f))}, coverage ${pct(coverage(chosen.f))}, unanswerable answered ${pct(falseAnswers(chosen.f))})`);
const shipped = ANSWER_RULE.minConfidence === chosen.rule.minConfidence;
console.log(`shipped rule (src/knowledge/answerability.ts): margin × coverage ≥ ${ANSWER_RULE.minConfidence}${shipped ? ' (the same)' : ' — DIFFERS from the validation choice'}\n`);

const test = evaluate(ANSWER_RULE, 'test', true);
console.log(`test part (${test.answerable} answerable, ${test.unanswerable} unanswerable trials), shipped rule:`);
console.log(`  precision (replies that carry the right passage)   ${pct(precision(test))}  (${test.right} of ${test.replies})`);
console.log(`  coverage (answerable questions that get a reply)   ${pct(coverage(test))}  (${test.answered} of ${test.answerable})`);
console.log(`  unanswerable questions answered                    ${pct(falseAnswers(test))}  (${test.wronglyAnswered} of ${test.unanswerable})`);
console.log(`  reply sentences in neither the KB nor the template ${test.ungrounded}`);
const met = precision(test) >= 0.95 && coverage(test) >= 0.4 && falseAnswers(test) <= 0.05 && test.ungrounded === 0;
console.log(`\ntargets (precision ≥ 95 %, coverage ≥ 40 %, unanswerable answered ≤ 5 %, 0 ungrounded): ${met ? 'met' : 'NOT met'}`);
