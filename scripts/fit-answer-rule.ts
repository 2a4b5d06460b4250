// Fits the answer rule's weights (src/knowledge/answerability.ts) by logistic regression on the
// POOLED validation parts of every source, each source weighing the same, and chooses its threshold
// as the evaluation does: the lowest that keeps every unanswerable limit and the most precision
// targets on validation. Held-out parts are never read here.
//   node scripts/fit-answer-rule.ts [--features coverage2margin,coverage,margin,heading,unknown,terms,score]
// A part is a positive example when its knowledge base answers it and the sentence the rule would
// quote is right; a question of a message with several is not used for fitting (which of them a
// right reply answered is not known), but every message counts when the threshold is chosen.
import { askedTypes } from '../src/knowledge/answer-types.ts';
import type { PassageIndex } from '../src/knowledge/retrieval.ts';
import { answerParts, replyPieces, type Answer, type PartAnswer } from '../src/replies/offline.ts';
import { smallBusinessTrials, squadTrials, stackFaqTrials, type SourceName, type Trial } from './reply-sources.ts';

/** What a rule may weigh: the best sentence's coverage and the part from its heading, BM25 of the best passage, the question's terms and the share of their weight the knowledge base never uses. */
interface AnswerFeatures { coverage: number; heading: number; margin: number; score: number; terms: number; unknown: number; kinds: number }

/**
 * Worked out here, not by every reply: only this script reads them. `searched` is what answerParts
 * searched with: the whole message when it asks one question, else the question.
 */
function featuresOf(index: PassageIndex, p: PartAnswer, searched: string): AnswerFeatures {
  const { terms, unknown } = index.questionWeights(p.question);
  return {
    coverage: p.best?.coverage ?? 0, heading: p.best ? p.best.coverage - p.best.own : 0, margin: p.margin,
    score: index.search(searched, 1)[0]?.score ?? 0, terms, unknown, kinds: askedTypes(p.question).length,
  };
}
/** Features as the fitted rule would read them. */
const FEATURES = {
  coverage2margin: (f: AnswerFeatures) => f.coverage * f.coverage * f.margin,
  coverage: (f: AnswerFeatures) => f.coverage,
  margin: (f: AnswerFeatures) => f.margin,
  heading: (f: AnswerFeatures) => f.heading,
  unknown: (f: AnswerFeatures) => f.unknown,
  terms: (f: AnswerFeatures) => Math.log(1 + f.terms),
  score: (f: AnswerFeatures) => Math.log(1 + f.score),
} satisfies Record<string, (f: AnswerFeatures) => number>;
type FeatureName = keyof typeof FEATURES;

const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const chosenFeatures = (arg('--features')?.split(',') ?? Object.keys(FEATURES)) as FeatureName[];
const LIMITS: Record<SourceName, { precision: number; falseAnswers: number | null }> = {
  'small business': { precision: 0.95, falseAnswers: 0.05 },
  'small business, fresh 3': { precision: 0.95, falseAnswers: 0.05 },
  'small business, fresh 12': { precision: 0.95, falseAnswers: 0.05 },
  StackFAQ: { precision: 0.95, falseAnswers: 0.05 },
  'SQuAD 2.0': { precision: 0.85, falseAnswers: null },
};
const SOURCES = Object.keys(LIMITS) as SourceName[];

const trials = [...smallBusinessTrials(), ...stackFaqTrials(), ...squadTrials()].filter((t) => t.part === 'validation');
const scored = trials.map((trial) => ({ trial, answer: answerParts(trial.index, trial.message, { minConfidence: 0 }) }));
const usable = (p: PartAnswer) => p.best !== null && !p.typeMissing;
const features = new Map<PartAnswer, AnswerFeatures>();
for (const { trial, answer } of scored) {
  for (const p of answer.parts) features.set(p, featuresOf(trial.index, p, answer.parts.length === 1 ? trial.message : p.question));
}
/** --region X: fit only on questions whose coverage² × margin reaches X, where the threshold will fall. */
const region = Number(arg('--region') ?? 0);
const vector = (p: PartAnswer) => [1, ...chosenFeatures.map((name) => FEATURES[name](features.get(p)!))];

// Examples: single-question messages, labelled by whether the quote at setting 0 is right.
const examples: Array<{ x: number[]; y: number; w: number }> = [];
for (const source of SOURCES) {
  const mine = scored.filter((s) => s.trial.source === source && s.answer.parts.length === 1 && usable(s.answer.parts[0]!) && s.answer.parts[0]!.confidence >= region);
  for (const { trial, answer } of mine) {
    const { quotes } = replyPieces(answer);
    const y = trial.right !== null && trial.right(quotes, answer.passages.map((p) => p.position)) ? 1 : 0;
    examples.push({ x: vector(answer.parts[0]!), y, w: 1 / mine.length });
  }
}

/** Newton's method on the weighted log-loss with a small ridge (not on the intercept). */
function fit(): number[] {
  const d = examples[0]!.x.length;
  let beta = new Array<number>(d).fill(0);
  const ridge = 1e-4;
  for (let iter = 0; iter < 50; iter += 1) {
    const grad = new Array<number>(d).fill(0);
    const hess = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    for (const { x, y, w } of examples) {
      const p = 1 / (1 + Math.exp(-x.reduce((s, v, i) => s + v * beta[i]!, 0)));
      for (let i = 0; i < d; i += 1) {
        grad[i]! += w * (p - y) * x[i]!;
        for (let j = 0; j < d; j += 1) hess[i]![j]! += w * p * (1 - p) * x[i]! * x[j]!;
      }
    }
    for (let i = 1; i < d; i += 1) { grad[i]! += ridge * beta[i]!; hess[i]![i]! += ridge; }
    const step = solve(hess, grad);
    beta = beta.map((b, i) => b - step[i]!);
    if (Math.max(...step.map(Math.abs)) < 1e-9) break;
  }
  return beta;
}

function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c += 1) {
    let pivot = c;
    for (let r = c + 1; r < n; r += 1) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r;
    [m[c], m[pivot]] = [m[pivot]!, m[c]!];
    for (let r = 0; r < n; r += 1) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k += 1) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

const beta = fit();
const score = (p: PartAnswer) => 1 / (1 + Math.exp(-vector(p).reduce((s, v, i) => s + v * beta[i]!, 0)));

function decide(answer: Answer, judge: (p: PartAnswer) => boolean): Answer {
  const parts = answer.parts.map((p) => (usable(p) && judge(p) ? p : { ...p, answered: false, quote: [] }));
  return { parts, passages: answer.passages.filter((passage) => parts.some((p) => p.answered && p.best!.sentence.passage === passage)) };
}

function figures(judge: (p: PartAnswer) => boolean) {
  return SOURCES.map((source) => {
    let answerable = 0, answered = 0, right = 0, unanswerable = 0, wrong = 0;
    for (const { trial, answer } of scored) {
      if (trial.source !== source) continue;
      const decided = decide(answer, judge);
      const replied = replyPieces(decided).quotes.length > 0;
      if (trial.right === null) { unanswerable += 1; if (replied) wrong += 1; continue; }
      answerable += 1;
      if (replied) { answered += 1; if (trial.right(replyPieces(decided).quotes, decided.passages.map((p) => p.position))) right += 1; }
    }
    const limit = LIMITS[source];
    const precision = limit.falseAnswers === null ? (answered ? right / answered : 1) : (answered + wrong ? right / (answered + wrong) : 1);
    const falseAnswers = unanswerable ? wrong / unanswerable : 0;
    return { source, precision, coverage: answered / answerable, falseAnswers, limitKept: limit.falseAnswers === null || falseAnswers <= limit.falseAnswers, precisionKept: precision >= limit.precision };
  });
}

function choose(judgeAt: (t: number) => (p: PartAnswer) => boolean, settings: number[]) {
  const runs = settings.map((t) => ({ t, f: figures(judgeAt(t)) }));
  const safe = runs.filter((r) => r.f.every((s) => s.limitKept));
  const pool = safe.length > 0 ? safe : runs;
  const most = Math.max(...pool.map((r) => r.f.filter((s) => s.precisionKept).length));
  return pool.find((r) => r.f.filter((s) => s.precisionKept).length === most)!;
}
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const show = (label: string, r: { t: number; f: ReturnType<typeof figures> }) => {
  console.log(`${label}, threshold ${r.t}:`);
  for (const s of r.f) console.log(`  ${s.source.padEnd(15)} right ${pct(s.precision)}, answered ${pct(s.coverage)}, unanswerable answered ${pct(s.falseAnswers)}`);
};

const grid = (from: number, to: number, step: number) => { const out: number[] = []; for (let t = from; t <= to + 1e-9; t += step) out.push(+t.toFixed(3)); return out; };
console.log(`examples: ${examples.length} single questions (${examples.filter((e) => e.y === 1).length} answered right at setting 0), sources weighing the same`);
console.log(`weights: intercept ${beta[0]!.toFixed(3)}, ${chosenFeatures.map((f, i) => `${f} ${beta[i + 1]!.toFixed(3)}`).join(', ')}`);
show('logistic rule on validation', choose((t) => (p) => score(p) >= t, grid(0.05, 0.99, 0.005)));
show('coverage² × margin on validation', choose((t) => (p) => p.confidence >= t, grid(0.05, 0.95, 0.01)));
if (process.argv.includes('--curve')) {
  for (const t of grid(0.3, 0.95, 0.05)) show('curve', { t, f: figures((p) => score(p) >= t) });
}
