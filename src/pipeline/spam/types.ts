// The contract between spam detection and the processing pipeline that calls it.

import type { FieldDefinition } from '../../forms/field-schema.ts';
import type { FeedbackCounts } from './owner-feedback.ts';

export interface SpamInput {
  formName: string;
  /** The owner's plain-text statement of the form's purpose (≤ 1000 chars), or null. */
  intent: string | null;
  /** The schema version the submission was validated against. */
  fields: FieldDefinition[];
  /** The stored, validated data (types already converted). */
  data: Record<string, unknown>;
  /** Earlier submissions to this form with identical content from the same sender (same email value or same IP), counted by the pipeline. */
  repeatsFromSender: number;
  /** What the post itself said, from the submission's metadata: a filled `_gotcha`, no Origin or Referer on a form that lists origins. */
  posted?: PostedSignals;
  /** What the owner's corrections taught about this submission's features; absent or null when they made none. */
  ownerFeedback?: FeedbackCounts | null;
  /** The form's `spam_sensitivity`: where the thresholds sit; absent: `balanced`. */
  sensitivity?: SpamSensitivity;
}

/** `high` flags more (a false positive weighs less against missed spam), `low` fewer. */
export type SpamSensitivity = 'low' | 'balanced' | 'high';
export const SPAM_SENSITIVITIES: readonly SpamSensitivity[] = ['low', 'balanced', 'high'];

export interface PostedSignals {
  honeypot?: boolean;
  unknownOrigin?: boolean;
}

export interface SpamVerdict {
  spam: boolean;
  /** 0.0 to 1.0: how sure the verdict is that the submission IS spam (probability-like). */
  confidence: number;
  /** Human-readable, names the signals that fired. "No spam signals" when none. */
  reason: string;
  /** Stable ids of the signals that fired, e.g. ['links', 'link_shortener', 'disposable_email']. */
  signals: string[];
}

export type IntelligentVerdict = SpamVerdict & { source: 'model' | 'classifier' };

/** One heuristic that fired: its stable id, how much it adds to the spam score, and a phrase for the reason. */
export interface SignalHit {
  id: string;
  weight: number;
  detail: string;
}

/** A text value of the submission: string- and email-typed fields that are not honeypots. */
export interface TextField {
  name: string;
  type: 'string' | 'email';
  value: string;
}
