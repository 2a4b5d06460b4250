import type { ChargedStep } from '../accounts/credits.ts';

/** A step that could not be done; `step` names it in the submission's processing_reason. */
export class StepFailure extends Error {
  readonly step: ChargedStep;
  constructor(step: ChargedStep, cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.step = step;
  }
}
