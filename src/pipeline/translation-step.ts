// The translation step, when the form has localisation on: the text fields go into the owner's
// language through the configured provider, for one credit. Without a provider, or for text
// already in the owner's language, nothing is translated and nothing is charged.
import type { CreditCharger } from '../accounts/credits.ts';
import type { PipelineStore, StepResult, Work } from './store.ts';
import { StepFailure } from './step-failure.ts';
import { Superseded } from './superseded.ts';
import { translateSubmission, type Translator } from './translation/index.ts';

export interface TranslationStepOutcome {
  result: StepResult;
  creditsExhausted: boolean;
  /** Why nothing was translated, when the owner would want to know. */
  reason: string | null;
}

export interface TranslationStepDeps {
  store: PipelineStore;
  credits: CreditCharger;
  translator: Translator | null;
  beginRemote(work: Work): Promise<boolean>;
}

export async function translationStep(work: Work, soFar: StepResult, deps: TranslationStepDeps): Promise<TranslationStepOutcome> {
  const nothing: TranslationStepOutcome = { result: {}, creditsExhausted: false, reason: null };
  if (!work.form.localisation || work.submission.steps.includes('translation')) return nothing;
  if (!deps.translator) return { ...nothing, reason: 'translation_not_configured' };
  const language = soFar.original_language !== undefined ? soFar.original_language : work.submission.stored.original_language;
  // No detectable text, or text already in the owner's language.
  if (!language || language === work.owner.language) return nothing;

  const charge = await deps.credits.charge(work.owner, work.submission.id, 'translation');
  if (charge === 'exhausted') return { ...nothing, creditsExhausted: true };
  if (!(await deps.beginRemote(work))) throw new Superseded();
  let translated: Record<string, string>;
  try {
    translated = await translateSubmission(deps.translator, work.submission.data, work.fields, work.owner.language, language);
  } catch (error) {
    throw new StepFailure('translation', error);
  }
  const result: StepResult = { ...soFar, translated_data: translated };
  work.submission.steps.push('translation');
  await deps.store.saveSteps(work, result);
  return { result, creditsExhausted: false, reason: null };
}
