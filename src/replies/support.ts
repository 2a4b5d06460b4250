// Whether a model-written reply stays with its sources. A model may word things its own way, so
// sentences are not matched verbatim as offline ones are; instead each sentence with enough
// substance must have most of its content words (stems, stop words left out) in the passages it
// cites or in the question. A promise the knowledge base does not make ("a full refund") fails.
import { queryTerms } from '../knowledge/retrieval.ts';
import { sentences } from './grounding.ts';

/** Sentences with fewer content words (greetings, thanks, closings) carry no claim worth checking. */
const MIN_TERMS = 3;
const MIN_SUPPORTED_SHARE = 0.5;

export function unsupportedSentences(body: string, sources: string[]): string[] {
  const known = new Set(sources.flatMap((source) => [...queryTerms(source)]));
  return sentences(body).filter((sentence) => {
    const terms = [...queryTerms(sentence)];
    if (terms.length < MIN_TERMS) return false;
    return terms.filter((term) => known.has(term)).length / terms.length < MIN_SUPPORTED_SHARE;
  });
}
