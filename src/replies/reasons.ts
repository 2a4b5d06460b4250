// The reply_reason of a reply that was declined or answers only part of a message: the passage that
// came closest and its score, so that an owner sees what to add to the knowledge base. Only the
// knowledge base's text goes in, never the submitter's.
import { GATES } from '../knowledge/answerability.ts';
import { ANSWER_TYPE_NAMES } from '../knowledge/answer-types.ts';
import { closestUnanswered, type Answer, type PartAnswer } from './offline.ts';

export const NO_ANSWER = 'no_answer_in_knowledge_base';
export const PARTLY_ANSWERED = 'partly_answered';
/** An `auto` form's draft that passed the draft gate but not the auto gate: kept for a person. */
export const HELD_FOR_REVIEW = 'held_for_review: the draft is less sure than the auto gate needs (reply_confidence); a person must send it';
const MAX_EXCERPT = 160;
const MAX_REASON = 500;

const clip = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

function closest(part: PartAnswer | null): string {
  if (!part?.best) return 'no passage shares a word with it';
  const { sentence, coverage } = part.best;
  const where = `passage ${sentence.passage.position + 1}${sentence.passage.heading ? ` (${JSON.stringify(clip(sentence.passage.heading, 60))})` : ''}`;
  const score = `score ${part.confidence.toFixed(2)}, needs ${GATES.draft.minConfidence} with coverage ≥ ${GATES.draft.minCoverage} (coverage ${coverage.toFixed(2)}, margin ${part.margin.toFixed(2)})`;
  const text = sentence.index >= 0 ? sentence.text : sentence.passage.body;
  // Which kind of answer was asked for is named from a fixed list, never in the submitter's words.
  const type = part.typeMissing && part.wanted ? `asks for ${ANSWER_TYPE_NAMES[part.wanted]}, which no sentence of the best passage states; ` : '';
  return `${type}best ${where}, ${score}: ${JSON.stringify(clip(text, MAX_EXCERPT))}`;
}

/** `why`: what else declined it (a model that found no answer). */
export function declineReason(answer: Answer, why?: string): string {
  return `${NO_ANSWER}: ${why ? `${why}; ` : ''}${closest(closestUnanswered(answer))}`.slice(0, MAX_REASON);
}

export function partialReason(answer: Answer): string {
  const open = answer.parts.flatMap((p, i) => (p.answered ? [] : [i + 1]));
  const which = `question${open.length > 1 ? 's' : ''} ${open.join(', ')} of ${answer.parts.length}`;
  return `${PARTLY_ANSWERED}: ${which} not answered, held for a person; ${closest(closestUnanswered(answer))}`.slice(0, MAX_REASON);
}
