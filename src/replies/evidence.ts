// What a person needs to judge an offline draft, stored with it (submissions.reply_confidence):
// how sure it is, the sentence it quotes for each question, and, when not sure, the sentence of the
// next-best passage, which the owner can use instead in one click. Only the knowledge base's text
// goes in, never the submitter's.
import type { Certainty } from '../knowledge/answerability.ts';
import type { PassageIndex, SentenceMatch } from '../knowledge/retrieval.ts';
import type { Answer } from './offline.ts';

export interface QuotedSentence {
  /** The passage's position in the knowledge base, from 0 (as in reply_passages). */
  passage: number;
  heading: string | null;
  sentence: string;
}

export interface ReplyConfidence {
  /** `high`: passes the auto gate and may be sent unread; `medium`, `low`: a draft for a person. */
  level: Certainty;
  /** coverage² × margin of the least sure question answered, from 0 to 1. */
  score: number;
  quoted: QuotedSentence[];
  /** For `medium` and `low`: the next-best passage's sentence, and the quoted sentence it would replace. */
  alternative: (QuotedSentence & { replaces: string }) | null;
}

const ORDER: Certainty[] = ['low', 'medium', 'high'];

/** The sentence a match stands for: a Q&A pair whose question matched stands for its answer's first sentence. */
function quotedOf(index: PassageIndex, match: SentenceMatch): QuotedSentence {
  const { passage } = match.sentence;
  const sentence = match.sentence.index >= 0 ? match.sentence.text : index.sentencesOf(passage)[0]?.text ?? passage.body;
  return { passage: passage.position, heading: passage.heading ?? null, sentence };
}

export function replyConfidence(index: PassageIndex, answer: Answer): ReplyConfidence | null {
  const answered = answer.parts.filter((p) => p.answered && p.best && p.certainty);
  if (answered.length === 0) return null;
  const least = answered.reduce((a, b) => (b.confidence < a.confidence ? b : a));
  const level = answered.map((p) => p.certainty!).reduce((a, b) => (ORDER.indexOf(b) < ORDER.indexOf(a) ? b : a));
  const quoted = answered.map((p) => quotedOf(index, p.best!));
  const replaced = quotedOf(index, least.best!).sentence;
  const other = level !== 'high' && least.second ? quotedOf(index, least.second) : null;
  const alternative = other && other.sentence !== replaced ? { ...other, replaces: replaced } : null;
  return { level, score: Math.round(least.confidence * 1000) / 1000, quoted, alternative };
}

/** The draft with the alternative sentence in place of the one it replaces, and the evidence swapped; null when the draft no longer holds that sentence. */
export function useAlternative(content: string, evidence: ReplyConfidence): { content: string; evidence: ReplyConfidence } | null {
  const alt = evidence.alternative;
  if (!alt || !content.includes(alt.replaces)) return null;
  const before = evidence.quoted.find((q) => q.sentence === alt.replaces);
  const quoted = evidence.quoted.map((q) => (q.sentence === alt.replaces ? { passage: alt.passage, heading: alt.heading, sentence: alt.sentence } : q));
  const back = before ? { ...before, replaces: alt.sentence } : null;
  return { content: content.replace(alt.replaces, () => alt.sentence), evidence: { ...evidence, quoted, alternative: back } };
}
