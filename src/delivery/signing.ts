// Webhook signatures in the Standard Webhooks layout (webhook-id, webhook-timestamp,
// webhook-signature: "v1,<base64 HMAC-SHA256 of id.timestamp.body>"), plus a GitHub-style
// X-Intake-Signature over the raw body for receivers that only want one HMAC.
//
// Two kinds of secret, and the key bytes each stands for:
// - "whsec_<base64>" (what newWebhookSecret makes, and what the standardwebhooks package expects):
//   the key is the base64-decoded part after the prefix.
// - anything else (an owner's own 8–128 character webhook_secret): the key is the secret's UTF-8
//   bytes, as GitHub and most HMAC receivers use it. A receiver using standardwebhooks passes
//   verificationSecret(secret), i.e. "whsec_" + base64(UTF-8 bytes), or the bytes with
//   { format: 'raw' }. (Passing the plain string to `new Webhook()` would base64-decode it.)
// A secret that starts with "whsec_" but is not valid base64 after it counts as plain.
import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

const STANDARD_SECRET = /^whsec_((?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?)$/;

/** A new secret in Standard Webhooks form: "whsec_" and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The HMAC key bytes a secret stands for (see the top of this file). */
export function signingKey(secret: string): Buffer {
  const encoded = STANDARD_SECRET.exec(secret)?.[1];
  if (encoded) return Buffer.from(encoded, 'base64');
  if (secret === '') throw new Error('A webhook secret cannot be empty');
  return Buffer.from(secret, 'utf8');
}

/** What a receiver passes to standardwebhooks' `new Webhook(…)` to verify deliveries signed with `secret`. */
export function verificationSecret(secret: string): string {
  return STANDARD_SECRET.test(secret) ? secret : `whsec_${signingKey(secret).toString('base64')}`;
}

/**
 * The signature headers of one delivery. `body` must be exactly the bytes sent (as UTF-8), and
 * `eventId` the same on every attempt so receivers can drop duplicates.
 */
export function signatureHeaders(secret: string, eventId: string, timestamp: Date, body: string): Record<string, string> {
  const key = signingKey(secret);
  const standard = new Webhook(key, { format: 'raw' }).sign(eventId, timestamp, body);
  // The same key bytes as the Standard Webhooks signature, over the raw body alone.
  const github = createHmac('sha256', key).update(body, 'utf8').digest('hex');
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': standard,
    'X-Intake-Signature': `sha256=${github}`,
  };
}
