// The per-account adaptive layer: what an owner's spam corrections teach about that owner's submissions.
// Over the classifier's own hashed features, each correction adds a vote to every feature of the corrected
// submission (toward spam or toward not spam); a new submission moves by the mean vote of its features.
// Votes saturate and the move is capped, so a handful of corrections moves verdicts on near-copies of
// what was corrected and leaves the rest nearly alone.

import type { FieldDefinition } from '../../forms/field-schema.ts';
import type { SignalHit } from './types.ts';
import { featureBuckets } from './text.ts';
import { classifierText } from './submission-text.ts';

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
/** Net corrections at which a feature's vote is full: one correction gives a quarter of the layer's say. */
const SATURATION = 4;
const MIN_COMMON_COUNT = 2;
const COMMON_SHARE = 0.3;
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

export function ownerAdjustment(counts: FeedbackCounts | null, buckets: readonly number[]): OwnerAdjustment {
  const none = { logit: 0, hit: null };
  if (!counts || buckets.length === 0) return none;
  const { spamDocuments: spam, hamDocuments: ham } = counts;
  const corrections = spam + ham;
  if (corrections === 0) return none;
  // Each feature votes with its net corrections (spam minus not spam), up to SATURATION either way; the
  // adjustment is the mean vote over the submission's features. A near-copy of something corrected a few
  // times shares most features and moves by up to MAX_ADJUSTMENT; an unrelated message shares only common
  // words and moves by at most their share of it, however many corrections there are: that is the floor.
  // Features in a large share of both the spam and the legitimate corrections are the owner's common words,
  // not what tells them apart.
  const commonInSpam = Math.max(MIN_COMMON_COUNT, spam * COMMON_SHARE);
  const commonInHam = Math.max(MIN_COMMON_COUNT, ham * COMMON_SHARE);
  let votes = 0;
  for (const bucket of buckets) {
    const seen = counts.features.get(bucket);
    if (!seen || (seen.spam >= commonInSpam && seen.ham >= commonInHam)) continue;
    votes += Math.max(-SATURATION, Math.min(SATURATION, seen.spam - seen.ham));
  }
  // A text of a few words is a little evidence: it counts as MIN_FEATURES features.
  const shrunk = (votes / Math.max(buckets.length, MIN_FEATURES)) * (MAX_ADJUSTMENT / SATURATION);
  const logit = Math.max(-MAX_ADJUSTMENT, Math.min(MAX_ADJUSTMENT, shrunk));
  if (Math.abs(logit) < MENTIONED) return { logit, hit: null };
  const marked = logit > 0 ? 'spam' : 'not spam';
  const detail = `similar to submissions you marked as ${marked} (${corrections} correction${corrections === 1 ? '' : 's'})`;
  return { logit, hit: { id: OWNER_FEEDBACK_SIGNAL, weight: logit * STANDARD_POINTS_PER_LOGIT, detail } };
}
