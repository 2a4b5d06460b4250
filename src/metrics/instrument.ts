// Wrappers that count what goes out of the process (mail, model and translation calls, credit
// charges) without the callers knowing; with metrics off each returns what it was given.
import type { CreditCharger } from '../accounts/credits.ts';
import type { ChatModel } from '../ai/chat-model.ts';
import type { Mailer } from '../delivery/email.ts';
import type { Translator } from '../pipeline/translation/index.ts';
import type { Metrics } from './metrics.ts';

async function timed<T>(work: () => Promise<T>, done: (outcome: 'ok' | 'error', seconds: number) => void): Promise<T> {
  const start = performance.now();
  try {
    const result = await work();
    done('ok', (performance.now() - start) / 1000);
    return result;
  } catch (error) {
    done('error', (performance.now() - start) / 1000);
    throw error;
  }
}

export function countedMailer(mailer: Mailer | null, metrics: Metrics): Mailer | null {
  if (!mailer || !metrics.enabled) return mailer;
  return {
    send: (message) => timed(() => mailer.send(message), (outcome) => metrics.mail(outcome === 'ok' ? 'sent' : 'failed')),
    close: () => mailer.close(),
  };
}

export function countedModel(model: ChatModel | null, metrics: Metrics): ChatModel | null {
  if (!model || !metrics.enabled) return model;
  return { complete: (messages, options) => timed(() => model.complete(messages, options), (outcome, s) => metrics.providerCall('model', outcome, s)) };
}

export function countedTranslator(translator: Translator | null, metrics: Metrics): Translator | null {
  if (!translator || !metrics.enabled) return translator;
  return {
    name: translator.name,
    translate: (texts, target, source, signal) =>
      timed(() => translator.translate(texts, target, source, signal), (outcome, s) => metrics.providerCall('translation', outcome, s)),
  };
}

export function countedCredits(credits: CreditCharger, metrics: Metrics): CreditCharger {
  if (!metrics.enabled) return credits;
  return {
    ...credits,
    async charge(owner, submissionId, step, variant) {
      const outcome = await credits.charge(owner, submissionId, step, variant);
      metrics.aiCharge(step, outcome);
      return outcome;
    },
  };
}
