// Cloudflare Turnstile: tokens from the field cf-turnstile-response, checked with siteverify
// (single use, valid 300 s; `internal-error` means Cloudflare could not say).
import { hostedProvider } from './siteverify.ts';

export const turnstileProvider = (url: string, timeoutMs: number, fetchImpl?: typeof fetch) =>
  hostedProvider({ name: 'turnstile', url, timeoutMs, ...(fetchImpl && { fetchImpl }) });
