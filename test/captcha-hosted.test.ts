// Turnstile, hCaptcha and reCAPTCHA against a loopback fake of their siteverify APIs, speaking the
// real exchange: a form-encoded POST of secret, response and remoteip (hCaptcha: sitekey too),
// answered with JSON { success, hostname, error-codes, challenge_ts } (reCAPTCHA v3: score, action).
// A pass is stored clean; a refusal is 403 captcha_failed with nothing stored; a provider that does
// not answer in time, or fails, gets the submission stored and flagged as spam by the pipeline.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { bearer, createForm, pathOf } from './helpers.ts';
import { settled, startPipelineApp, type PipelineApp } from './pipeline-helpers.ts';

interface Seen {
  path: string;
  contentType: string;
  fields: Record<string, string>;
}

/** What the fake answers for each token: its verdict, or no answer at all ('hang'). */
const VERDICTS: Record<string, object | 'hang' | 500> = {
  good: { success: true, hostname: 'site.example', challenge_ts: '2026-11-27T10:00:00Z' },
  bad: { success: false, 'error-codes': ['invalid-input-response'] },
  spent: { success: false, 'error-codes': ['timeout-or-duplicate'] },
  elsewhere: { success: true, hostname: 'evil.example', challenge_ts: '2026-11-27T10:00:00Z' },
  'v3-high': { success: true, hostname: 'site.example', score: 0.9, action: 'submit', challenge_ts: '2026-11-27T10:00:00Z' },
  'v3-low': { success: true, hostname: 'site.example', score: 0.2, action: 'submit', challenge_ts: '2026-11-27T10:00:00Z' },
  internal: { success: false, 'error-codes': ['internal-error'] },
  hang: 'hang',
  broken: 500,
};

async function fakeSiteverify() {
  const seen: Seen[] = [];
  const hanging: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => { body += chunk; });
    req.on('end', () => {
      const fields = Object.fromEntries(new URLSearchParams(body));
      seen.push({ path: req.url ?? '', contentType: req.headers['content-type'] ?? '', fields });
      // The real APIs refuse a request without a secret; this fake does too.
      const verdict = fields.secret ? VERDICTS[fields.response ?? ''] ?? VERDICTS.bad! : { success: false, 'error-codes': ['missing-input-secret'] };
      if (verdict === 'hang') return void hanging.push(res);
      if (verdict === 500) return void res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Server error</h1>');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(verdict));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base, seen,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const PROVIDERS = [
  { provider: 'turnstile', field: 'cf-turnstile-response', path: '/turnstile/v0/siteverify' },
  { provider: 'hcaptcha', field: 'h-captcha-response', path: '/hcaptcha/siteverify' },
  { provider: 'recaptcha', field: 'g-recaptcha-response', path: '/recaptcha/api/siteverify' },
] as const;

describe('hosted CAPTCHA providers', () => {
  let fake: Awaited<ReturnType<typeof fakeSiteverify>>;
  let t: PipelineApp;
  let key: string;
  before(async () => {
    fake = await fakeSiteverify();
    t = await startPipelineApp({
      INTAKE_TURNSTILE_VERIFY_URL: `${fake.base}/turnstile/v0/siteverify`,
      INTAKE_HCAPTCHA_VERIFY_URL: `${fake.base}/hcaptcha/siteverify`,
      INTAKE_RECAPTCHA_VERIFY_URL: `${fake.base}/recaptcha/api/siteverify`,
      // Long enough that a loaded CI host answers the fake in time (at 300 ms a pass was once read
      // as a timeout and flagged), short enough that the three hanging tokens cost little.
      INTAKE_CAPTCHA_VERIFY_TIMEOUT_MS: '2000',
    });
    key = await t.createKey();
  });
  after(async () => {
    await t.close();
    await fake.close();
  });

  const DATA = { name: 'Ada', email: 'ada@example.com' };
  const submit = (endpoint: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.request({ method: 'POST', url: pathOf(endpoint), headers: { 'content-type': 'application/json', origin: 'https://site.example', ...headers }, payload: JSON.stringify(payload) });
  const stored = async (formId: string) =>
    (await t.request({ method: 'GET', url: `/api/forms/${formId}/submissions?filter=all&page_size=100`, headers: bearer(key) })).json().meta.total_count as number;

  it('a form needs the site key and the secret of a hosted provider, and never shows the secret', async () => {
    const missing = await t.request({
      method: 'POST', url: '/api/forms', headers: bearer(key),
      payload: { name: 'C', slug: 'no-keys', visibility: 'public', fields_schema: { fields: [] }, captcha_provider: 'turnstile' },
    });
    assert.equal(missing.statusCode, 422, missing.body);
    assert.ok(missing.json().errors.captcha_site_key);
    assert.ok(missing.json().errors.captcha_secret);
    const form = await createForm(t, key, { captcha_provider: 'turnstile', captcha_site_key: '1x00000000000000000000AA', captcha_secret: 'shown-never' });
    assert.equal(form.captcha_provider, 'turnstile');
    assert.equal(form.captcha_site_key, '1x00000000000000000000AA');
    assert.ok(!JSON.stringify(form).includes('shown-never'));
    const doc = (await t.request({ method: 'GET', url: pathOf(form.endpoint), headers: { accept: 'application/json' } })).json();
    assert.deepEqual(doc.captcha, { provider: 'turnstile', field: 'cf-turnstile-response', site_key: '1x00000000000000000000AA' });
  });

  for (const { provider, field, path } of PROVIDERS) {
    describe(provider, () => {
      let form: Awaited<ReturnType<typeof createForm>>;
      before(async () => {
        form = await createForm(t, key, { captcha_provider: provider, captcha_site_key: `site-${provider}`, captcha_secret: `secret-${provider}` });
      });

      it('stores a submission whose token the provider accepts, clean, sending it the real request', async () => {
        const before = fake.seen.length;
        const response = await submit(form.endpoint, { ...DATA, [field]: 'good' });
        assert.equal(response.statusCode, 201, response.body);
        assert.deepEqual(response.json().data, DATA, 'the token is not data');
        const request = fake.seen.slice(before);
        assert.equal(request.length, 1);
        assert.equal(request[0]!.path, path);
        assert.equal(request[0]!.contentType, 'application/x-www-form-urlencoded');
        assert.equal(request[0]!.fields.secret, `secret-${provider}`);
        assert.equal(request[0]!.fields.response, 'good');
        assert.equal(typeof request[0]!.fields.remoteip, 'string');
        if (provider === 'hcaptcha') assert.equal(request[0]!.fields.sitekey, 'site-hcaptcha');
        const done = await settled(t, key, form.id, response.json().id);
        assert.equal(done.spam_flag, false);
      });

      it('refuses a missing, refused, spent or other-site token with 403 captcha_failed, storing nothing', async () => {
        const count = await stored(form.id);
        for (const payload of [DATA, { ...DATA, [field]: 'bad' }, { ...DATA, [field]: 'spent' }, { ...DATA, [field]: 'elsewhere' }]) {
          const response = await submit(form.endpoint, payload);
          assert.equal(response.statusCode, 403, `${JSON.stringify(payload)}: ${response.body}`);
          assert.equal(response.json().error.code, 'captcha_failed');
        }
        assert.equal(await stored(form.id), count);
      });

      it('stores the submission as spam when the provider does not answer in time, fails, or answers 5xx', async () => {
        for (const token of ['hang', 'internal', 'broken']) {
          const response = await submit(form.endpoint, { ...DATA, [field]: token });
          assert.equal(response.statusCode, 201, `${token}: ${response.body}`);
          const done = await settled(t, key, form.id, response.json().id);
          assert.equal(done.spam_flag, true, token);
          assert.match(done.spam_reason ?? '', new RegExp(`CAPTCHA not verified: ${provider}`));
          if (token === 'hang') assert.match(done.spam_reason ?? '', /did not answer within 2000 ms/);
        }
      });
    });
  }

  it('reCAPTCHA v3: a score at or above the floor passes, below it fails', async () => {
    const form = await createForm(t, key, { captcha_provider: 'recaptcha', captcha_site_key: 'site-v3', captcha_secret: 'secret-v3' });
    assert.equal((await submit(form.endpoint, { ...DATA, 'g-recaptcha-response': 'v3-high' })).statusCode, 201);
    const low = await submit(form.endpoint, { ...DATA, 'g-recaptcha-response': 'v3-low' });
    assert.equal(low.statusCode, 403);
    assert.match(low.json().error.message, /score 0.2 is below 0.5/);
  });

  it('checks the hostname against the posting page only when there is one', async () => {
    const form = await createForm(t, key, { captcha_provider: 'turnstile', captcha_site_key: 'site-t', captcha_secret: 'secret-t' });
    // No Origin and no Referer: a server relaying a token; the hostname cannot be compared with anything.
    const relayed = await t.request({ method: 'POST', url: pathOf(form.endpoint), headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ ...DATA, 'cf-turnstile-response': 'elsewhere' }) });
    assert.equal(relayed.statusCode, 201, relayed.body);
    const referred = await submit(form.endpoint, { ...DATA, 'cf-turnstile-response': 'good' }, { origin: '', referer: 'https://evil.example/contact' });
    assert.equal(referred.statusCode, 403);
  });
});
