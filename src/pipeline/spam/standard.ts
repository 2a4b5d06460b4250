// Strategy `standard`: explainable weighted heuristics. Each signal that fires adds its
// weight to a score; the submission is spam when the score reaches the threshold that
// scripts/train-spam.ts chose on the validation parts of every labelled set (stored with the
// classifier in model.json). Weights are set so that no single weak sign (two links,
// "guaranteed", a throwaway address) is enough, while bot-typical combinations are.

import type { SignalHit, SpamInput, SpamSensitivity, SpamVerdict } from './types.ts';
import { prepareText, type SubmissionText } from './submission-text.ts';
import { honeypotSignal, unknownOriginSignal } from './signals/honeypot.ts';
import { ipLinkSignal, linkBaitSignal, linkCountSignal, linkMarkupSignal, linkShortenerSignal, onlyLinksSignal } from './signals/links.ts';
import { disposableEmailSignal } from './signals/disposable-email.ts';
import { gibberishSignal } from './signals/gibberish.ts';
import { spamPhraseSignal } from './signals/phrases.ts';
import { allCapsSignal, exclamationSignal, repeatedSubmissionSignal, repeatedWordsSignal } from './signals/repetition.ts';
import { mixedScriptSignal, scriptMismatchSignal } from './signals/scripts.ts';
import { contactPushSignal, moneyClaimSignal, selfPromotionSignal } from './signals/promotion.ts';
import { fieldMismatchSignal, offTopicSignal } from './signals/form-fit.ts';
import { mostlyPhoneSignal, premiumNumberSignal, prizeClaimSignal, stopReplySignal } from './signals/text-message.ts';
import { domainAddresseeSignal, formBlastSignal, outreachSignal, pairedStrangerLink, praiseLinkSignal, seoAnchorSignal, strangerLinkSignal, supportNumberSignal } from './signals/web-form.ts';
import { tradeLinkSignal } from './signals/trade-link.ts';
import { coldOfferSignal, coldPitchSignal, pricedOfferSignal } from './signals/cold-pitch.ts';
import { brandLinkSignal, jobOfferSignal } from './signals/brand-link.ts';
import { siteCritiqueSignal } from './signals/site-critique.ts';
import { loanOfferSignal } from './signals/loan-offer.ts';
import { growthPitchSignal } from './signals/growth-pitch.ts';
import { supportPitchSignal } from './signals/support-pitch.ts';
import { returnPromiseSignal } from './signals/return-promise.ts';
import { buildPitchSignal } from './signals/build-pitch.ts';
import { rankPromiseSignal } from './signals/rank-promise.ts';
import { recoveryOfferSignal } from './signals/recovery-offer.ts';
import { messengerRouteSignal, throwawayLinkSignal } from './signals/contact-route.ts';
import { ownerAdjustment, viewFeedbackFeatures, type OwnerAdjustment } from './owner-feedback.ts';
import { defaultClassifier, operatingPoint } from './classifier.ts';

/** How steeply confidence rises around the threshold: half a point below it gives ~8%, half a point above ~92%. */
const CONFIDENCE_SLOPE = 5;
export const NO_SIGNALS_REASON = 'No spam signals';

const TEXT_SIGNALS: ReadonlyArray<(text: SubmissionText) => SignalHit | null> = [
  linkCountSignal, linkShortenerSignal, ipLinkSignal, onlyLinksSignal, linkBaitSignal, linkMarkupSignal, disposableEmailSignal,
  gibberishSignal, spamPhraseSignal, selfPromotionSignal, moneyClaimSignal, contactPushSignal, prizeClaimSignal, premiumNumberSignal,
  stopReplySignal, mostlyPhoneSignal, fieldMismatchSignal,
  outreachSignal, domainAddresseeSignal, formBlastSignal, supportNumberSignal, seoAnchorSignal, praiseLinkSignal, strangerLinkSignal,
  throwawayLinkSignal, messengerRouteSignal, brandLinkSignal, jobOfferSignal, siteCritiqueSignal, loanOfferSignal, growthPitchSignal, supportPitchSignal, returnPromiseSignal, buildPitchSignal, rankPromiseSignal, recoveryOfferSignal, allCapsSignal, exclamationSignal, repeatedWordsSignal, mixedScriptSignal, scriptMismatchSignal,
];

/** Every heuristic that fires on the submission, honeypot first. */
export function standardSignals(input: SpamInput): SignalHit[] {
  return signalsOf(prepareText(input));
}

/** standardSignals of a submission's prepared text, which `intelligent` then hands on to the classifier. */
export function signalsOf(text: SubmissionText): SignalHit[] {
  const { input } = text;
  const hits: SignalHit[] = [];
  const honeypot = honeypotSignal(input);
  if (honeypot) hits.push(honeypot);
  const repeated = repeatedSubmissionSignal(input.repeatsFromSender);
  if (repeated) hits.push(repeated);
  const unknownOrigin = unknownOriginSignal(input);
  if (unknownOrigin) hits.push(unknownOrigin);
  for (const signal of TEXT_SIGNALS) {
    const hit = signal(text);
    if (hit) hits.push(hit);
  }
  pairedStrangerLink(text, hits);
  const tradeLink = tradeLinkSignal(text, hits);
  if (tradeLink) hits.push(tradeLink);
  const coldPitch = coldPitchSignal(text, hits) ?? coldOfferSignal(text, hits);
  if (coldPitch) hits.push(coldPitch);
  const priced = pricedOfferSignal(text);
  if (priced) hits.push(priced);
  const offTopic = offTopicSignal(text, hits);
  if (offTopic) hits.push(offTopic);
  const owner = ownerAdjustmentOf(text);
  if (owner.hit) hits.push(owner.hit);
  return hits;
}

/** The owner's adaptive layer for this submission; nothing when the owner corrected nothing. */
export function ownerAdjustmentOf(text: SubmissionText): OwnerAdjustment {
  if (!text.input.ownerFeedback) return { logit: 0, hit: null };
  // `intelligent` asks twice (the signals, then the score): the features are read once.
  let adjustment = adjustments.get(text);
  if (!adjustment) {
    adjustment = ownerAdjustment(text.input.ownerFeedback, viewFeedbackFeatures(text.view));
    adjustments.set(text, adjustment);
  }
  return adjustment;
}

const adjustments = new WeakMap<SubmissionText, OwnerAdjustment>();

export function scoreOf(hits: readonly SignalHit[]): number {
  return hits.reduce((sum, hit) => sum + hit.weight, 0);
}

/** The score from which `standard` calls a submission spam, as chosen on validation data for the sensitivity. */
export function spamScoreThreshold(sensitivity?: SpamSensitivity): number {
  return operatingPoint(defaultClassifier().decision, sensitivity).standardThreshold;
}

export function standardVerdict(hits: readonly SignalHit[], threshold = spamScoreThreshold()): SpamVerdict {
  const score = scoreOf(hits);
  return {
    spam: score >= threshold,
    confidence: roundConfidence(1 / (1 + Math.exp(-CONFIDENCE_SLOPE * (score - threshold)))),
    reason: describeHits(hits),
    signals: hits.map((hit) => hit.id),
  };
}

export function describeHits(hits: readonly SignalHit[]): string {
  if (hits.length === 0) return NO_SIGNALS_REASON;
  return capitalise(hits.map((hit) => hit.detail).join('; '));
}

/** Three decimals, and never a flat 0 or 1: no heuristic or model is certain. */
export function roundConfidence(value: number): number {
  return Math.min(0.999, Math.max(0.001, Math.round(value * 1000) / 1000));
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
