// The siteverify exchange Turnstile, hCaptcha and reCAPTCHA share: a form-encoded POST of `secret`,
// `response` and `remoteip`, answered with JSON { success, hostname, error-codes, challenge_ts, … }.
// Each provider's module adds what is its own (hCaptcha's `sitekey`, reCAPTCHA's score).
//
// The URLs are the operator's settings, not an owner's, so they are called with Node's fetch and a
// deadline rather than through the SSRF-checked outbound client: a loopback fake must be reachable.
import type { FormRecord } from '../forms/store.ts';
import type { CaptchaContext, CaptchaOutcome, CaptchaVerifier } from './types.ts';

export interface SiteverifyAnswer {
  success: boolean;
  hostname?: unknown;
  'error-codes'?: unknown;
  score?: unknown;
  action?: unknown;
  challenge_ts?: unknown;
}

export interface HostedOptions {
  /** For reasons: "turnstile", "hcaptcha", "recaptcha". */
  name: string;
  url: string;
  timeoutMs: number;
  fetchImpl?: typeof fetch;
  /** Members beside secret, response and remoteip. */
  extraFields?(form: FormRecord): Record<string, string>;
  /** A provider's own judgement of a successful answer: a reason to refuse, or null. */
  judge?(answer: SiteverifyAnswer): string | null;
}

/** Error codes that say the provider itself failed, not the token: the answer is unknown, not no. */
const PROVIDER_FAULTS = new Set(['internal-error']);

async function ask(options: HostedOptions, fields: Record<string, string>): Promise<SiteverifyAnswer | { unavailable: string }> {
  const { name, timeoutMs } = options;
  let response: Response;
  let text: string;
  try {
    response = await (options.fetchImpl ?? fetch)(options.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(fields).toString(),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    text = await response.text();
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError';
    return { unavailable: timedOut ? `${name} did not answer within ${timeoutMs} ms` : `${name} could not be reached` };
  }
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    answer = null;
  }
  if (typeof answer !== 'object' || answer === null || typeof (answer as SiteverifyAnswer).success !== 'boolean') {
    return { unavailable: `${name} answered ${response.status} without a verdict` };
  }
  return answer as SiteverifyAnswer;
}

function errorCodes(answer: SiteverifyAnswer): string[] {
  const codes = answer['error-codes'];
  return Array.isArray(codes) ? codes.filter((code): code is string => typeof code === 'string').map((code) => code.slice(0, 64)).slice(0, 5) : [];
}

/** A verifier for one hosted provider. */
export function hostedProvider(options: HostedOptions): CaptchaVerifier {
  return {
    async verify(form, token, context: CaptchaContext): Promise<CaptchaOutcome> {
      const secret = form.settings.captcha_secret;
      // The forms service never lets this happen; a form without its secret is never let through.
      if (!secret) return { unavailable: `${options.name} has no secret for this form` };
      const answer = await ask(options, { secret, response: token, remoteip: context.remoteIp, ...options.extraFields?.(form) });
      if ('unavailable' in answer) return answer;
      const codes = errorCodes(answer);
      if (!answer.success) {
        if (codes.some((code) => PROVIDER_FAULTS.has(code))) return { unavailable: `${options.name} failed: ${codes.join(', ')}` };
        return { failed: `${options.name} refused the token${codes.length ? ` (${codes.join(', ')})` : ''}` };
      }
      if (context.expectedHosts) {
        const hostname = typeof answer.hostname === 'string' ? answer.hostname.toLowerCase() : '';
        if (!context.expectedHosts.includes(hostname)) return { failed: `the ${options.name} token was solved on another site` };
      }
      const refusal = options.judge?.(answer) ?? null;
      return refusal ? { failed: refusal } : { ok: true };
    },
  };
}
