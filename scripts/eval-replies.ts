// Measures offline smart replies on every source at once (scripts/reply-sources.ts): the answer
// rule's single setting (least coverage) is chosen on the validation parts of all sources, and each
// source is reported on its held-out part with the setting the code ships
// (src/knowledge/answerability.ts). Then the model path, against stand-ins that speak the
// OpenAI chat protocol (scripts/reply-model-eval.ts).
//   npm run eval:replies [-- --validation] [-- --by-kb] [-- --baseline ../other-checkout] [-- --curve]
// --point: choose the gates on the shares rather than their Wilson bounds (the earlier procedure), to compare.
// --at C,K: each source's validation figures at one gate, in both modes.
// --curve: each source's validation figures in `auto` (what it would send) at coverage² × margin 0.1 to 0.6.
// --baseline DIR: another checkout of Intake (beside this one, so that ../shared/data is found from
// it) answers the same held-out trials in the same run, at the setting it ships, for comparison.
import path from 'node:path';
import { GATES, passes, type AnswerRule } from '../src/knowledge/answerability.ts';
import { composeReply } from '../src/replies/compose.ts';
import { ungroundedSentences } from '../src/replies/grounding.ts';
import { answerParts, replyPieces, type Answer } from '../src/replies/offline.ts';
import { wilsonLower, wilsonUpper } from './wilson.ts';
import { evaluateModelPath, passagesHoldingAnswers } from './reply-model-eval.ts';
import { languageOf } from '../src/knowledge/languages.ts';
import { FRESH3_DIR, FRESH12_DIR, smallBusinessTrials, VALIDATION_DIR, squadTrials, stackFaqTrials, type Part, type SourceName, type Trial } from './reply-sources.ts';

interface Scored { trial: Trial; answer: Answer }
interface Figures { answerable: number; answered: number; right: number; unanswerable: number; wronglyAnswered: number; namedUnanswered: number; partial: number; ungrounded: number }

type Targets = Record<SourceName, { precision: number; coverage: number; falseAnswers: number | null }>;
/**
 * Targets per source and mode: least share of replies that are right, least share of answerable
 * questions answered, most unanswerable answered. `auto` sends in the owner's name; `draft` is read
 * by a person first, so it trades precision for coverage; `medium` is the level shown between them.
 * In `draft` and `medium`, StackFAQ's replies to unanswerable questions count against its precision
 * but have no limit of their own: the limit is the small businesses', whose drafts a person reads.
 */
const MODES: Record<'auto' | 'medium' | 'draft', Targets> = {
  auto: {
    'small business': { precision: 0.95, coverage: 0.8, falseAnswers: 0.02 },
    'small business, fresh 3': { precision: 0.95, coverage: 0.8, falseAnswers: 0.02 },
    'small business, fresh 12': { precision: 0.95, coverage: 0.8, falseAnswers: 0.02 },
    StackFAQ: { precision: 0.95, coverage: 0.45, falseAnswers: 0.05 },
    'SQuAD 2.0': { precision: 0.85, coverage: 0.4, falseAnswers: null },
  },
  medium: {
    'small business': { precision: 0.9, coverage: 0.8, falseAnswers: 0.075 },
    'small business, fresh 3': { precision: 0.9, coverage: 0.8, falseAnswers: 0.075 },
    'small business, fresh 12': { precision: 0.9, coverage: 0.8, falseAnswers: 0.075 },
    StackFAQ: { precision: 0.9, coverage: 0.45, falseAnswers: null },
    'SQuAD 2.0': { precision: 0.9, coverage: 0.4, falseAnswers: null },
  },
  draft: {
    'small business': { precision: 0.85, coverage: 0.8, falseAnswers: 0.1 },
    'small business, fresh 3': { precision: 0.85, coverage: 0.8, falseAnswers: 0.1 },
    'small business, fresh 12': { precision: 0.85, coverage: 0.8, falseAnswers: 0.1 },
    StackFAQ: { precision: 0.85, coverage: 0.45, falseAnswers: null },
    'SQuAD 2.0': { precision: 0.85, coverage: 0.4, falseAnswers: null },
  },
};
type Mode = keyof typeof MODES;
const SOURCES = Object.keys(MODES.auto) as SourceName[];
/** The sources with a validation part: the fresh knowledge bases (fresh3/, fresh12/) were written to be held out whole. */
const TUNED = SOURCES.filter((s) => s !== 'small business, fresh 3' && s !== 'small business, fresh 12');

const started = Date.now();
const trials = [...smallBusinessTrials(), ...smallBusinessTrials(VALIDATION_DIR), ...smallBusinessTrials(FRESH3_DIR), ...(process.argv.includes('--validation') ? [] : smallBusinessTrials(FRESH12_DIR)), ...stackFaqTrials(), ...squadTrials()];
// Each question's best sentence does not depend on the setting: found once, judged at every setting.
const scored: Scored[] = trials.map((trial) => ({ trial, answer: answerParts(trial.index, trial.message, { minConfidence: 0 }) }));

/**
 * The answer as the rule with this setting makes it. `sends`: what `auto` mode emails, where a reply
 * that leaves a question of the message unanswered is held for a person, never sent
 * (docs/smart-replies.md, *Several questions*): it counts as declined, not as a reply.
 */
function decide(answer: Answer, gate: AnswerRule, sends = false): Answer {
  const parts = answer.parts.map((p) => (p.best && !p.typeMissing && passes(p.confidence, p.best.coverage, gate) ? p : { ...p, answered: false, quote: [] }));
  const held = sends && parts.some((p) => !p.answered);
  const final = held ? parts.map((p) => ({ ...p, answered: false, quote: [] })) : parts;
  const passages = answer.passages.filter((passage) => final.some((p) => p.answered && p.best!.sentence.passage === passage));
  return { parts: final, passages };
}

function figures(source: SourceName, part: Part, gate: AnswerRule, checkGrounding = false, from: Scored[] = scored, sends = false): Figures {
  const f: Figures = { answerable: 0, answered: 0, right: 0, unanswerable: 0, wronglyAnswered: 0, namedUnanswered: 0, partial: 0, ungrounded: 0 };
  for (const { trial, answer } of from) {
    if (trial.source !== source || trial.part !== part) continue;
    const decided = decide(answer, gate, sends);
    const { quotes, unanswered } = replyPieces(decided);
    const replied = quotes.length > 0;
    if (trial.right === null) {
      f.unanswerable += 1;
      if (replied) f.wronglyAnswered += 1;
    } else {
      f.answerable += 1;
      if (trial.unanswered > 0) f.partial += 1;
      if (replied) {
        f.answered += 1;
        if (trial.right(quotes, decided.passages.map((p) => p.position))) f.right += 1;
        if (trial.unanswered > 0 && unanswered.length > 0) f.namedUnanswered += 1;
      }
    }
    if (checkGrounding && replied) {
      const reply = composeReply({ name: 'Ada', quotes, unanswered, signature: 'The team', formName: 'Contact' });
      f.ungrounded += ungroundedSentences(reply.body, `${trial.content}\nThe team`, reply.templateLines).length;
    }
  }
  return f;
}

const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);
/** Right among all replies made, replies to unanswerable questions counting as wrong. */
const precision = (f: Figures) => (f.answered + f.wronglyAnswered === 0 ? 1 : f.right / (f.answered + f.wronglyAnswered));
/** Right among replies to answerable questions: SQuAD's unanswerable questions are reported apart. */
const answerablePrecision = (f: Figures) => (f.answered === 0 ? 1 : f.right / f.answered);
const coverage = (f: Figures) => ratio(f.answered, f.answerable);
const falseAnswers = (f: Figures) => ratio(f.wronglyAnswered, f.unanswerable);
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
/** SQuAD's unanswerable questions are written to look answerable and are reported apart; elsewhere a reply to one counts as a wrong reply. */
const targetPrecision = (source: SourceName, f: Figures, _targets?: Targets) => (source === 'SQuAD 2.0' ? answerablePrecision(f) : precision(f));
/** The lower end of the 95 % Wilson interval of targetPrecision: what the gates are chosen on. */
const precisionBound = (source: SourceName, f: Figures) => (source === 'SQuAD 2.0' ? wilsonLower(f.right, f.answered) : wilsonLower(f.right, f.answered + f.wronglyAnswered));

/** The upper end of the 95 % Wilson interval of the share of unanswerable questions answered. */
const falseBound = (f: Figures) => wilsonUpper(f.wronglyAnswered, f.unanswerable);
/**
 * What that upper bound must not pass: the limit, or, when the source has too few unanswerable
 * questions for any count to bring the bound under it, the least bound they can give, that of none
 * answered (about 3.84 / (n + 3.84): 2 % needs n ≥ 189; the small businesses' 140 give 2.7 %).
 */
const falseLimit = (limit: number, f: Figures) => Math.max(limit, wilsonUpper(0, f.unanswerable));

/** `--point`: choose on the shares themselves, as before issue 36's sixth round, for comparison (the gates shipped are the bounds'). */
const BOUND = !process.argv.includes('--point');
/**
 * On validation (`bound`), a precision target is met when the Wilson lower bound of the share reaches
 * it, and a limit on unanswerable questions answered when the upper bound stays under it (falseLimit);
 * held out, when the shares do. Until issue 36's eighth round the limit was judged on the share even on
 * validation: `auto` chosen with 1.4 % of 140 (2 sent) then sent 6.1 % and 5.9 % held out.
 */
function meets(source: SourceName, f: Figures, targets: Targets, bound = false): { precision: boolean; coverage: boolean; falseAnswers: boolean } {
  const t = targets[source];
  return {
    precision: (bound ? precisionBound(source, f) : targetPrecision(source, f, targets)) >= t.precision,
    coverage: coverage(f) >= t.coverage,
    falseAnswers: t.falseAnswers === null || (bound ? falseBound(f) <= falseLimit(t.falseAnswers, f) + 1e-12 : falseAnswers(f) <= t.falseAnswers),
  };
}

interface Choice { gate: AnswerRule; bySource: Array<{ source: SourceName; f: Figures }>; limitsKept: boolean; precisionKept: number; answered: number }

function onValidation(gate: AnswerRule, targets: Targets, sends: boolean): Choice {
  const bySource = TUNED.map((source) => ({ source, f: figures(source, 'validation', gate, false, scored, sends) }));
  return {
    gate, bySource,
    limitsKept: bySource.every(({ source, f }) => meets(source, f, targets, BOUND).falseAnswers),
    precisionKept: bySource.filter(({ source, f }) => meets(source, f, targets, BOUND).precision).length,
    // Each source weighs the same, whatever its number of trials.
    answered: bySource.reduce((sum, { f }) => sum + coverage(f), 0),
  };
}

// A precision target is kept on validation when the Wilson lower bound (95 %) of the precision
// reaches it (scripts/wilson.ts): the point estimate chose gates at the edge of their targets, which
// held-out data then missed by 4 to 11 points (issue 36, sixth round). A limit on unanswerable
// questions answered is kept when the upper bound stays under it (meets, falseLimit; eighth round).
// Every mode: of the settings and least coverages that keep every source's precision and
// unanswerable-answered targets, the one answering the most (each source weighing the same). When
// none does, answering what the knowledge base does not say is the worse failure: of those that
// keep every unanswerable limit and the most precision targets, the one answering the most. `auto`
// counts only what it would send (decide, `sends`), up to coverage² × margin 0.6.
function choose(mode: Mode): { chosen: Choice; found: boolean } {
  const targets = MODES[mode];
  const grid: AnswerRule[] = [];
  const top = mode === 'auto' ? 0.6 : GATES.auto.minConfidence;
  for (let c = mode === 'auto' ? 0.05 : 0; c <= top + 1e-9; c += 0.01) {
    for (let k = 0; k <= 0.9 + 1e-9; k += 0.05) grid.push(k === 0 ? { minConfidence: +c.toFixed(2) } : { minConfidence: +c.toFixed(2), minCoverage: +k.toFixed(2) });
  }
  const all = grid.map((gate) => onValidation(gate, targets, mode === 'auto'));
  const safe = all.filter((v) => v.limitsKept);
  const pool = safe.length > 0 ? safe : all;
  const most = Math.max(...pool.map((v) => v.precisionKept));
  const kept = pool.filter((v) => v.precisionKept === most);
  const chosen = kept.reduce((a, b) => (b.answered > a.answered + 1e-9 ? b : a));
  return { chosen, found: safe.length > 0 && most === TUNED.length };
}

const gateText = (g: AnswerRule) => `coverage² × margin ≥ ${g.minConfidence}${g.minCoverage ? `, coverage ≥ ${g.minCoverage}` : ''}`;
const sameGate = (a: AnswerRule, b: AnswerRule) => a.minConfidence === b.minConfidence && (a.minCoverage ?? 0) === (b.minCoverage ?? 0);


// --at C,K: each source's validation figures at coverage² × margin ≥ C and coverage ≥ K, as draft (every reply) and as auto (what it sends).
if (process.argv.includes('--at')) {
  const [c, k] = process.argv[process.argv.indexOf('--at') + 1]!.split(',').map(Number);
  const gate = { minConfidence: c!, minCoverage: k ?? 0 };
  for (const sends of [false, true]) {
    console.log(`${sends ? 'auto' : 'draft'} at ${gateText(gate)}: ` + TUNED.map((source) => { const f = figures(source, 'validation', gate, false, scored, sends); return `${source} ${pct(targetPrecision(source, f))} lb ${pct(precisionBound(source, f))} cov ${pct(coverage(f))} un ${pct(falseAnswers(f))} (${f.wronglyAnswered} of ${f.unanswerable}, ub ${pct(falseBound(f))})`; }).join(' | '));
  }
  process.exit(0);
}
if (process.argv.includes('--curve')) {
  for (let c = 0.1; c <= 0.6001; c += 0.02) {
    const gate = { minConfidence: +c.toFixed(2) };
    console.log(`${gate.minConfidence} ` + TUNED.map((source) => { const f = figures(source, 'validation', gate, false, scored, true); return `${source} ${pct(targetPrecision(source, f))} lb ${pct(precisionBound(source, f))} n ${f.answered + f.wronglyAnswered} cov ${pct(coverage(f))} un ${pct(falseAnswers(f))} ub ${pct(falseBound(f))}`; }).join(' | '));
  }
  process.exit(0);
}
console.log(`sources: ${SOURCES.map((s) => `${s} ${scored.filter((x) => x.trial.source === s).length} trials`).join(', ')} (${((Date.now() - started) / 1000).toFixed(1)} s to answer them all)`);
console.log('\nrule: answer a question when it passes the gate of the mode (src/knowledge/answerability.ts); validation parts of every source but the held-out knowledge bases');
const modes = Object.keys(MODES) as Mode[];
for (const mode of modes) {
  const { chosen, found } = choose(mode);
  const t = MODES[mode]['small business'];
  console.log(`\n${mode} (right ≥ ${t.precision * 100} %, unanswerable ≤ ${t.falseAnswers! * 100} %): ${gateText(chosen.gate)}${found ? '' : ' (no setting keeps every target)'}`);
  for (const { source, f } of chosen.bySource) {
    const limit = MODES[mode][source].falseAnswers;
    const limitText = limit === null ? '' : ` (${f.wronglyAnswered} of ${f.unanswerable}, upper bound ${pct(falseBound(f))}${falseLimit(limit, f) > limit ? `; ${pct(limit)} is out of reach of ${f.unanswerable} questions, so none may be answered` : ''})`;
    console.log(`  ${source.padEnd(15)} right ${pct(targetPrecision(source, f, MODES[mode]))} (lower bound ${pct(precisionBound(source, f))}), answered ${pct(coverage(f))}, unanswerable answered ${pct(falseAnswers(f))}${limitText}`);
  }
  console.log(`  shipped (src/knowledge/answerability.ts): ${gateText(GATES[mode])}${sameGate(GATES[mode], chosen.gate) ? ' (the same)' : ' — DIFFERS from the validation choice'}`);
}
// What the answer-type check (src/knowledge/answer-types.ts) did under the draft gate: questions it declined that the score alone would have answered.
for (const source of TUNED) {
  const typed = scored.filter((s) => s.trial.source === source && s.trial.part === 'validation' && s.answer.parts.some((p) => p.typeMissing && p.best && passes(p.confidence, p.best.coverage, GATES.draft)));
  const answerable = typed.filter((s) => s.trial.right !== null).length;
  console.log(`  ${source.padEnd(15)} declined by the draft gate for want of the kind of answer asked: ${answerable} answerable, ${typed.length - answerable} unanswerable`);
}

/**
 * --by-kb: each small-business knowledge base's figures in both modes at the shipped gates; on
 * validation (with --validation) also summed by the language its base is written in (an "-it" or
 * "-es" name is Italian or Spanish, whatever the tree being run reads it as), to check that one
 * language's change costs no other.
 */
function printByKb(part: Part): void {
  const kbs = [...new Set(scored.filter((s) => s.trial.source.startsWith('small business') && s.trial.part === part).map((s) => s.trial.kb))];
  const languageOfKb = (kb: string, content: string) => (/-(it|es)$/.exec(kb)?.[1] ?? languageOf(content));
  for (const mode of ['auto', 'draft'] as const) {
    console.log(`\n${mode}, ${part}, by knowledge base:`);
    const byLanguage = new Map<string, number[]>();
    for (const kb of kbs) {
      const rows = scored.filter((s) => s.trial.kb === kb && s.trial.part === part && s.trial.source.startsWith('small business'));
      const a = rows.filter((s) => s.trial.right !== null);
      const replied = (s: Scored) => replyPieces(decide(s.answer, GATES[mode], mode === 'auto')).quotes.length > 0;
      const right = (s: Scored) => { const d = decide(s.answer, GATES[mode], mode === 'auto'); return s.trial.right!(replyPieces(d).quotes, d.passages.map((p) => p.position)); };
      const n = [a.filter(replied).length, a.length, a.filter((s) => replied(s) && right(s)).length, rows.filter((s) => s.trial.right === null && replied(s)).length, rows.length - a.length];
      console.log(`  ${kb}: answered ${n[0]} of ${n[1]} (right ${n[2]}), unanswerable answered ${n[3]} of ${n[4]}`);
      const language = languageOfKb(kb, rows[0]!.trial.content);
      byLanguage.set(language, (byLanguage.get(language) ?? [0, 0, 0, 0, 0]).map((x, i) => x + n[i]!));
    }
    if (part === 'validation') {
      for (const [language, n] of byLanguage) console.log(`  [${language}] answered ${n[0]} of ${n[1]} (right ${n[2]}), unanswerable answered ${n[3]} of ${n[4]}`);
    }
  }
}

if (process.argv.includes('--validation') && process.argv.includes('--by-kb')) printByKb('validation');
// While the rule is being worked on, `--validation` stops here: held-out figures are for reporting, not for tuning.
if (process.argv.includes('--validation')) process.exit(0);

/** The other checkout's rule on its own trials (the same data, split the same way), at the setting it ships. */
async function baselineRun(dir: string): Promise<{ from: Scored[]; gate: AnswerRule; gates: Partial<Record<'auto' | 'draft', AnswerRule>> }> {
  const root = path.resolve(dir);
  const offline = await import(path.join(root, 'src/replies/offline.ts')) as { answerParts: typeof answerParts };
  const rule = await import(path.join(root, 'src/knowledge/answerability.ts')) as { ANSWER_RULE: AnswerRule; GATES?: Record<'auto' | 'draft', AnswerRule> };
  const sources = await import(path.join(root, 'scripts/reply-sources.ts')) as typeof import('./reply-sources.ts');
  // StackFAQ's and SQuAD's trials from the other checkout too: a trial carries its index, built by the tree that made it.
  const theirs = [...sources.smallBusinessTrials(), ...sources.stackFaqTrials(), ...sources.squadTrials()].filter((t) => t.part === 'held-out');
  // The held-out knowledge bases are answered by the other checkout's rule too: its passages, its index, its answerParts.
  const { splitPassages } = await import(path.join(root, 'src/knowledge/passages.ts')) as typeof import('../src/knowledge/passages.ts');
  const { buildIndex } = await import(path.join(root, 'src/knowledge/retrieval.ts')) as typeof import('../src/knowledge/retrieval.ts');
  const indexes = new Map<string, Trial['index']>();
  for (const trial of [...smallBusinessTrials(FRESH3_DIR), ...smallBusinessTrials(FRESH12_DIR)]) {
    if (!indexes.has(trial.kb)) indexes.set(trial.kb, buildIndex(splitPassages(trial.content)));
    theirs.push({ ...trial, index: indexes.get(trial.kb)! });
  }
  // A checkout with two gates (issue 36's fifth round on) is judged at the gate of each mode.
  return { from: theirs.map((trial) => ({ trial, answer: offline.answerParts(trial.index, trial.message, { minConfidence: 0 }) })), gate: rule.ANSWER_RULE, gates: rule.GATES ?? {} };
}
const baselineDir = process.argv.includes('--baseline') ? process.argv[process.argv.indexOf('--baseline') + 1] : undefined;
const baseline = baselineDir ? await baselineRun(baselineDir) : null;

const missed: string[] = [];
for (const mode of ['auto', 'draft'] as const) {
  const targets = MODES[mode];
  console.log(`\n${mode}, held-out parts, shipped gate ${gateText(GATES[mode])}${baseline ? `; in italics, ${baselineDir} at its gate ${gateText(baseline.gates[mode] ?? baseline.gate)}` : ''}:\n`);
  console.log('| source | trials (answerable / unanswerable) | right answer among replies made | answerable answered | unanswerable answered | ungrounded sentences |');
  console.log('|---|---|---|---|---|---|');
  for (const source of SOURCES) {
    const f = figures(source, 'held-out', GATES[mode], true, scored, mode === 'auto');
    const m = meets(source, f, targets);
    const mark = (ok: boolean) => (ok ? '' : ' ✗');
    const right = source === 'SQuAD 2.0'
      ? `${pct(answerablePrecision(f))} (${f.right} of ${f.answered} replies to answerable questions)${mark(m.precision)}`
      : `${pct(precision(f))} (${f.right} of ${f.answered + f.wronglyAnswered})${mark(m.precision)}`;
    console.log(`| ${source} | ${f.answerable} / ${f.unanswerable} | ${right} | ${pct(coverage(f))} (${f.answered} of ${f.answerable})${mark(m.coverage)} | ${pct(falseAnswers(f))} (${f.wronglyAnswered} of ${f.unanswerable})${mark(m.falseAnswers)} | ${f.ungrounded} |`);
    for (const [what, ok] of Object.entries(m)) if (!ok) missed.push(`${mode} ${source}: ${what}`);
    if (f.partial > 0) console.log(`|  | of which ${f.partial} ask a question it does not answer beside one it does: ${f.namedUnanswered} replies name the question left open | | | | |`);
    if (baseline) {
      const b = figures(source, 'held-out', baseline.gates[mode] ?? baseline.gate, false, baseline.from, mode === 'auto');
      const right = source === 'SQuAD 2.0' ? `${pct(answerablePrecision(b))} (${b.right} of ${b.answered})` : `${pct(precision(b))} (${b.right} of ${b.answered + b.wronglyAnswered})`;
      console.log(`| *baseline* | | *${right}* | *${pct(coverage(b))} (${b.answered} of ${b.answerable})* | *${pct(falseAnswers(b))} (${b.wronglyAnswered} of ${b.unanswerable})* | |`);
    }
  }
}
console.log(`\ntargets (auto: right ≥ 95 %, unanswerable ≤ 2 % (StackFAQ 5 %); draft: right ≥ 85 %, unanswerable ≤ 10 %; answered ≥ 80 % / 45 % / 40 %): ${missed.length === 0 ? 'all met' : `missed: ${missed.join('; ')}`}`);

if (process.argv.includes('--by-kb')) printByKb('held-out');

if (process.argv.includes('--no-model')) process.exit(0);
console.log('\nmodel path: the passages sent to a model (each question\'s passage, then the message\'s next best, at most 5) hold the answer:');
for (const source of SOURCES) {
  const { answerable, held } = passagesHoldingAnswers(scored.filter((s) => s.trial.part === 'held-out' && s.trial.source === source).map((s) => s.trial));
  console.log(`  ${source.padEnd(15)} ${pct(held / answerable)} (${held} of ${answerable} answerable, held-out)`);
}
await evaluateModelPath(scored.filter((s) => s.trial.part === 'held-out' && s.trial.source === 'small business').map((s) => s.trial));
