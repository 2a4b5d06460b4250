// The spec: X-Service-Credits-Remaining and X-Service-Metered on every authenticated response,
// errors included. One case per error family and kind of refusal: before a body is read (413,
// 415), while it is read (400), when it is validated (422), in the service (404, 422) and when the
// rate limiter answers first (429). Unauthenticated answers carry no credit figures.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { bearer, createForm, startTestApp, type TestApp } from './helpers.ts';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

function assertCredits(response: LightMyRequestResponse, label: string): void {
  assert.match(String(response.headers['x-service-credits-remaining']), /^\d+$/, `${label}: ${response.statusCode} ${response.body}`);
  assert.match(String(response.headers['x-service-metered']), /^(true|false)$/, label);
}

describe('credit headers on every authenticated response', () => {
  let t: TestApp;
  let key: string;
  let formId: string;
  before(async () => {
    t = await startTestApp({ INTAKE_MAX_BODY_BYTES: '2048' });
    key = await t.createKey();
    formId = (await createForm(t, key)).id;
  });
  after(() => t.close());

  const json = { 'content-type': 'application/json' };
  const cases: Array<{ label: string; status: number; method: string; url: () => string; body?: string; headers?: Record<string, string> }> = [
    { label: 'forms 422 (schema)', status: 422, method: 'POST', url: () => '/api/forms', body: '{"name":""}' },
    { label: 'forms 422 (service)', status: 422, method: 'POST', url: () => '/api/forms', body: '{"name":"A","slug":"a","visibility":"public","fields_schema":{"fields":"no"}}' },
    { label: 'forms 404', status: 404, method: 'GET', url: () => `/api/forms/${UNKNOWN}` },
    { label: 'forms 400 malformed JSON', status: 400, method: 'POST', url: () => '/api/forms', body: '{"name":' },
    { label: 'forms 413', status: 413, method: 'POST', url: () => '/api/forms', body: JSON.stringify({ name: 'x'.repeat(4000) }) },
    { label: 'forms 415', status: 415, method: 'POST', url: () => '/api/forms', body: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    { label: 'submissions 404', status: 404, method: 'GET', url: () => `/api/forms/${formId}/submissions/${UNKNOWN}` },
    { label: 'submissions 400 parameters', status: 400, method: 'GET', url: () => `/api/forms/${formId}/submissions?page=0` },
    { label: 'submissions 422 body', status: 422, method: 'PATCH', url: () => `/api/forms/${formId}/submissions/${UNKNOWN}`, body: '{"spam_flag":"maybe"}' },
    { label: 'account 4xx', status: 400, method: 'PATCH', url: () => '/api/account', body: '{"language":"english"}' },
    { label: 'destinations 404', status: 404, method: 'GET', url: () => `/api/forms/${UNKNOWN}/destinations` },
    { label: 'destinations 4xx body', status: 400, method: 'POST', url: () => `/api/forms/${formId}/destinations`, body: '{"type":"carrier-pigeon"}' },
  ];
  for (const { label, status, method, url, body, headers } of cases) {
    it(label, async () => {
      const response = await t.request({ method: method as 'GET', url: url(), headers: { ...bearer(key), ...(body !== undefined && json), ...headers }, ...(body !== undefined && { payload: body }) });
      assert.equal(Math.floor(response.statusCode / 100), Math.floor(status / 100), `${label}: ${response.statusCode} ${response.body}`);
      assertCredits(response, label);
    });
  }

  it('carries none on a 401', async () => {
    const response = await t.request({ method: 'GET', url: '/api/forms', headers: bearer('sk_live_nope') });
    assert.equal(response.statusCode, 401);
    assert.equal(response.headers['x-service-credits-remaining'], undefined);
  });
});

describe('credit headers when the rate limiter answers', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ INTAKE_API_RATE_LIMIT: '1' });
  });
  after(() => t.close());

  it('stamps a 429 sent before authentication ran', async () => {
    const key = await t.createKey();
    assert.equal((await t.request({ method: 'GET', url: '/api/forms', headers: bearer(key) })).statusCode, 200);
    const limited = await t.request({ method: 'GET', url: '/api/forms', headers: bearer(key) });
    assert.equal(limited.statusCode, 429);
    assertCredits(limited, '429');
  });
});
