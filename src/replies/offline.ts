// What an offline reply answers with: the best passage when the answer rule accepts it, joined by
// the other matching passages of the same Markdown section (a long section is split by paragraph).
import { ANSWER_RULE, answeringPassage, type AnswerRule } from '../knowledge/answerability.ts';
import type { Passage } from '../knowledge/passages.ts';
import type { Match, PassageIndex } from '../knowledge/retrieval.ts';

export const CANDIDATES = 5;

export function answerFromMatches(matches: Match[], rule: AnswerRule = ANSWER_RULE): Passage[] | null {
  const best = answeringPassage(matches, rule);
  if (!best) return null;
  const heading = best.passage.heading;
  const sameSection = heading === null ? [] : matches.filter((m) => m !== best && m.passage.heading === heading).map((m) => m.passage);
  return [best.passage, ...sameSection].sort((a, b) => a.position - b.position);
}

export function findAnswer(index: PassageIndex, question: string, rule: AnswerRule = ANSWER_RULE): Passage[] | null {
  return answerFromMatches(index.search(question, CANDIDATES), rule);
}
