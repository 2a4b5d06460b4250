// When a passage answers a question. The rule: coverage² × margin must reach a threshold, where
// coverage is how much of the question the passage's best sentence covers (retrieval.ts) and
// margin how far the passage is ahead of the next best by BM25, (best − second) / best. A question
// about one thing matches one passage clearly and is covered by one of its sentences; squaring
// coverage makes a clear lead on half the question's words (a plausible question about something
// else) count for less than a sentence that covers it all. A question that asks for a kind of answer
// (a price, a duration, a time …) is judged on the best sentence that states one (answer-types.ts),
// and not answered when none does, whatever the gate.
//
// Two gates, because the two modes of smart replies want different things: in `auto` a reply goes
// out in the owner's name, so a wrong answer is costly and declining cheap (chosen for ≥ 95 % right);
// in `draft` a person reads it first, so a draft quoting the right sentence saves them the reply and
// a wrong one costs a glance (chosen for coverage at ≥ 85 % right). The draft gate also needs a
// least coverage: a question sharing too little of its content with the sentence is declined however
// far ahead its passage is. `medium` is the level between them (≥ 90 % right), shown to the owner.
// Every setting is chosen by `npm run eval:replies` on the validation parts of every evaluation
// source at once (docs/reply-evaluation.md), never on the figures it reports.

export interface AnswerRule {
  /** Least coverage² × margin, from 0 to 1. */
  minConfidence: number;
  /** Least coverage alone, from 0 to 1. */
  minCoverage?: number;
}

export type ReplyMode = 'auto' | 'draft';
/** How sure a reply is: `high` passes the auto gate, `medium` the level between, `low` only the draft gate. */
export type Certainty = 'high' | 'medium' | 'low';

export const GATES: { auto: AnswerRule; medium: AnswerRule; draft: AnswerRule } = {
  auto: { minConfidence: 0.3, minCoverage: 0.65 },
  medium: { minConfidence: 0.25 },
  draft: { minConfidence: 0.12, minCoverage: 0.5 },
};

/** The gate of `auto` mode, which was the rule's only one. */
export const ANSWER_RULE: AnswerRule = GATES.auto;

export function confidence(coverage: number, margin: number): number {
  return coverage * coverage * margin;
}

export const passes = (value: number, coverage: number, rule: AnswerRule) => value >= rule.minConfidence && coverage >= (rule.minCoverage ?? 0);

/** The level of a sentence that passes the draft gate; null when it does not. */
export function certaintyOf(value: number, coverage: number): Certainty | null {
  if (passes(value, coverage, GATES.auto)) return 'high';
  if (passes(value, coverage, GATES.medium)) return 'medium';
  if (passes(value, coverage, GATES.draft)) return 'low';
  return null;
}
