import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { newWebhookSecret, signatureHeaders, signingKey, verificationSecret } from '../src/delivery/signing.ts';

const BODY = JSON.stringify({ id: 'evt_1', type: 'submission.created', data: { message: 'Grüße ✓' } });

/** What a receiver does: the raw body and the headers as they arrived, verified by the package. */
function receiverVerifies(secretForReceiver: string, body: string, headers: Record<string, string>): unknown {
  return new Webhook(secretForReceiver).verify(body, headers);
}

describe('webhook signing', () => {
  it('makes whsec_ secrets of 32 random bytes that the package accepts as they are', () => {
    const secret = newWebhookSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(signingKey(secret).length, 32);
    assert.equal(verificationSecret(secret), secret);
    assert.doesNotThrow(() => new Webhook(secret));
    assert.notEqual(newWebhookSecret(), secret);
  });

  it('signs so that a receiver verifies a whsec_ secret with standardwebhooks', () => {
    const secret = newWebhookSecret();
    const headers = signatureHeaders(secret, 'evt_1', new Date(), BODY);
    assert.deepEqual(receiverVerifies(secret, BODY, headers), JSON.parse(BODY));
    assert.equal(headers['webhook-id'], 'evt_1');
    assert.match(headers['webhook-timestamp'] ?? '', /^\d{10}$/);
    assert.match(headers['webhook-signature'] ?? '', /^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('signs with an owner-chosen plain 8-character secret, verified after the documented transformation', () => {
    const plain = 'p@ss:wd!';
    const headers = signatureHeaders(plain, 'evt_2', new Date(), BODY);
    const transformed = `whsec_${Buffer.from(plain, 'utf8').toString('base64')}`;
    assert.equal(verificationSecret(plain), transformed);
    assert.deepEqual(receiverVerifies(transformed, BODY, headers), JSON.parse(BODY));
    // The raw-key form of the package works the same with the secret's bytes.
    assert.deepEqual(new Webhook(Buffer.from(plain, 'utf8'), { format: 'raw' }).verify(BODY, headers), JSON.parse(BODY));
  });

  it('keeps non-ASCII plain secrets as their UTF-8 bytes', () => {
    const plain = 'geheimnis-äöü-🔑';
    const headers = signatureHeaders(plain, 'evt_3', new Date(), BODY);
    assert.deepEqual(receiverVerifies(verificationSecret(plain), BODY, headers), JSON.parse(BODY));
  });

  it('treats a plain secret that happens to be valid base64 as plain text, not base64', () => {
    const plain = 'password'; // valid base64, which `new Webhook("password")` would decode
    const headers = signatureHeaders(plain, 'evt_4', new Date(), BODY);
    assert.throws(() => receiverVerifies(plain, BODY, headers), WebhookVerificationError);
    assert.doesNotThrow(() => receiverVerifies(verificationSecret(plain), BODY, headers));
  });

  it('fails verification for a tampered body, a wrong secret or an old timestamp', () => {
    const secret = newWebhookSecret();
    const headers = signatureHeaders(secret, 'evt_5', new Date(), BODY);
    assert.throws(() => receiverVerifies(secret, BODY.replace('Grüße', 'Grüsse'), headers), /No matching signature/);
    assert.throws(() => receiverVerifies(newWebhookSecret(), BODY, headers), /No matching signature/);

    const sixMinutesAgo = new Date(Date.now() - 6 * 60 * 1000);
    const old = signatureHeaders(secret, 'evt_5', sixMinutesAgo, BODY);
    assert.throws(() => receiverVerifies(secret, BODY, old), /too old/);
    // A changed id breaks the signature too: the id is part of what is signed.
    assert.throws(() => receiverVerifies(secret, BODY, { ...headers, 'webhook-id': 'evt_6' }), /No matching signature/);
  });

  it('puts an X-Intake-Signature over the raw body with the same key bytes', () => {
    const plain = 'owner-chosen-secret';
    const headers = signatureHeaders(plain, 'evt_7', new Date(), BODY);
    const expected = createHmac('sha256', plain).update(BODY, 'utf8').digest('hex');
    assert.equal(headers['X-Intake-Signature'], `sha256=${expected}`);

    const secret = newWebhookSecret();
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const signed = signatureHeaders(secret, 'evt_7', new Date(), BODY);
    assert.equal(signed['X-Intake-Signature'], `sha256=${createHmac('sha256', key).update(BODY).digest('hex')}`);
  });

  it('states the timestamp in Unix seconds and signs id.timestamp.body', () => {
    const secret = newWebhookSecret();
    const at = new Date('2030-01-02T03:04:05.678Z');
    const headers = signatureHeaders(secret, 'evt_8', at, BODY);
    assert.equal(headers['webhook-timestamp'], String(Math.floor(at.getTime() / 1000)));
    const expected = createHmac('sha256', signingKey(secret)).update(`evt_8.${headers['webhook-timestamp']}.${BODY}`).digest('base64');
    assert.equal(headers['webhook-signature'], `v1,${expected}`);
  });

  it('counts a whsec_ prefix without valid base64 after it as a plain secret', () => {
    const odd = 'whsec_not base64!';
    assert.deepEqual(signingKey(odd), Buffer.from(odd, 'utf8'));
    const headers = signatureHeaders(odd, 'evt_9', new Date(), BODY);
    assert.doesNotThrow(() => receiverVerifies(verificationSecret(odd), BODY, headers));
  });
});
