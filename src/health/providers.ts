// What the outside services this process calls (the language model, the translation server, the
// SMTP server) did last: the health page names the one that is failing, and since when. Recorded
// where every call to them passes (postJson, the mailer), in this process: workers running as
// processes of their own record theirs there, and their failures show in those processes' logs.
import { byCodeUnits } from '../text-order.ts';

export type Provider = 'model' | 'libretranslate' | 'deepl' | 'smtp';

export interface ProviderState {
  provider: string;
  /** The last call's outcome. */
  ok: boolean;
  /** When the calls started failing (the first failure since the last success), ISO; null while ok. */
  failingSince: string | null;
  failuresInARow: number;
  /** The last failure's message (what the provider said, secrets already removed), or null. */
  lastError: string | null;
  lastCallAt: string;
}

const states = new Map<string, ProviderState>();

export function providerSucceeded(provider: string): void {
  const state = states.get(provider);
  const at = new Date().toISOString();
  if (state?.ok) state.lastCallAt = at;
  else states.set(provider, { provider, ok: true, failingSince: null, failuresInARow: 0, lastError: state?.lastError ?? null, lastCallAt: at });
}

export function providerFailed(provider: string, message: string): void {
  const at = new Date().toISOString();
  const state = states.get(provider);
  states.set(provider, {
    provider,
    ok: false,
    failingSince: state && !state.ok ? state.failingSince : at,
    failuresInARow: state && !state.ok ? state.failuresInARow + 1 : 1,
    lastError: message.slice(0, 300),
    lastCallAt: at,
  });
}

/** Every provider this process has called, failing ones first. */
export function providerStates(): ProviderState[] {
  return [...states.values()].map((s) => ({ ...s })).sort((a, b) => Number(a.ok) - Number(b.ok) || byCodeUnits(a.provider, b.provider));
}
