import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bearer, CONTACT_SCHEMA, createForm, pathOf, startTestApp, type TestApp } from './helpers.ts';

const ALIAS_SCHEMA = { fields: [...CONTACT_SCHEMA.fields, { name: 'work_email', type: 'email' }] };

describe('forms API', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await startTestApp();
    key = await t.createKey();
  });
  after(() => t.close());

  const post = (payload: unknown, k = key) => t.request({ method: 'POST', url: '/api/forms', headers: bearer(k), payload: payload as object });

  it('creates a public form with the spec defaults and an endpoint', async () => {
    const response = await post({ name: 'Contact us', slug: 'contact-us', visibility: 'public', fields_schema: CONTACT_SCHEMA });
    assert.equal(response.statusCode, 201);
    const form = response.json();
    assert.match(form.id, /^[0-9a-f-]{36}$/);
    assert.equal(form.name, 'Contact us');
    assert.equal(form.slug, 'contact-us');
    assert.equal(form.visibility, 'public');
    assert.equal(form.submission_token, null);
    assert.match(form.endpoint, /^http:\/\/localhost(:\d+)?\/api\/[A-Za-z0-9_-]{22}\/f\/contact-us$/);
    assert.ok(!Number.isNaN(Date.parse(form.created_at)));
    assert.equal(form.spam_protection_enabled, false);
    assert.equal(form.spam_protection_strategy, 'standard');
    assert.equal(form.localisation_enabled, false);
    assert.equal(form.smart_reply_enabled, false);
    assert.equal(form.smart_replies_mode, 'draft');
    assert.equal(form.webhook_enabled, false);
    assert.equal(form.submission_count, 0);
    assert.equal(form.version, 1);
    assert.equal(form.schema.fields[0].name, 'name');
    assert.equal(form.schema.fields[0].required, true);
    assert.equal('webhook_secret' in form, false);
  });

  it('returns a private form token once, and never again', async () => {
    const created = await createForm(t, key, { visibility: 'private' });
    assert.match(created.submission_token ?? '', /^st_[A-Za-z0-9_-]{43}$/);
    const got = await t.request({ method: 'GET', url: `/api/forms/${created.id}`, headers: bearer(key) });
    assert.equal(got.statusCode, 200);
    assert.equal(got.body.includes(created.submission_token as string), false);
    assert.equal('submission_token' in got.json(), false);
  });

  it('answers 422 with every field error at once', async () => {
    const response = await post({ name: '', slug: 'Not A Slug', visibility: 'secret', fields_schema: { fields: [] }, colour: 'red' });
    assert.equal(response.statusCode, 422);
    const { errors } = response.json();
    assert.deepEqual(Object.keys(errors).sort(), ['colour', 'name', 'slug', 'visibility']);
    assert.deepEqual(errors.name, ["can't be blank"]);
    assert.deepEqual(errors.visibility, ['must be one of: public, private']);
    assert.deepEqual(errors.colour, ['is not a known field']);
  });

  it('answers 422 for missing required members', async () => {
    const response = await post({});
    assert.equal(response.statusCode, 422);
    assert.deepEqual(response.json(), {
      errors: { name: ['is required'], slug: ['is required'], visibility: ['is required'], fields_schema: ['is required'] },
    });
  });

  it('enforces name and slug lengths', async () => {
    const response = await post({ name: 'x'.repeat(101), slug: 'a'.repeat(65), visibility: 'public', fields_schema: CONTACT_SCHEMA });
    assert.equal(response.statusCode, 422);
    assert.deepEqual(response.json().errors, {
      name: ['is too long (maximum is 100 characters)'],
      slug: ['is too long (maximum is 64 characters)'],
    });
  });

  it('refuses a slug already taken by the same owner, but not by another', async () => {
    await createForm(t, key, { slug: 'taken' });
    const again = await post({ name: 'Two', slug: 'taken', visibility: 'public', fields_schema: CONTACT_SCHEMA });
    assert.equal(again.statusCode, 422);
    assert.deepEqual(again.json(), { errors: { slug: ['has already been taken'] } });
    const other = await t.createKey();
    const theirs = await post({ name: 'Two', slug: 'taken', visibility: 'public', fields_schema: CONTACT_SCHEMA }, other);
    assert.equal(theirs.statusCode, 201);
  });

  it('refuses a bad field schema with 422 naming the field', async () => {
    const response = await post({
      name: 'Bad', slug: 'bad-schema', visibility: 'public',
      fields_schema: { fields: [{ name: 'email', type: 'emial' }, { name: 'x', type: 'string', rules: [{ op: 'pattern', value: '(' }] }, { name: 'x', type: 'string' }] },
    });
    assert.equal(response.statusCode, 422);
    const messages: string[] = response.json().errors.fields_schema;
    assert.ok(messages.some((m) => m.includes('"email"') && m.includes('emial')), messages.join('; '));
    assert.ok(messages.some((m) => m.includes('"x"') && /regular expression/.test(m)), messages.join('; '));
    assert.ok(messages.some((m) => /duplicate/.test(m) && m.includes('"x"')), messages.join('; '));
  });

  it('applies the conditional requirements of smart replies and webhooks', async () => {
    const base = { name: 'Hooks', slug: 'hooks', visibility: 'public', fields_schema: CONTACT_SCHEMA };
    const missing = await post({ ...base, smart_reply_enabled: true, webhook_enabled: true });
    assert.equal(missing.statusCode, 422);
    assert.deepEqual(missing.json().errors, {
      knowledge_base_id: ['is required when smart_reply_enabled is true'],
      webhook_url: ['is required when webhook_enabled is true'],
      webhook_secret: ['is required when webhook_enabled is true'],
    });
    const insecure = await post({ ...base, webhook_enabled: true, webhook_url: 'http://example.com/hook', webhook_secret: 'long-enough' });
    assert.deepEqual(Object.keys(insecure.json().errors), ['webhook_url']);
    assert.match(insecure.json().errors.webhook_url[0], /^must be an HTTPS URL; .*INTAKE_OUTBOUND_ALLOW=example\.com/);
    const shortSecret = await post({ ...base, webhook_enabled: true, webhook_url: 'https://example.com/hook', webhook_secret: 'short' });
    assert.deepEqual(shortSecret.json().errors, { webhook_secret: ['is too short (minimum is 8 characters)'] });
    const ok = await post({ ...base, webhook_enabled: true, webhook_url: 'https://example.com/hook', webhook_secret: 'long-enough' });
    assert.equal(ok.statusCode, 201);
    assert.equal(ok.json().webhook_url, 'https://example.com/hook');
    assert.equal('webhook_secret' in ok.json(), false);
  });

  it('answers 401 with plain text for a missing, unknown or malformed key (revoked: see the CLI test)', async () => {
    for (const headers of [{}, bearer('ik_unknown'), { authorization: 'Basic abc' }]) {
      const response = await t.request({ method: 'GET', url: '/api/forms', headers });
      assert.equal(response.statusCode, 401);
      assert.equal(response.body, 'Unauthorized');
      assert.match(String(response.headers['content-type']), /^text\/plain/);
    }
  });

  it('answers 404 with the spec body for unknown and foreign forms', async () => {
    const mine = await createForm(t, key);
    const other = await t.createKey();
    for (const [method, payload] of [['GET'], ['PUT', { name: 'x' }], ['DELETE']] as const) {
      for (const url of ['/api/forms/00000000-0000-0000-0000-000000000000', `/api/forms/${mine.id}`, '/api/forms/not-a-uuid']) {
        const k = url.includes(mine.id) ? other : key;
        const response = await t.request({ method, url, headers: bearer(k), ...(payload && { payload }) });
        assert.equal(response.statusCode, 404, `${method} ${url}`);
        assert.deepEqual(response.json(), { errors: 'Form not found' });
      }
    }
    const still = await t.request({ method: 'GET', url: `/api/forms/${mine.id}`, headers: bearer(key) });
    assert.equal(still.json().name, 'Contact');
  });

  it('lists only the owner\'s forms, with submission counts', async () => {
    const owner = await t.createKey();
    const a = await createForm(t, owner, { name: 'A' });
    const b = await createForm(t, owner, { name: 'B' });
    await t.request({ method: 'POST', url: pathOf(a.endpoint), payload: { name: 'Ada', email: 'ada@example.com' } });
    const response = await t.request({ method: 'GET', url: '/api/forms', headers: bearer(owner) });
    assert.equal(response.statusCode, 200);
    const { forms } = response.json();
    assert.deepEqual(forms.map((f: { id: string }) => f.id).sort(), [a.id, b.id].sort());
    const first = forms.find((f: { id: string }) => f.id === a.id);
    assert.deepEqual(Object.keys(first).sort(), ['created_at', 'endpoint', 'id', 'name', 'slug', 'submission_count', 'visibility']);
    assert.equal(first.submission_count, 1);
  });

  it('updates some fields and keeps the others', async () => {
    const form = await createForm(t, key, { spam_protection_enabled: true });
    const response = await t.request({ method: 'PUT', url: `/api/forms/${form.id}`, headers: bearer(key), payload: { name: 'Renamed' } });
    assert.equal(response.statusCode, 200);
    const updated = response.json();
    assert.equal(updated.name, 'Renamed');
    assert.equal(updated.spam_protection_enabled, true);
    assert.equal(updated.endpoint, form.endpoint, 'no schema change, no new endpoint');
    assert.equal(updated.version, 1);
  });

  it('checks conditional requirements against the updated form', async () => {
    const form = await createForm(t, key);
    const response = await t.request({ method: 'PUT', url: `/api/forms/${form.id}`, headers: bearer(key), payload: { webhook_enabled: true } });
    assert.equal(response.statusCode, 422);
    assert.deepEqual(Object.keys(response.json().errors).sort(), ['webhook_secret', 'webhook_url']);
    const unchanged = await t.request({ method: 'GET', url: `/api/forms/${form.id}`, headers: bearer(key) });
    assert.equal(unchanged.json().webhook_enabled, false);
  });

  it('mints a new endpoint when the schema changes', async () => {
    const form = await createForm(t, key);
    const fields = [...CONTACT_SCHEMA.fields, { name: 'phone', type: 'string' }];
    const response = await t.request({ method: 'PUT', url: `/api/forms/${form.id}`, headers: bearer(key), payload: { fields_schema: { fields } } });
    assert.equal(response.statusCode, 200);
    const updated = response.json();
    assert.notEqual(updated.endpoint, form.endpoint);
    assert.equal(updated.version, 2);
    assert.equal(updated.schema.fields.length, 5);
  });

  it('numbers concurrent schema changes one after another', async () => {
    const form = await createForm(t, key);
    const updates = await Promise.all([1, 2, 3, 4].map((n) => t.request({
      method: 'PUT', url: `/api/forms/${form.id}`, headers: bearer(key),
      payload: { fields_schema: { fields: [...CONTACT_SCHEMA.fields, { name: `extra${n}`, type: 'string' }] } },
    })));
    assert.deepEqual(updates.map((r) => r.statusCode), [200, 200, 200, 200], updates.map((r) => r.body).join('\n'));
    const final = (await t.request({ method: 'GET', url: `/api/forms/${form.id}`, headers: bearer(key) })).json();
    assert.equal(final.version, 5);
    assert.equal(new Set(updates.map((r) => r.json().endpoint)).size, 4, 'each change minted its own endpoint');
  });

  it('gives a form made private a token in the update response', async () => {
    const form = await createForm(t, key);
    const response = await t.request({ method: 'PUT', url: `/api/forms/${form.id}`, headers: bearer(key), payload: { visibility: 'private' } });
    assert.equal(response.statusCode, 200);
    assert.match(response.json().submission_token, /^st_/);
    const again = await t.request({ method: 'PUT', url: `/api/forms/${form.id}`, headers: bearer(key), payload: { name: 'Still private' } });
    assert.equal('submission_token' in again.json(), false);
  });

  it('deletes a form and answers with it', async () => {
    const form = await createForm(t, key);
    const response = await t.request({ method: 'DELETE', url: `/api/forms/${form.id}`, headers: bearer(key) });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().id, form.id);
    assert.equal(response.json().schema.fields.length, 4);
    const gone = await t.request({ method: 'GET', url: `/api/forms/${form.id}`, headers: bearer(key) });
    assert.equal(gone.statusCode, 404);
    const submit = await t.request({ method: 'POST', url: pathOf(form.endpoint), payload: { name: 'A', email: 'a@example.com' } });
    assert.equal(submit.statusCode, 404);
  });

  it('carries the credit headers on every authenticated response', async () => {
    const ok = await t.request({ method: 'GET', url: '/api/forms', headers: bearer(key) });
    assert.equal(ok.headers['x-service-credits-remaining'], '50');
    assert.equal(ok.headers['x-service-metered'], 'false');
    const notFound = await t.request({ method: 'GET', url: '/api/forms/00000000-0000-0000-0000-000000000000', headers: bearer(key) });
    assert.equal(notFound.headers['x-service-credits-remaining'], '50');
    assert.equal(ok.headers['x-ratelimit-remaining'], undefined);
    assert.equal(ok.headers['x-ratelimit-limit'], undefined);
  });

  it('answers malformed and non-object JSON bodies with a clear 400', async () => {
    for (const payload of ['{"name":', '[1,2]', '"text"', '{"__proto__":{"x":1}}']) {
      const response = await t.request({ method: 'POST', url: '/api/forms', headers: { ...bearer(key), 'content-type': 'application/json' }, payload });
      assert.equal(response.statusCode, 400, payload);
      assert.ok(response.json().errors.body[0].length > 10);
    }
  });

  // The hosted service's name for the smart-reply address field, accepted as Intake's.
  const putForm = (id: string, payload: Record<string, unknown>) => t.request({ method: 'PUT', url: `/api/forms/${id}`, headers: bearer(key), payload });
  const getForm = async (id: string) => (await t.request({ method: 'GET', url: `/api/forms/${id}`, headers: bearer(key) })).json();

  it('takes smart_reply_email_field as reply_email_field on create, answered under that name', async () => {
    const form = await createForm(t, key, { fields_schema: ALIAS_SCHEMA, smart_reply_email_field: 'work_email' });
    const stored = await getForm(form.id);
    assert.equal(stored.reply_email_field, 'work_email');
    assert.equal('smart_reply_email_field' in stored, false);
    assert.equal('smart_reply_email_field' in form, false);
  });

  it('takes smart_reply_email_field as reply_email_field on update, and both given must agree', async () => {
    const form = await createForm(t, key, { fields_schema: ALIAS_SCHEMA });
    const updated = await putForm(form.id, { smart_reply_email_field: 'work_email' });
    assert.equal(updated.statusCode, 200, updated.body);
    assert.equal(updated.json().reply_email_field, 'work_email');
    assert.equal('smart_reply_email_field' in updated.json(), false);
    assert.equal((await putForm(form.id, { smart_reply_email_field: 'email', reply_email_field: 'email' })).json().reply_email_field, 'email');
    const differ = await putForm(form.id, { smart_reply_email_field: 'work_email', reply_email_field: 'email' });
    assert.equal(differ.statusCode, 422);
    assert.deepEqual(Object.keys(differ.json().errors), ['smart_reply_email_field']);
    const notEmail = await putForm(form.id, { smart_reply_email_field: 'name' });
    assert.equal(notEmail.statusCode, 422, 'checked as reply_email_field is');
    assert.equal((await getForm(form.id)).reply_email_field, 'email');
    assert.equal((await putForm(form.id, { smart_reply_email_field: null })).json().reply_email_field, null);
  });
});
