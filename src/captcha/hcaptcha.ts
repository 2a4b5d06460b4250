// hCaptcha: tokens from the field h-captcha-response, checked with siteverify (form-encoded only).
// The site key goes along, so a token made for another site key is refused by hCaptcha itself.
import { hostedProvider } from './siteverify.ts';

export const hcaptchaProvider = (url: string, timeoutMs: number, fetchImpl?: typeof fetch) =>
  hostedProvider({
    name: 'hcaptcha', url, timeoutMs, ...(fetchImpl && { fetchImpl }),
    extraFields: (form): Record<string, string> => (form.settings.captcha_site_key ? { sitekey: form.settings.captcha_site_key } : {}),
  });
