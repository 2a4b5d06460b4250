// When a passage answers a question. The rule: coverage² × margin must reach one threshold, where
// coverage is how much of the question the passage's best sentence covers (retrieval.ts) and
// margin how far the passage is ahead of the next best by BM25, (best − second) / best. A question
// about one thing matches one passage clearly and is covered by one of its sentences; squaring
// coverage makes a clear lead on half the question's words (a plausible question about something
// else) count for less than a sentence that covers it all. A question that asks for a kind of answer
// (a price, a duration, a time …) is judged on the best sentence that states one (answer-types.ts),
// and not answered when none does. The threshold is the rule's single
// setting, chosen by `npm run eval:replies` on the validation parts of every evaluation source at
// once (docs/smart-replies.md), never on the figures it reports.

export interface AnswerRule {
  /** Least coverage² × margin, from 0 to 1. */
  minConfidence: number;
}

export const ANSWER_RULE: AnswerRule = { minConfidence: 0.24 };

export function confidence(coverage: number, margin: number): number {
  return coverage * coverage * margin;
}

export const answers = (value: number, rule: AnswerRule = ANSWER_RULE) => value >= rule.minConfidence;
