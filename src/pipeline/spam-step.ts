// The spam step. A filled honeypot is spam whatever the form's settings; otherwise the form's
// strategy decides. `intelligent` costs a credit; a free owner without one still gets the standard
// checks, and the submission ends `skipped`.
import type { CreditCharger } from '../accounts/credits.ts';
import type { ChatModel } from '../ai/chat-model.ts';
import { checkHoneypot, checkIntelligent, checkStandard, type SpamInput, type SpamVerdict } from './spam/index.ts';
import type { PostedSignals } from './spam/types.ts';
import type { PipelineStore, StepResult, Work } from './store.ts';
import type { SpamFeedbackStore } from './spam/feedback-store.ts';
import { feedbackFeatures } from './spam/owner-feedback.ts';
import { classifierText } from './spam/submission-text.ts';
import { Superseded } from './superseded.ts';

export interface SpamStepOutcome {
  result: StepResult;
  creditsExhausted: boolean;
}

export interface SpamStepDeps {
  store: PipelineStore;
  credits: CreditCharger;
  model: ChatModel | null;
  beginRemote(work: Work): Promise<boolean>;
  /** What owners' corrections taught; without it verdicts ignore corrections. */
  feedback?: SpamFeedbackStore;
}

function asResult(verdict: SpamVerdict): StepResult {
  return { spam_flag: verdict.spam, spam_confidence: verdict.confidence, spam_reason: verdict.reason };
}

/** What the endpoints noted in the metadata (src/html-forms, src/forms/origins.ts). */
function postedSignals(work: Work): PostedSignals {
  const { metadata } = work.submission;
  return { honeypot: metadata.honeypot === true, unknownOrigin: metadata.origin_unknown === true };
}

async function spamInput(work: Work, deps: SpamStepDeps): Promise<SpamInput> {
  const { submission, form } = work;
  const input: SpamInput = { formName: form.name, intent: form.intent, fields: work.fields, data: submission.data, repeatsFromSender: submission.repeats, posted: postedSignals(work), sensitivity: form.sensitivity };
  // Only owners who corrected something pay for the lookup.
  if (deps.feedback && work.owner.corrections > 0) {
    input.ownerFeedback = await deps.feedback.countsFor(work.owner.id, feedbackFeatures(classifierText(input)));
  }
  return input;
}

export async function spamStep(work: Work, deps: SpamStepDeps): Promise<SpamStepOutcome> {
  // An earlier run recorded this step (it waited on the model): its verdict stands.
  if (work.submission.steps.includes('spam')) return { result: { spam_flag: work.submission.stored.spam_flag }, creditsExhausted: false };
  work.submission.steps.push('spam');
  const none = { result: { spam_flag: false }, creditsExhausted: false };
  const { form } = work;
  // The endpoint could not tell a person from a bot (a CAPTCHA provider did not answer): never clean.
  const flagged = work.submission.metadata.flagged_spam;
  if (typeof flagged === 'string') return { result: { spam_flag: true, spam_confidence: null, spam_reason: flagged }, creditsExhausted: false };

  if (!form.spamProtection) {
    const honeypot = checkHoneypot({ formName: form.name, intent: form.intent, fields: work.fields, data: work.submission.data, repeatsFromSender: 0, posted: postedSignals(work) });
    return honeypot ? { result: asResult(honeypot), creditsExhausted: false } : none;
  }
  const input = await spamInput(work, deps);
  if (form.strategy === 'standard') return { result: asResult(checkStandard(input)), creditsExhausted: false };

  const honeypot = checkHoneypot(input);
  if (honeypot) return { result: asResult(honeypot), creditsExhausted: false };
  const charge = await deps.credits.charge(work.owner, work.submission.id, 'spam_check');
  if (charge === 'exhausted') return { result: asResult(checkStandard(input)), creditsExhausted: true };
  if (!deps.model) return { result: asResult(await checkIntelligent(input, null)), creditsExhausted: false };

  if (!(await deps.beginRemote(work))) throw new Superseded();
  const result = asResult(await checkIntelligent(input, deps.model));
  await deps.store.saveSteps(work, result);
  return { result, creditsExhausted: false };
}
