// ALTCHA: a proof of work Intake serves and checks itself; no third party, no cookie.
//
// A challenge is signed with the server's key and carries the form's id and an expiry in its signed
// parameters, so a solution is good for that form only and only until then. Deterministic mode: the
// server derives the key for a counter it picked (one PBKDF2 run per challenge) and signs it, so a
// solution is checked with one HMAC, however hard the challenge. A solution is accepted once: its
// challenge's nonce goes into captcha_solutions, whose primary key refuses a second use.
import { createHmac } from 'node:crypto';
import { createChallenge, randomInt, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Config } from '../config.ts';
import type { FormRecord } from '../forms/store.ts';
import type { CaptchaStore } from './store.ts';
import type { CaptchaOutcome, CaptchaVerifier } from './types.ts';

const ALGORITHM = 'PBKDF2/SHA-256';
/** Expired solutions are purged at most this often, by whichever submission comes along. */
const PURGE_EVERY_MS = 60_000;

interface Keys {
  signature: string;
  keySignature: string;
}

/** The widget's payload: base64 of JSON { challenge: { parameters, signature }, solution: { counter, derivedKey } }. */
function parsePayload(token: string): { challenge: Challenge; solution: { counter: number; derivedKey: string } } | null {
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof payload !== 'object' || payload === null) return null;
  const { challenge, solution } = payload as Record<string, unknown>;
  if (typeof challenge !== 'object' || challenge === null || typeof solution !== 'object' || solution === null) return null;
  const { parameters, signature } = challenge as Record<string, unknown>;
  if (typeof parameters !== 'object' || parameters === null || typeof signature !== 'string') return null;
  const { nonce, salt, keyPrefix, algorithm } = parameters as Record<string, unknown>;
  if (typeof nonce !== 'string' || typeof salt !== 'string' || typeof keyPrefix !== 'string' || algorithm !== ALGORITHM) return null;
  return payload as ReturnType<typeof parsePayload>;
}

export function altchaProvider(deps: { store: CaptchaStore; config: Config['captcha']; clock: () => Date }) {
  const { store, config, clock } = deps;
  let keys: Promise<Keys> | null = null;
  let purgedAt = 0;

  function keysOf(): Promise<Keys> {
    keys ??= (async () => {
      const signature = await store.altchaKey(clock().toISOString());
      // A second secret for the derived keys' signatures, made from the first as altcha-lib's own deriveHmacKeySecret does.
      return { signature, keySignature: createHmac('sha256', signature).update('derived-secret').digest('hex') };
    })();
    // A failed read (the database away) is tried again next time, not remembered.
    keys.catch(() => { keys = null; });
    return keys;
  }

  async function purgeNow(now: Date): Promise<void> {
    if (now.getTime() - purgedAt < PURGE_EVERY_MS) return;
    purgedAt = now.getTime();
    await store.purgeExpired(now.toISOString());
  }

  const verifier: CaptchaVerifier & { challenge(form: FormRecord): Promise<Challenge> } = {
    /** A new challenge for this form, as the widget fetches it from the challenge URL. */
    async challenge(form) {
      const { signature, keySignature } = await keysOf();
      const max = config.altchaMaxCounter;
      return createChallenge({
        algorithm: ALGORITHM,
        cost: config.altchaCost,
        counter: randomInt(max, Math.ceil(max / 2)),
        deriveKey,
        data: { form: form.id },
        expiresAt: Math.floor(clock().getTime() / 1000) + config.challengeTtlS,
        hmacSignatureSecret: signature,
        hmacKeySignatureSecret: keySignature,
      });
    },

    async verify(form, token): Promise<CaptchaOutcome> {
      const payload = parsePayload(token);
      if (!payload) return { failed: 'the ALTCHA payload is not one the widget sends' };
      const { parameters } = payload.challenge;
      const now = clock();
      if (typeof parameters.expiresAt !== 'number' || parameters.expiresAt * 1000 <= now.getTime()) return { failed: 'the ALTCHA challenge has expired' };
      const { signature, keySignature } = await keysOf();
      let result: Awaited<ReturnType<typeof verifySolution>>;
      try {
        result = await verifySolution({
          challenge: payload.challenge, solution: payload.solution, deriveKey, hmacSignatureSecret: signature, hmacKeySignatureSecret: keySignature,
        });
      } catch {
        // Parameters of the wrong types (a forged payload) make the library throw rather than answer.
        return { failed: 'the ALTCHA payload is not one the widget sends' };
      }
      if (result.expired) return { failed: 'the ALTCHA challenge has expired' };
      if (!result.verified) return { failed: result.invalidSignature ? 'the ALTCHA challenge was not issued by this server' : 'the ALTCHA solution is wrong' };
      // Checked after the signature: only then is `data` known to be the server's own.
      if (parameters.data?.form !== form.id) return { failed: 'the ALTCHA challenge was issued for another form' };
      await purgeNow(now);
      const spent = await store.spend(parameters.nonce, new Date(parameters.expiresAt * 1000).toISOString());
      return spent ? { ok: true } : { failed: 'the ALTCHA solution was already used' };
    },
  };
  return verifier;
}

export type AltchaProvider = ReturnType<typeof altchaProvider>;
