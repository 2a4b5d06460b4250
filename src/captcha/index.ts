// CAPTCHA on a form's submission endpoints, whichever door the submission came through: the
// submissions service asks `check` before it stores anything. The form's captcha_provider picks the
// verifier; the token is read from the provider's usual body member (CAPTCHA_TOKEN_FIELD).
import type { Config } from '../config.ts';
import type { FormRecord } from '../forms/store.ts';
import { altchaProvider } from './altcha.ts';
import { hcaptchaProvider } from './hcaptcha.ts';
import { recaptchaProvider } from './recaptcha.ts';
import type { CaptchaStore } from './store.ts';
import { turnstileProvider } from './turnstile.ts';
import { CAPTCHA_FIELDS, CAPTCHA_TOKEN_FIELD, type CaptchaOutcome, type CaptchaVerifier } from './types.ts';

export { CAPTCHA_FIELDS, CAPTCHA_TOKEN_FIELD, type CaptchaOutcome } from './types.ts';
export { captchaStore, type CaptchaStore } from './store.ts';

/** Longer than any provider's token (Turnstile: 2,048 characters; an ALTCHA payload: under 1 KiB). */
const MAX_TOKEN_LENGTH = 8_192;

export interface RequestFacts {
  ip: string;
  origin: string | null;
  referer: string | null;
}

function hostOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

/**
 * The sites a hosted provider's token may have been solved on: the form's allowed origins when it
 * lists some, else the page the post came from (Origin, else Referer); with neither, not checked
 * (a server relaying a token has no page).
 */
export function expectedHosts(form: FormRecord, request: RequestFacts): string[] | null {
  const allowed = (form.settings as { allowed_origins?: unknown }).allowed_origins;
  if (Array.isArray(allowed) && allowed.length > 0) {
    const hosts = allowed.map((origin) => hostOf(String(origin))).filter((host): host is string => host !== null);
    if (hosts.length > 0) return hosts;
  }
  const host = hostOf(request.origin) ?? hostOf(request.referer);
  return host ? [host] : null;
}

/** What discovery tells a client about the form's CAPTCHA; null for none. */
export function captchaDiscovery(form: FormRecord, endpoint: string) {
  const provider = form.settings.captcha_provider;
  if (provider === 'none') return null;
  const field = CAPTCHA_TOKEN_FIELD[provider];
  if (provider === 'altcha') return { provider, field, challenge_url: `${endpoint}/captcha` };
  return { provider, field, site_key: form.settings.captcha_site_key ?? '' };
}

export function captchaService(deps: { store: CaptchaStore; config: Config['captcha']; clock?: () => Date; fetchImpl?: typeof fetch }) {
  const { config } = deps;
  const clock = deps.clock ?? (() => new Date());
  const altcha = altchaProvider({ store: deps.store, config, clock });
  const verifiers: Record<Exclude<FormRecord['settings']['captcha_provider'], 'none'>, CaptchaVerifier> = {
    altcha,
    turnstile: turnstileProvider(config.turnstileVerifyUrl, config.verifyTimeoutMs, deps.fetchImpl),
    hcaptcha: hcaptchaProvider(config.hcaptchaVerifyUrl, config.verifyTimeoutMs, deps.fetchImpl),
    recaptcha: recaptchaProvider(config.recaptchaVerifyUrl, config.verifyTimeoutMs, config.recaptchaMinScore, deps.fetchImpl),
  };

  return {
    /** Whether a person sent this body, as the form's provider says; `ok` for a form without CAPTCHA. */
    async check(form: FormRecord, body: Record<string, unknown>, request: RequestFacts): Promise<CaptchaOutcome> {
      const provider = form.settings.captcha_provider;
      if (provider === 'none') return { ok: true };
      const field = CAPTCHA_TOKEN_FIELD[provider];
      const token = Object.hasOwn(body, field) ? body[field] : undefined;
      if (typeof token !== 'string' || token === '') return { failed: `this form needs a CAPTCHA solution in the member "${field}"` };
      if (token.length > MAX_TOKEN_LENGTH) return { failed: `the "${field}" member is longer than any CAPTCHA token` };
      return verifiers[provider].verify(form, token, { remoteIp: request.ip, expectedHosts: expectedHosts(form, request) });
    },

    /** A new ALTCHA challenge for the form; null when the form does not use ALTCHA. */
    async challenge(form: FormRecord) {
      return form.settings.captcha_provider === 'altcha' ? altcha.challenge(form) : null;
    },
  };
}

export type CaptchaService = ReturnType<typeof captchaService>;

/** The body without CAPTCHA members, except those the form declares as its own fields. */
export function withoutCaptchaFields(body: Record<string, unknown>, fields: ReadonlyArray<{ name: string }>): Record<string, unknown> {
  const dropped = CAPTCHA_FIELDS.filter((field) => Object.hasOwn(body, field) && !fields.some((f) => f.name === field));
  if (dropped.length === 0) return body;
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(body)) {
    // defineProperty: a "__proto__" key from JSON must stay an own property, not reach the prototype setter.
    if (!dropped.includes(key)) Object.defineProperty(kept, key, { value: body[key], enumerable: true, writable: true, configurable: true });
  }
  return kept;
}
