// Google reCAPTCHA, v2 and v3: tokens from the field g-recaptcha-response, checked with siteverify.
// A v3 answer carries a score from 0.0 (a bot) to 1.0 (a person); below the operator's floor it fails.
// A v2 answer has no score and passes on `success` alone.
import { hostedProvider } from './siteverify.ts';

export const recaptchaProvider = (url: string, timeoutMs: number, minScore: number, fetchImpl?: typeof fetch) =>
  hostedProvider({
    name: 'recaptcha', url, timeoutMs, ...(fetchImpl && { fetchImpl }),
    judge: (answer) => {
      if (answer.score === undefined) return null;
      if (typeof answer.score !== 'number' || answer.score < minScore) return `the reCAPTCHA score ${String(answer.score)} is below ${minScore}`;
      return null;
    },
  });
