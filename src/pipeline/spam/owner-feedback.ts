// The per-account adaptive layer: what an owner's spam corrections teach about that owner's submissions.
// Naive-Bayes-style evidence over the classifier's own hashed content features: a feature of a new submission
// speaks for spam by how much more often it appears in what the owner marked spam than in legitimate text,
// where "legitimate text" is the owner's not-spam corrections blended with how common the feature is in
// ordinary legitimate messages (the committed background shares). Owners mostly correct spam that got
// through and rarely confirm what was right, so without that background every common word of their spam
// ("the", "please", "your") would count against their legitimate mail. Each feature's say grows with the
// corrections it appeared in and is capped, the submission's move is the mean over its features, and the
// whole is capped: a few corrections move near-copies of what was corrected and leave the rest alone.

import type { FieldDefinition } from '../../forms/field-schema.ts';
import type { SignalHit } from './types.ts';
import { featureBuckets, viewFeatures } from './text.ts';
import type { TextView } from './text-view.ts';
import { classifierText } from './submission-text.ts';
import { defaultClassifier } from './classifier.ts';

/** The corrections of one owner that bear on one submission. */
export interface FeedbackCounts {
  /** How many submissions the owner marked spam, and not spam. */
  spamDocuments: number;
  hamDocuments: number;
  /** Per feature bucket of the submission: in how many of those submissions it appeared. */
  features: ReadonlyMap<number, { spam: number; ham: number }>;
}

export interface OwnerAdjustment {
  /** Log-odds to add to the submission's spam score (negative: toward not spam). */
  logit: number;
  /** The reason's part, when the adjustment is large enough to mention. */
  hit: SignalHit | null;
}

/** Features kept per submission: bounds the rows one correction writes and the lookup at scoring time. */
export const MAX_FEEDBACK_FEATURES = 400;
/** Corrections a feature must appear in for its full say: one correction gives it a quarter. */
const SATURATION = 4;
/** How many messages' worth the background share counts for, against the owner's own corrections. */
const PRIOR_MESSAGES = 4;
/** The most log-odds one feature can contribute, either way. */
const MAX_FEATURE_EVIDENCE = 4;
/** A text of a few words is a little evidence: it counts as this many features. */
const MIN_FEATURES = 30;
/** However many corrections agree, the layer moves a score by at most this many log-odds. */
export const MAX_ADJUSTMENT = 4;
/** Smaller adjustments are left out of the reason: they change no verdict worth explaining. */
const MENTIONED = 0.5;
/** Standard-strategy score points per log-odd of adjustment: from about 2.9 log-odds on, it flags alone. */
const STANDARD_POINTS_PER_LOGIT = 0.35;
export const OWNER_FEEDBACK_SIGNAL = 'owner_feedback';

/** The features a correction teaches and a check looks up: the classifier's content features, first MAX_FEEDBACK_FEATURES. */
export function feedbackFeatures(text: string): number[] {
  return featureBuckets(text, false).slice(0, MAX_FEEDBACK_FEATURES);
}

/** feedbackFeatures of a submission's prose, from the reading its classifier shares (text.ts, viewFeatures). */
export function viewFeedbackFeatures(view: TextView): number[] {
  return viewFeatures(view, false).slice(0, MAX_FEEDBACK_FEATURES);
}

/** The features of a stored submission, read the way the spam step reads a new one. */
export function correctionFeatures(fields: FieldDefinition[], data: Record<string, unknown>): number[] {
  return feedbackFeatures(classifierText({ formName: '', intent: null, fields, data, repeatsFromSender: 0 }));
}

/** Counts as the store holds them after these corrections: for replaying corrections offline (evaluation, tests). */
export function countsFromCorrections(corrections: ReadonlyArray<{ buckets: readonly number[]; spam: boolean }>): FeedbackCounts {
  const features = new Map<number, { spam: number; ham: number }>();
  for (const { buckets, spam } of corrections) {
    for (const bucket of new Set(buckets)) {
      const entry = features.get(bucket) ?? { spam: 0, ham: 0 };
      if (spam) entry.spam++;
      else entry.ham++;
      features.set(bucket, entry);
    }
  }
  const spamDocuments = corrections.filter((correction) => correction.spam).length;
  return { spamDocuments, hamDocuments: corrections.length - spamDocuments, features };
}

export function ownerAdjustment(counts: FeedbackCounts | null, buckets: readonly number[], background: ArrayLike<number> = defaultClassifier().background): OwnerAdjustment {
  const none = { logit: 0, hit: null };
  if (!counts || buckets.length === 0) return none;
  const { spamDocuments: spam, hamDocuments: ham } = counts;
  const corrections = spam + ham;
  if (corrections === 0) return none;
  let evidence = 0;
  for (const bucket of buckets) {
    const seen = counts.features.get(bucket);
    if (!seen || seen.spam + seen.ham <= 0) continue;
    // Both estimates lean on the background share: with no not-spam corrections, legitimate text is the
    // background; with no spam corrections, the feature is assumed as common in spam as in legitimate text.
    const share = background[bucket]!;
    const inHam = (Math.max(0, seen.ham) + PRIOR_MESSAGES * share) / (ham + PRIOR_MESSAGES);
    const inSpam = (Math.max(0, seen.spam) + PRIOR_MESSAGES * share) / (spam + PRIOR_MESSAGES);
    const say = Math.min(1, Math.max(seen.spam, seen.ham) / SATURATION);
    evidence += say * Math.max(-MAX_FEATURE_EVIDENCE, Math.min(MAX_FEATURE_EVIDENCE, Math.log(inSpam / inHam)));
  }
  const logit = Math.max(-MAX_ADJUSTMENT, Math.min(MAX_ADJUSTMENT, evidence / Math.max(buckets.length, MIN_FEATURES)));
  if (Math.abs(logit) < MENTIONED) return { logit, hit: null };
  const marked = logit > 0 ? 'spam' : 'not spam';
  const detail = `similar to submissions you marked as ${marked} (${corrections} correction${corrections === 1 ? '' : 's'})`;
  return { logit, hit: { id: OWNER_FEEDBACK_SIGNAL, weight: logit * STANDARD_POINTS_PER_LOGIT, detail } };
}
