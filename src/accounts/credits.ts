// The rules of AI credits: what each step costs, which period a charge falls in, and when an
// owner is out of credits. Free owners spend a one-time allowance; pro owners a monthly one,
// after which use is metered (recorded and billed) rather than refused.
import type { Config, Plan } from '../config.ts';
import type { ChargeOutcome, CreditStore } from './credit-store.ts';

export const CREDIT_COSTS = { spam_check: 1, translation: 1, smart_reply: 2, spam_analysis: 1, summary: 1 } as const;
export type ChargedStep = keyof typeof CREDIT_COSTS;

export interface CreditPeriod {
  /** `lifetime` for the free plan's one-time allowance, `YYYY-MM` (UTC) for a pro month. */
  period: string;
  allowance: number;
}

export function creditPeriod(plan: Plan, config: Pick<Config, 'freeAiCredits' | 'proMonthlyAiCredits'>, now: Date): CreditPeriod {
  return plan === 'pro'
    ? { period: now.toISOString().slice(0, 7), allowance: config.proMonthlyAiCredits }
    : { period: 'lifetime', allowance: config.freeAiCredits };
}

const recordedStep = (step: ChargedStep, variant?: string) => (variant ? `${step}:${variant}` : step);

export function creditCharger(store: CreditStore, config: Config, clock: () => Date = () => new Date()) {
  return {
    /**
     * Charges the step once per submission (and variant: a translation's language); `exhausted` only
     * for a free owner without enough credits left. The record is keyed by the submission's id
     * alone, with the variant in its step (`translation:de`), so erasure finds every record of a
     * submission by its id (data-subjects/store.ts).
     */
    charge(owner: { id: string; plan: Plan }, submissionId: string, step: ChargedStep, variant?: string): Promise<ChargeOutcome> {
      const now = clock();
      const { period, allowance } = creditPeriod(owner.plan, config, now);
      return store.charge({
        accountId: owner.id,
        submissionId,
        step: recordedStep(step, variant),
        cost: step === 'smart_reply' ? config.knowledge.replyCredits : CREDIT_COSTS[step],
        period,
        limit: owner.plan === 'pro' ? null : allowance,
        now: now.toISOString(),
      });
    },

    refund(submissionId: string, step: ChargedStep, variant?: string): Promise<boolean> {
      return store.refund(submissionId, recordedStep(step, variant));
    },
  };
}

export type CreditCharger = ReturnType<typeof creditCharger>;
