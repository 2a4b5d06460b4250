import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FAQ } from './fixtures.ts';
import { bearer, createForm, startTestApp, type TestApp } from './helpers.ts';


describe('knowledge bases API', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await startTestApp({ INTAKE_KB_MAX_BYTES: '4096' });
    key = await t.createKey();
  });
  after(() => t.close());

  const kbs = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path = '', payload?: unknown, k = key) =>
    t.request({ method, url: `/api/knowledge_bases${path}`, headers: bearer(k), ...(payload !== undefined && { payload: payload as object }) });

  it('creates a knowledge base split into passages, and gets, lists, updates it', async () => {
    const created = await kbs('POST', '', { name: 'Shop FAQ', content: FAQ, signature: 'The Shop team' });
    assert.equal(created.statusCode, 201, created.body);
    const kb = created.json();
    assert.match(kb.id, /^[0-9a-f-]{36}$/);
    assert.equal(kb.passage_count, 3);
    assert.equal(kb.signature, 'The Shop team');
    assert.equal(kb.content, FAQ);
    assert.equal(kb.version, 1);
    assert.equal(kb.linked_forms, 0);

    const got = await kbs('GET', `/${kb.id}`);
    assert.equal(got.statusCode, 200);
    assert.equal(got.json().content, FAQ);

    await createForm(t, key, { smart_reply_enabled: true, knowledge_base_id: kb.id });
    const listed = (await kbs('GET')).json().knowledge_bases;
    const entry = listed.find((item: { id: string }) => item.id === kb.id);
    assert.equal(entry.linked_forms, 1);
    assert.equal(entry.passage_count, 3);
    assert.equal('content' in entry, false);

    const markdown = '# Shipping\n\nWe ship worldwide.\n\n## Returns\n\nReturns are free within 30 days.\n\nKeep the receipt.';
    const updated = await kbs('PUT', `/${kb.id}`, { content: markdown });
    assert.equal(updated.statusCode, 200, updated.body);
    assert.equal(updated.json().version, 2);
    assert.equal(updated.json().passage_count, 2);
    assert.equal(updated.json().name, 'Shop FAQ');
    const renamed = await kbs('PUT', `/${kb.id}`, { name: 'Renamed', signature: null });
    assert.equal(renamed.json().name, 'Renamed');
    assert.equal(renamed.json().signature, null);
    assert.equal(renamed.json().content, markdown);
  });

  it('refuses bad input with 422 and the envelope, and changes nothing', async () => {
    const kb = (await kbs('POST', '', { name: 'Keep', content: 'Some text.' })).json();
    const cases: Array<[unknown, string]> = [
      [{ content: 'x' }, 'name'],
      [{ name: 'x' }, 'content'],
      [{ name: '', content: 'x' }, 'name'],
      [{ name: 'x'.repeat(101), content: 'x' }, 'name'],
      [{ name: 'x', content: '   \n\n ' }, 'content'],
      [{ name: 'x', content: 'é'.repeat(2100) }, 'content'],
      [{ name: 'x', content: 'x', colour: 'red' }, 'colour'],
      [{ name: 'x', content: 42 }, 'content'],
    ];
    for (const [payload, field] of cases) {
      const response = await kbs('POST', '', payload);
      assert.equal(response.statusCode, 422, `${JSON.stringify(payload).slice(0, 80)}: ${response.body}`);
      const body = response.json();
      assert.equal(body.error.code, 'validation_error');
      assert.equal(typeof body.error.message, 'string');
      assert.ok(body.error.details[field], `${field} in ${response.body}`);
    }
    const bad = await kbs('PUT', `/${kb.id}`, { content: '' });
    assert.equal(bad.statusCode, 422);
    assert.equal((await kbs('GET', `/${kb.id}`)).json().content, 'Some text.');

    const notObject = await t.request({ method: 'POST', url: '/api/knowledge_bases', headers: { ...bearer(key), 'content-type': 'application/json' }, payload: '[1]' });
    assert.equal(notObject.statusCode, 400);
    assert.equal(notObject.json().error.code, 'invalid_body');
    const malformed = await t.request({ method: 'POST', url: '/api/knowledge_bases', headers: { ...bearer(key), 'content-type': 'application/json' }, payload: '{"name":' });
    assert.equal(malformed.statusCode, 400);
    assert.equal(malformed.json().error.code, 'malformed_json');
  });

  it('answers 401 without a key and 404 for another owner’s knowledge base', async () => {
    const kb = (await kbs('POST', '', { name: 'Mine', content: FAQ })).json();
    const anonymous = await t.request({ method: 'GET', url: '/api/knowledge_bases' });
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.json().error.code, 'unauthorized');

    const other = await t.createKey();
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const response = await kbs(method, `/${kb.id}`, method === 'PUT' ? { name: 'Stolen' } : undefined, other);
      assert.equal(response.statusCode, 404, method);
      assert.equal(response.json().error.code, 'not_found');
    }
    assert.equal((await kbs('GET', '', undefined, other)).json().knowledge_bases.length, 0);
    assert.equal((await kbs('GET', `/${kb.id}`)).json().name, 'Mine');
    assert.equal((await kbs('GET', '/not-a-uuid')).statusCode, 404);

    // A form may link only its owner's knowledge base, on create and on update.
    const foreign = await t.request({
      method: 'POST', url: '/api/forms', headers: bearer(other),
      payload: { name: 'F', slug: 'f', visibility: 'public', fields_schema: { fields: [{ name: 'email', type: 'email' }] }, smart_reply_enabled: true, knowledge_base_id: kb.id },
    });
    assert.equal(foreign.statusCode, 422);
    assert.deepEqual(foreign.json().errors.knowledge_base_id, ['does not name a knowledge base of yours']);
    const form = await createForm(t, other);
    const update = await t.request({ method: 'PUT', url: `/api/forms/${form.id}`, headers: bearer(other), payload: { knowledge_base_id: kb.id } });
    assert.equal(update.statusCode, 422);
    const unknown = await t.request({ method: 'PUT', url: `/api/forms/${form.id}`, headers: bearer(other), payload: { knowledge_base_id: '00000000-0000-4000-8000-000000000000' } });
    assert.equal(unknown.statusCode, 422);
  });

  it('checks reply_email_field against the form schema', async () => {
    const wrongType = await t.request({ method: 'POST', url: '/api/forms', headers: bearer(key), payload: {
      name: 'F', slug: 'reply-field', visibility: 'public', fields_schema: { fields: [{ name: 'email', type: 'email' }, { name: 'message', type: 'string' }] }, reply_email_field: 'message',
    } });
    assert.equal(wrongType.statusCode, 422);
    assert.deepEqual(wrongType.json().errors.reply_email_field, ['must name a field of type email']);
    const form = await createForm(t, key, { reply_email_field: 'email' });
    assert.equal(form.reply_email_field, 'email');
    const missing = await t.request({ method: 'PUT', url: `/api/forms/${form.id}`, headers: bearer(key), payload: { reply_email_field: 'nope' } });
    assert.equal(missing.statusCode, 422);
  });

  it('deleting a knowledge base turns smart replies off on its forms, in the same transaction', async () => {
    const kb = (await kbs('POST', '', { name: 'Doomed', content: FAQ })).json();
    const a = await createForm(t, key, { smart_reply_enabled: true, knowledge_base_id: kb.id, slug: 'linked-a' });
    const b = await createForm(t, key, { smart_reply_enabled: true, smart_replies_mode: 'auto', knowledge_base_id: kb.id, slug: 'linked-b' });
    const unrelated = await createForm(t, key, { slug: 'unlinked' });

    const deleted = await kbs('DELETE', `/${kb.id}`);
    assert.equal(deleted.statusCode, 200, deleted.body);
    assert.deepEqual(deleted.json().smart_reply_disabled_on, ['linked-a', 'linked-b']);
    assert.equal(deleted.json().name, 'Doomed');
    for (const form of [a, b]) {
      const now = (await t.request({ method: 'GET', url: `/api/forms/${form.id}`, headers: bearer(key) })).json();
      assert.equal(now.smart_reply_enabled, false);
      assert.equal(now.knowledge_base_id, null);
    }
    assert.equal((await t.request({ method: 'GET', url: `/api/forms/${unrelated.id}`, headers: bearer(key) })).statusCode, 200);
    assert.equal((await kbs('GET', `/${kb.id}`)).statusCode, 404);
    assert.equal((await kbs('DELETE', `/${kb.id}`)).statusCode, 404);
    const passages = await t.database.db.selectFrom('knowledge_passages').select('position').where('knowledge_base_id', '=', kb.id).execute();
    assert.equal(passages.length, 0);
  });

  it('documents the API in /openapi.json', async () => {
    const doc = (await t.request({ method: 'GET', url: '/openapi.json' })).json();
    assert.ok(doc.paths['/api/knowledge_bases'].post);
    assert.ok(doc.paths['/api/knowledge_bases/{id}'].delete.responses['200']);
    assert.ok(doc.paths['/api/knowledge_bases/{id}'].put.responses['422']);
  });
});

describe('knowledge base size limit', () => {
  it('accepts content up to INTAKE_KB_MAX_BYTES, beyond the general body limit', async () => {
    const t = await startTestApp();
    try {
      const key = await t.createKey();
      const content = Array.from({ length: 4000 }, (_, i) => `Paragraph ${i} explains item ${i} of the catalogue in a few words.`).join('\n\n');
      assert.ok(Buffer.byteLength(content) > t.config.maxBodyBytes);
      const response = await t.request({ method: 'POST', url: '/api/knowledge_bases', headers: bearer(key), payload: { name: 'Big', content } });
      assert.equal(response.statusCode, 201, response.body.slice(0, 200));
      assert.equal(response.json().passage_count, 4000);
      const tooBig = await t.request({ method: 'POST', url: '/api/knowledge_bases', headers: bearer(key), payload: { name: 'Big', content: 'x'.repeat(600 * 1024) } });
      assert.equal(tooBig.statusCode, 422);
      assert.ok(tooBig.json().error.details.content);
    } finally {
      await t.close();
    }
  });
});
