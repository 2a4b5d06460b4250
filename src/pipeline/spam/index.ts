// Spam detection for the processing pipeline: pure, offline checks (plus an optional
// language model for `intelligent`). The pipeline decides what to do with the verdict.

import type { ChatModel } from '../../ai/chat-model.ts';
import type { IntelligentVerdict, SpamInput, SpamVerdict } from './types.ts';
import { ownerAdjustmentOf, roundConfidence, signalsOf, spamScoreThreshold, standardSignals, standardVerdict } from './standard.ts';
import { prepareText } from './submission-text.ts';
import { viewFeatures } from './text.ts';
import { honeypotSignal } from './signals/honeypot.ts';
import { defaultClassifier, logit, sigmoid, type SpamClassifier } from './classifier.ts';
import type { OwnerAdjustment } from './owner-feedback.ts';
import { classifierVerdict, formSignals } from './classifier-verdict.ts';
import { askModel } from './model-verdict.ts';

export type { IntelligentVerdict, SpamInput, SpamVerdict } from './types.ts';
export type { SpamClassifier } from './classifier.ts';

/** A filled honeypot field (rule op 'honeypot') is spam even when spam protection is off. Null when no honeypot is filled. */
export function checkHoneypot(input: SpamInput): SpamVerdict | null {
  const hit = honeypotSignal(input);
  return hit ? standardVerdict([hit]) : null;
}

/** Strategy `standard`: explainable weighted heuristics; no network, no credits. Includes the honeypot. */
export function checkStandard(input: SpamInput): SpamVerdict {
  return standardVerdict(standardSignals(input), spamScoreThreshold(input.sensitivity));
}

/**
 * Strategy `intelligent`: the standard checks plus the trained local classifier. With a model, the model's
 * JSON verdict decides, except that form signals strong enough to flag a submission on their own (repeats,
 * throwaway addresses, random strings, look-alike letters, link tricks) flag it whatever the model says;
 * when the call throws a ProviderError or the answer is unusable, the local classifier decides.
 * A filled honeypot is decided locally without spending a model call.
 */
export async function checkIntelligent(input: SpamInput, model: ChatModel | null, classifier: SpamClassifier = defaultClassifier()): Promise<IntelligentVerdict> {
  const text = prepareText(input);
  // The classifier's features first: the owner's adaptive layer, read among the signals, then takes its content
  // features from the same pass (text.ts, viewFeatures).
  if (!model && input.ownerFeedback) viewFeatures(text.view);
  const hits = signalsOf(text);
  if (hits.some((hit) => hit.id === 'honeypot')) return { ...standardVerdict(hits), source: 'classifier' };
  if (model) {
    const answer = await askModel(model, input, hits);
    // The model reads submitted text, which may talk to it; signals it cannot argue with stand.
    const floor = standardVerdict(formSignals(hits), spamScoreThreshold(input.sensitivity));
    if (answer.ok && floor.spam && !answer.verdict.spam) {
      return { ...floor, reason: `${floor.reason} (the language model said not spam; these signals overrule it)`, source: 'model' };
    }
    if (answer.ok) return { ...withOwnerFeedback(answer.verdict, ownerAdjustmentOf(text)), source: 'model' };
    return { ...classifierVerdict(text, hits, classifier, answer.problem), source: 'classifier' };
  }
  return { ...classifierVerdict(text, hits, classifier), source: 'classifier' };
}

/** The model's verdict moved by what the owner's corrections taught, in log-odds like the classifier's score. */
function withOwnerFeedback(verdict: SpamVerdict, owner: OwnerAdjustment): SpamVerdict {
  if (!owner.hit) return verdict;
  const confidence = sigmoid(logit(verdict.confidence) + owner.logit);
  return {
    spam: confidence >= 0.5,
    confidence: roundConfidence(confidence),
    reason: `${verdict.reason}; ${owner.hit.detail}`,
    signals: verdict.signals.includes(owner.hit.id) ? verdict.signals : [...verdict.signals, owner.hit.id],
  };
}
