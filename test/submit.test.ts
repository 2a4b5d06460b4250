import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bearer, createForm, pathOf, startTestApp, type TestApp } from './helpers.ts';

describe('submission endpoint', () => {
  let t: TestApp;
  let key: string;
  let form: Awaited<ReturnType<typeof createForm>>;
  let url: string;
  before(async () => {
    t = await startTestApp({ INTAKE_MAX_BODY_BYTES: '4096' });
    key = await t.createKey();
    form = await createForm(t, key);
    url = pathOf(form.endpoint);
  });
  after(() => t.close());

  const submit = (payload: unknown, headers: Record<string, string> = {}, path = url) =>
    t.request({ method: 'POST', url: path, headers: { 'content-type': 'application/json', ...headers }, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) });
  const storedCount = async () =>
    (await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions?filter=all&page_size=100`, headers: bearer(key) })).json().meta.total_count as number;

  it('stores a valid submission and answers 201 with id, data and created_at only', async () => {
    const response = await submit({ name: 'Ada', email: 'ada@example.com', message: 'Hello', age: '36' }, { 'user-agent': 'test-agent', referer: 'https://site.example/contact?utm_source=news' });
    assert.equal(response.statusCode, 201);
    const body = response.json();
    assert.deepEqual(Object.keys(body).sort(), ['created_at', 'data', 'id']);
    assert.deepEqual(body.data, { name: 'Ada', email: 'ada@example.com', message: 'Hello', age: 36 });
    const stored = await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions/${body.id}`, headers: bearer(key) });
    assert.equal(stored.statusCode, 200);
    const s = stored.json();
    assert.equal(s.processing_status, 'pending');
    assert.equal(s.spam_flag, false);
    assert.equal(s.reply_status, 'pending');
    assert.equal(s.metadata.user_agent, 'test-agent');
    assert.equal(s.metadata.referer, 'https://site.example/contact?utm_source=news');
    assert.deepEqual(s.metadata.utm, { utm_source: 'news' });
    assert.equal(typeof s.metadata.ip, 'string');
  });

  it('reads UTM parameters from the endpoint\'s query first, percent-encoded keys included, and not from a referer without them', async () => {
    const response = await submit({ name: 'Ada', email: 'ada@example.com', message: 'Hello' }, { referer: 'https://site.example/contact?ref=x' },
      `${url}?%75tm_campaign=launch&utm_medium=mail`);
    assert.equal(response.statusCode, 201);
    const stored = await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions/${response.json().id}`, headers: bearer(key) });
    assert.deepEqual(stored.json().metadata.utm, { utm_medium: 'mail', utm_campaign: 'launch' });
  });

  it('answers 400 validation_error with details per field, and stores nothing', async () => {
    const before = await storedCount();
    const response = await submit({ email: 'not-an-email', age: 'old' });
    assert.equal(response.statusCode, 400);
    const { error } = response.json();
    assert.equal(error.code, 'validation_error');
    assert.equal(typeof error.message, 'string');
    assert.deepEqual(error.details, { name: ['is required'], email: ['invalid email'], age: ['invalid number'] });
    assert.equal(await storedCount(), before);
  });

  it('refuses every kind of bad body with a clear 4xx JSON error and stores nothing', async () => {
    const before = await storedCount();
    const cases: Array<[string | Buffer, number, string, Record<string, string>?]> = [
      ['{"name": "Ada",', 400, 'malformed_json'],
      ['[{"name":"Ada"}]', 400, 'invalid_body'],
      ['"just text"', 400, 'invalid_body'],
      ['42', 400, 'invalid_body'],
      ['null', 400, 'invalid_body'],
      ['{"__proto__": {"admin": true}, "name": "Ada", "email": "a@example.com"}', 400, 'malformed_json'],
      ['{"constructor": {"prototype": {"x": 1}}, "name": "Ada", "email": "a@example.com"}', 400, 'malformed_json'],
      [`{"name": ${'['.repeat(100)}${']'.repeat(100)}, "email": "a@example.com"}`, 400, 'invalid_body'],
      [Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]), 400, 'malformed_json'],
      [JSON.stringify({ name: 'x'.repeat(5000), email: 'a@example.com' }), 413, 'payload_too_large'],
      ['', 400, 'invalid_body'],
      ['name=Ada', 415, 'unsupported_media_type', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['{"name":"Ada"}', 415, 'unsupported_media_type', { 'content-type': 'text/plain' }],
      [JSON.stringify({ name: { first: 'Ada' }, email: ['a@example.com'] }), 400, 'validation_error'],
    ];
    for (const [payload, status, code, headers] of cases) {
      const response = await t.request({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload });
      assert.equal(response.statusCode, status, `${String(payload).slice(0, 40)} → ${response.body}`);
      const body = response.json();
      assert.equal(body.error.code, code, String(payload).slice(0, 40));
      assert.ok(body.error.message.length > 10);
    }
    assert.equal(await storedCount(), before);
    const health = await t.request({ method: 'GET', url: '/healthz' });
    assert.equal(health.statusCode, 200);
  });

  it('answers 404 form_not_found for an unknown segment or slug', async () => {
    const [, , segment] = url.split('/');
    for (const path of ['/api/AAAAAAAAAAAAAAAAAAAAAA/f/contact', `/api/${segment}/f/other-slug`]) {
      const response = await submit({ name: 'Ada', email: 'ada@example.com' }, {}, path);
      assert.equal(response.statusCode, 404);
      assert.equal(response.json().error.code, 'form_not_found');
      const discover = await t.request({ method: 'GET', url: path, headers: { accept: 'application/json' } });
      assert.equal(discover.statusCode, 404);
    }
  });

  it('needs the submission token for a private form', async () => {
    const privateForm = await createForm(t, key, { visibility: 'private' });
    const path = pathOf(privateForm.endpoint);
    const valid = { name: 'Ada', email: 'ada@example.com' };
    for (const headers of [{}, bearer('st_wrong'), bearer(key), { authorization: `Token ${privateForm.submission_token}` }]) {
      const response = await submit(valid, headers, path);
      assert.equal(response.statusCode, 401);
      assert.equal(response.json().error.code, 'unauthorized');
    }
    const ok = await submit(valid, bearer(privateForm.submission_token as string), path);
    assert.equal(ok.statusCode, 201);
  });

  it('returns the first submission for a repeated Idempotency-Key', async () => {
    const payload = { name: 'Ada', email: 'ada@example.com' };
    const first = await submit(payload, { 'idempotency-key': 'order-1' });
    assert.equal(first.statusCode, 201);
    const before = await storedCount();
    const again = await submit(payload, { 'idempotency-key': 'order-1' });
    assert.equal(again.statusCode, 200);
    assert.deepEqual(again.json(), first.json());
    const concurrent = await Promise.all([1, 2, 3].map(() => submit(payload, { 'idempotency-key': 'order-2' })));
    assert.deepEqual(concurrent.map((r) => r.statusCode).sort(), [200, 200, 201]);
    assert.equal(new Set(concurrent.map((r) => r.json().id)).size, 1);
    assert.equal(await storedCount(), before + 1);
    const other = await createForm(t, key);
    const sameKeyOtherForm = await submit(payload, { 'idempotency-key': 'order-1' }, pathOf(other.endpoint));
    assert.equal(sameKeyOtherForm.statusCode, 201, 'keys are scoped to the form');
    const tooLong = await submit(payload, { 'idempotency-key': 'k'.repeat(257) });
    assert.equal(tooLong.statusCode, 400);
  });

  it('keeps old endpoints on their schema version while discovery points to the current one', async () => {
    const versioned = await createForm(t, key, { fields_schema: { fields: [{ name: 'email', type: 'email', required: true }] } });
    const oldPath = pathOf(versioned.endpoint);
    const update = await t.request({
      method: 'PUT', url: `/api/forms/${versioned.id}`, headers: bearer(key),
      payload: { fields_schema: { fields: [{ name: 'email', type: 'email', required: true }, { name: 'company', type: 'string', required: true }] } },
    });
    const newPath = pathOf(update.json().endpoint);
    assert.notEqual(newPath, oldPath);
    assert.equal((await submit({ email: 'a@example.com' }, {}, oldPath)).statusCode, 201);
    const missingCompany = await submit({ email: 'a@example.com' }, {}, newPath);
    assert.equal(missingCompany.statusCode, 400);
    assert.deepEqual(missingCompany.json().error.details, { company: ['is required'] });
    assert.equal((await submit({ email: 'a@example.com', company: 'ACME' }, {}, newPath)).statusCode, 201);
    const unknownOnOld = await submit({ email: 'a@example.com', company: 'ACME' }, {}, oldPath);
    assert.equal(unknownOnOld.statusCode, 400, 'the old version has no company field');
    assert.deepEqual(unknownOnOld.json().error.details, {
      company: [`is a field of the form's current version, not of this older endpoint's: send to ${update.json().endpoint}`],
    });
    assert.deepEqual((await submit({ email: 'a@example.com', nonsense: 1 }, {}, oldPath)).json().error.details, { nonsense: ['is not a field of this form'] });
    for (const path of [oldPath, newPath]) {
      const doc = (await t.request({ method: 'GET', url: path, headers: { accept: 'application/json' } })).json();
      assert.equal(pathOf(doc.endpoint), newPath);
      assert.deepEqual(doc.fields.map((f: { name: string }) => f.name), ['email', 'company']);
    }
    const count = (await t.request({ method: 'GET', url: `/api/forms/${versioned.id}`, headers: bearer(key) })).json().submission_count;
    assert.equal(count, 2);
  });

  it('describes itself to agents as JSON and to browsers as a page, hiding honeypots', async () => {
    const fields = [
      { name: 'email', type: 'email', required: true },
      { name: 'topic', type: 'string', rules: [{ op: 'one_of', values: ['sales', 'support'] }] },
      { name: 'website', type: 'string', rules: [{ op: 'honeypot' }] },
    ];
    const f = await createForm(t, key, { name: 'Ask <us>', fields_schema: { fields }, visibility: 'private' });
    const path = pathOf(f.endpoint);
    const json = await t.request({ method: 'GET', url: path, headers: { accept: 'application/json' } });
    assert.equal(json.statusCode, 200);
    const doc = json.json();
    assert.equal(doc.name, 'Ask <us>');
    assert.equal(doc.slug, f.slug);
    assert.equal(doc.endpoint, f.endpoint);
    assert.equal(doc.method, 'POST');
    assert.equal(doc.content_type, 'application/json');
    assert.equal(doc.visibility, 'private');
    assert.equal(doc.authentication.type, 'bearer');
    assert.deepEqual(doc.fields.map((x: { name: string }) => x.name), ['email', 'topic']);
    assert.equal(json.body.includes('website'), false);
    const page = await t.request({ method: 'GET', url: path, headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.ok(page.body.includes('Ask &lt;us&gt;'));
    assert.ok(page.body.includes('curl -X POST'));
    assert.equal(page.body.includes('website'), false);
    assert.equal(page.body.includes('Ask <us>'), false);
  });

  it('sets no cookies and allows any origin, preflight included', async () => {
    const preflight = await t.request({
      method: 'OPTIONS', url,
      headers: { origin: 'https://any.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,idempotency-key' },
    });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], '*');
    assert.match(String(preflight.headers['access-control-allow-methods']), /POST/);
    const response = await submit({ name: 'Ada', email: 'ada@example.com' }, { origin: 'https://any.example' });
    assert.equal(response.statusCode, 201);
    assert.equal(response.headers['access-control-allow-origin'], '*');
    assert.equal(response.headers['set-cookie'], undefined);
    assert.equal(response.headers['x-ratelimit-remaining'], undefined);
  });
});

describe('submission limits', () => {
  it('rate-limits per IP with 429 rate_limited and retry_after', async () => {
    const t = await startTestApp({ INTAKE_SUBMIT_RATE_LIMIT: '3' });
    try {
      const form = await createForm(t, await t.createKey());
      const send = (ip: string) => t.request({ method: 'POST', url: pathOf(form.endpoint), remoteAddress: ip, payload: { name: 'A', email: 'a@example.com' } });
      for (let i = 0; i < 3; i++) assert.equal((await send('10.0.0.1')).statusCode, 201);
      const limited = await send('10.0.0.1');
      assert.equal(limited.statusCode, 429);
      const { error } = limited.json();
      assert.equal(error.code, 'rate_limited');
      assert.ok(error.retry_after >= 1 && error.retry_after <= 60);
      assert.match(error.message, new RegExp(`${error.retry_after} second`));
      assert.equal((await send('10.0.0.2')).statusCode, 201, 'another IP has its own budget');
    } finally {
      await t.close();
    }
  });

  it('ends a free owner at the lifetime cap with plan_limit_exhausted, and pro lifts it', async () => {
    const t = await startTestApp({ INTAKE_FREE_SUBMISSION_LIMIT: '2', INTAKE_BILLING_URL: 'https://billing.example/upgrade' });
    try {
      const email = 'capped@example.com';
      const key = await t.createKey(email);
      const a = await createForm(t, key);
      const b = await createForm(t, key);
      const send = (f: typeof a) => t.request({ method: 'POST', url: pathOf(f.endpoint), payload: { name: 'A', email: 'a@example.com' } });
      assert.equal((await send(a)).statusCode, 201);
      assert.equal((await send(b)).statusCode, 201);
      const capped = await send(a);
      assert.equal(capped.statusCode, 429);
      assert.deepEqual(capped.json().error, {
        code: 'plan_limit_exhausted',
        message: capped.json().error.message,
        upgrade_url: 'https://billing.example/upgrade',
      });
      const listed = await t.request({ method: 'GET', url: `/api/forms/${a.id}`, headers: bearer(key) });
      assert.equal(listed.json().submission_count, 1, 'the refused submission was not stored');
      await t.database.db.updateTable('accounts').set({ plan: 'pro' }).where('email', '=', email).execute();
      assert.equal((await send(a)).statusCode, 201);
    } finally {
      await t.close();
    }
  });

  it('takes the client IP from X-Forwarded-For only when INTAKE_TRUST_PROXY is on', async () => {
    for (const trust of [false, true]) {
      const t = await startTestApp({ INTAKE_SUBMIT_RATE_LIMIT: '1', INTAKE_TRUST_PROXY: String(trust) });
      try {
        const key = await t.createKey();
        const form = await createForm(t, key);
        const send = (forwardedFor: string) =>
          t.request({ method: 'POST', url: pathOf(form.endpoint), remoteAddress: '10.9.9.9', headers: { 'x-forwarded-for': forwardedFor }, payload: { name: 'A', email: 'a@example.com' } });
        const first = await send('203.0.113.7');
        assert.equal(first.statusCode, 201);
        const second = await send('198.51.100.8');
        assert.equal(second.statusCode, trust ? 201 : 429, 'a forwarded address is its own client only behind a trusted proxy');
        const stored = await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions/${first.json().id}`, headers: bearer(key) });
        assert.equal(stored.json().metadata.ip, trust ? '203.0.113.7' : '10.9.9.9');
      } finally {
        await t.close();
      }
    }
  });
});
