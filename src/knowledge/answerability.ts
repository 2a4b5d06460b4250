// When the best passage answers a question. BM25's raw score grows with the length of the query
// and does not tell answerable questions from others; what does is how far the best passage is
// ahead of the second (a question about one thing matches one passage clearly) and how much of the
// question it covers. The thresholds were chosen by `npm run eval:replies` on its validation part
// (see README, "Evaluation"), never on the figures it reports.
import type { Match } from './retrieval.ts';

export interface AnswerRule {
  /** (best − second) / best, from 0 to 1. */
  minMargin: number;
  /** Share of the question's terms found in the best passage. */
  minCoverage: number;
}

export const ANSWER_RULE: AnswerRule = { minMargin: 0.5, minCoverage: 0.6 };

export function margin(matches: Match[]): number {
  const best = matches[0]?.score ?? 0;
  if (best <= 0) return 0;
  return (best - (matches[1]?.score ?? 0)) / best;
}

/** The passage that answers, or null when none is relevant enough. */
export function answeringPassage(matches: Match[], rule: AnswerRule = ANSWER_RULE): Match | null {
  const best = matches[0];
  if (!best) return null;
  return margin(matches) >= rule.minMargin && best.coverage >= rule.minCoverage ? best : null;
}
