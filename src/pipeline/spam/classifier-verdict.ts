// `intelligent` without a language model. The text classifier reads the prose, so it already
// weighs links, capitals and "!!!". Two groups of heuristics are added to its log-odds, with
// weights the training script chose on validation data: the curated spam phrases (web-form
// spam trades the e-mail corpus barely knows), and the form signals it cannot see at all
// (repeats, throwaway addresses, random strings, look-alike letters, link tricks). Form signals
// strong enough to flag a submission under `standard` flag it here too.

import type { SignalHit, SpamVerdict } from './types.ts';
import type { SubmissionText } from './submission-text.ts';
import { viewFeatures } from './text.ts';
import { calibrated, logit, operatingPoint, type SpamClassifier } from './classifier.ts';
import { capitalise, ownerAdjustmentOf, roundConfidence, scoreOf, standardVerdict } from './standard.ts';
import { OWNER_FEEDBACK_SIGNAL } from './owner-feedback.ts';

export const CLASSIFIER_SIGNAL = 'text_classifier';
/**
 * Heuristics whose evidence the classifier already reads in the text; counting them again would double it. The sixth
 * round's two are its features for a link's top-level domain and for a messaging app named (text.ts).
 */
const READ_BY_CLASSIFIER = new Set(['links', 'all_caps', 'exclamations', 'throwaway_link', 'messenger_route']);
/** Signals added to the score in log-odds of their own rather than as heuristic points. */
const OWN_SCALE = new Set([OWNER_FEEDBACK_SIGNAL]);
/** What the text says (phrases, promotion, claims, bait): evidence weighed with the classifier's own reading. */
const PHRASES = new Set([
  'spam_phrases', 'self_promotion', 'money_claim', 'contact_push', 'prize_claim', 'premium_number', 'sms_keywords', 'link_bait', 'mostly_link', 'mostly_phone', 'off_topic',
  'outreach', 'domain_addressee', 'form_blast', 'support_number', 'seo_anchor', 'praise_link', 'stranger_link', 'trade_link', 'cold_pitch', 'trade_advert', 'job_offer', 'cold_offer', 'site_critique', 'priced_offer', 'loan_offer', 'growth_pitch', 'support_pitch', 'return_promise', 'build_pitch', 'rank_promise', 'recovery_offer',
]);

const OVERRIDING_TEXT_SIGNALS = new Set(['self_promotion', 'money_claim', 'contact_push', 'prize_claim', 'premium_number', 'sms_keywords', 'form_blast', 'support_number', 'outreach', 'job_offer', 'growth_pitch', 'support_pitch', 'return_promise', 'build_pitch', 'rank_promise', 'recovery_offer']);
const SHORT_TEXT_LENGTH = 600;

export function phraseScore(hits: readonly SignalHit[]): number {
  return scoreOf(hits.filter((hit) => PHRASES.has(hit.id)));
}

/** The standard score of the signals the classifier cannot see. */
export function formSignalScore(hits: readonly SignalHit[]): number {
  return scoreOf(formSignals(hits));
}

export function formSignals(hits: readonly SignalHit[]): SignalHit[] {
  return hits.filter((hit) => !PHRASES.has(hit.id) && !READ_BY_CLASSIFIER.has(hit.id) && !OWN_SCALE.has(hit.id));
}

/**
 * The signals that flag a submission whatever the classifier says: the form signals and, in a short text, the
 * invitations and claims of short spam, which a few words carry and the classifier reads too timidly. In long
 * texts (newsletters, reports) the same words are often quoted or incidental, and the classifier judges them.
 */
export function overridingSignals(hits: readonly SignalHit[], textLength: number): SignalHit[] {
  const short = textLength <= SHORT_TEXT_LENGTH;
  return hits.filter((hit) => (short && OVERRIDING_TEXT_SIGNALS.has(hit.id)) || (!PHRASES.has(hit.id) && !READ_BY_CLASSIFIER.has(hit.id) && !OWN_SCALE.has(hit.id)));
}

export function classifierVerdict(text: SubmissionText, hits: readonly SignalHit[], classifier: SpamClassifier, modelProblem?: string): SpamVerdict {
  const { decision } = classifier;
  const point = operatingPoint(decision, text.input.sensitivity);
  const prose = text.view.text;
  const textLogit = logit(classifier.probability(prose, viewFeatures(text.view)));
  // The owner's corrections move the score directly, in log-odds, before the threshold.
  const score = textLogit + decision.phraseWeight * phraseScore(hits) + decision.formWeight * formSignalScore(hits) + ownerAdjustmentOf(text).logit;
  const byFormSignals = standardVerdict(overridingSignals(hits, prose.length), point.standardThreshold);
  const confidence = Math.max(calibrated(decision, score), byFormSignals.spam ? byFormSignals.confidence : 0);

  const signals = hits.map((hit) => hit.id);
  if (textLogit >= point.thresholdLogit) signals.unshift(CLASSIFIER_SIGNAL);
  const parts = [`text classifier: ${Math.round(calibrated(decision, textLogit) * 100)}% spam-like`, ...hits.map((hit) => hit.detail)];
  const fallback = modelProblem ? `Language model not used (${modelProblem}). ` : '';
  return {
    spam: score >= point.thresholdLogit || byFormSignals.spam,
    confidence: roundConfidence(confidence),
    reason: fallback + capitalise(parts.join('; ')),
    signals,
  };
}
