// `intelligent` without a language model. The text classifier reads the prose, so it already
// weighs links, capitals and "!!!". Two groups of heuristics are added to its log-odds, with
// weights the training script chose on validation data: the curated spam phrases (web-form
// spam trades the e-mail corpus barely knows), and the form signals it cannot see at all
// (repeats, throwaway addresses, random strings, look-alike letters, link tricks). Form signals
// strong enough to flag a submission under `standard` flag it here too.

import type { SignalHit, SpamInput, SpamVerdict } from './types.ts';
import { classifierText } from './submission-text.ts';
import { logit, sigmoid, type SpamClassifier } from './classifier.ts';
import { capitalise, roundConfidence, scoreOf, standardVerdict } from './standard.ts';

export const CLASSIFIER_SIGNAL = 'text_classifier';
/** Heuristics whose evidence the classifier already reads in the text; counting them again would double it. */
const READ_BY_CLASSIFIER = new Set(['links', 'all_caps', 'exclamations']);
/** What the text says (phrases, promotion, claims, bait): evidence weighed with the classifier's own reading. */
const PHRASES = new Set(['spam_phrases', 'self_promotion', 'money_claim', 'contact_push', 'link_bait', 'mostly_link', 'off_topic']);

export function phraseScore(hits: readonly SignalHit[]): number {
  return scoreOf(hits.filter((hit) => PHRASES.has(hit.id)));
}

/** The standard score of the signals the classifier cannot see. */
export function formSignalScore(hits: readonly SignalHit[]): number {
  return scoreOf(formSignals(hits));
}

export function formSignals(hits: readonly SignalHit[]): SignalHit[] {
  return hits.filter((hit) => !PHRASES.has(hit.id) && !READ_BY_CLASSIFIER.has(hit.id));
}

export function classifierVerdict(input: SpamInput, hits: readonly SignalHit[], classifier: SpamClassifier, modelProblem?: string): SpamVerdict {
  const probability = classifier.probability(classifierText(input));
  const { phraseWeight, formWeight, thresholdLogit } = classifier.decision;
  const margin = logit(probability) + phraseWeight * phraseScore(hits) + formWeight * formSignalScore(hits) - thresholdLogit;
  const byFormSignals = standardVerdict(formSignals(hits));
  const confidence = Math.max(sigmoid(margin), byFormSignals.spam ? byFormSignals.confidence : 0);

  const signals = hits.map((hit) => hit.id);
  if (logit(probability) >= thresholdLogit) signals.unshift(CLASSIFIER_SIGNAL);
  const parts = [`text classifier: ${Math.round(probability * 100)}% spam-like`, ...hits.map((hit) => hit.detail)];
  const fallback = modelProblem ? `Language model not used (${modelProblem}). ` : '';
  return {
    spam: margin >= 0 || byFormSignals.spam,
    confidence: roundConfidence(confidence),
    reason: fallback + capitalise(parts.join('; ')),
    signals,
  };
}
