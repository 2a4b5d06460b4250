// When the best passage answers a question. BM25's raw score grows with the length of the query
// and does not tell answerable questions from others. What does: how far the best passage is ahead
// of the second (a question about one thing matches one passage clearly), times how much of the
// question the best passage's heading covers. The threshold was chosen by `npm run eval:replies`
// on its validation part (see README, "Evaluation"), never on the figures it reports.
import type { Match } from './retrieval.ts';

export interface AnswerRule {
  /** margin × coverage, from 0 to 1; margin is (best − second) / best. */
  minConfidence: number;
}

export const ANSWER_RULE: AnswerRule = { minConfidence: 0.24 };

export function margin(matches: Match[]): number {
  const best = matches[0]?.score ?? 0;
  if (best <= 0) return 0;
  return (best - (matches[1]?.score ?? 0)) / best;
}

export function confidence(matches: Match[]): number {
  return margin(matches) * (matches[0]?.coverage ?? 0);
}

/** The passage that answers, or null when none is relevant enough. */
export function answeringPassage(matches: Match[], rule: AnswerRule = ANSWER_RULE): Match | null {
  const best = matches[0];
  return best && confidence(matches) >= rule.minConfidence ? best : null;
}
