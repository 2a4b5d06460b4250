// What every CAPTCHA provider answers, and what it is told about the request.
import type { CaptchaProvider, FormRecord } from '../forms/store.ts';

/**
 * `ok`: a person solved it. `failed`: missing, wrong, expired, replayed or meant for another form or
 * site; the submission is refused. `unavailable`: the provider could not say (no answer, a timeout, a
 * 5xx); the submission is stored, flagged as spam with the reason, never as clean.
 */
export type CaptchaOutcome = { ok: true } | { failed: string } | { unavailable: string };

export interface CaptchaContext {
  /** The submitter's address, passed on to hosted providers as `remoteip`. */
  remoteIp: string;
  /** Host names a hosted provider's `hostname` must be one of; null: not checked. */
  expectedHosts: string[] | null;
}

export interface CaptchaVerifier {
  verify(form: FormRecord, token: string, context: CaptchaContext): Promise<CaptchaOutcome>;
}

/** The body member each provider's widget fills in: a submission carries its token there. */
export const CAPTCHA_TOKEN_FIELD: Record<Exclude<CaptchaProvider, 'none'>, string> = {
  altcha: 'altcha',
  turnstile: 'cf-turnstile-response',
  hcaptcha: 'h-captcha-response',
  recaptcha: 'g-recaptcha-response',
};

/** Every such member: never stored as data, never refused as an unknown field (unless the form declares a field of that name). */
export const CAPTCHA_FIELDS: readonly string[] = Object.values(CAPTCHA_TOKEN_FIELD);
