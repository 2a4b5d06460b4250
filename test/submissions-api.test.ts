import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bearer, createForm, pathOf, startTestApp, type TestApp } from './helpers.ts';

describe('submission management API', () => {
  let t: TestApp;
  let key: string;
  let form: Awaited<ReturnType<typeof createForm>>;
  const ids: string[] = [];
  before(async () => {
    t = await startTestApp();
    key = await t.createKey();
    form = await createForm(t, key);
    for (let i = 1; i <= 12; i++) {
      const r = await t.request({ method: 'POST', url: pathOf(form.endpoint), payload: { name: `Person ${i}`, email: `p${i}@example.com` } });
      ids.push(r.json().id);
    }
    // Two of them flagged as spam, as the processing pipeline will do it.
    await t.database.db.updateTable('submissions').set({ spam_flag: true, spam_reason: 'test' }).where('id', 'in', [ids[0]!, ids[5]!]).execute();
    await t.database.db.updateTable('forms').set({ spam_count: 2 }).where('id', '=', form.id).execute();
  });
  after(() => t.close());

  const get = (url: string, k = key) => t.request({ method: 'GET', url, headers: bearer(k) });
  const list = (query = '') => get(`/api/forms/${form.id}/submissions${query}`);

  it('lists the inbox newest first, ten to a page, with pagination meta', async () => {
    const response = await list();
    assert.equal(response.statusCode, 200);
    const { data, meta } = response.json();
    assert.deepEqual(meta, { current_page: 1, total_pages: 1, total_count: 10, page_size: 10 });
    const expected = [...ids].reverse().filter((id) => id !== ids[0] && id !== ids[5]);
    assert.deepEqual(data.map((s: { id: string }) => s.id), expected);
    for (const field of ['id', 'data', 'created_at', 'processing_status', 'processing_reason', 'spam_flag', 'spam_confidence', 'spam_reason',
      'original_language', 'translated_data', 'reply_status', 'reply_content', 'reply_reason', 'replied_at']) {
      assert.ok(field in data[0], `list output has ${field}`);
    }
  });

  it('filters spam and all, and pages through', async () => {
    const spam = (await list('?filter=spam')).json();
    assert.deepEqual(spam.data.map((s: { id: string }) => s.id), [ids[5], ids[0]]);
    assert.equal(spam.meta.total_count, 2);
    const page2 = (await list('?filter=all&page=2&page_size=5')).json();
    assert.deepEqual(page2.meta, { current_page: 2, total_pages: 3, total_count: 12, page_size: 5 });
    assert.deepEqual(page2.data.map((s: { id: string }) => s.id), ids.slice(2, 7).reverse());
    const beyond = (await list('?filter=all&page=9')).json();
    assert.deepEqual(beyond.data, []);
    assert.equal(beyond.meta.current_page, 9);
  });

  it('answers 400 with the spec body for invalid pagination', async () => {
    for (const query of ['?page=0', '?page=-1', '?page=abc', '?page_size=0', '?page_size=101', '?page=1.5', '?filter=bogus']) {
      const response = await list(query);
      assert.equal(response.statusCode, 400, query);
      const body = response.json();
      assert.equal(body.error.code, 400);
      assert.equal(typeof body.error.message, 'string');
    }
  });

  it('gets one submission with every processing field', async () => {
    const response = await get(`/api/forms/${form.id}/submissions/${ids[3]}`);
    assert.equal(response.statusCode, 200);
    const s = response.json();
    assert.equal(s.id, ids[3]);
    assert.deepEqual(s.data, { name: 'Person 4', email: 'p4@example.com' });
    assert.equal(s.processing_status, 'pending');
    assert.equal(s.processing_reason, null);
    assert.equal(s.translated_data, null);
    assert.equal(s.replied_at, null);
  });

  it('answers 404 with the spec body for unknown or foreign forms and submissions', async () => {
    const other = await t.createKey();
    const otherForm = await createForm(t, other);
    const cases = [
      `/api/forms/00000000-0000-0000-0000-000000000000/submissions`,
      `/api/forms/${form.id}/submissions/00000000-0000-0000-0000-000000000000`,
      `/api/forms/${otherForm.id}/submissions/${ids[3]}`,
    ];
    for (const url of cases) {
      const response = await get(url);
      assert.equal(response.statusCode, 404, url);
      assert.equal(response.json().error.code, 404);
    }
    const foreign = await get(`/api/forms/${form.id}/submissions/${ids[3]}`, other);
    assert.equal(foreign.statusCode, 404, 'another owner cannot read it');
    const foreignList = await get(`/api/forms/${form.id}/submissions`, other);
    assert.equal(foreignList.statusCode, 404, 'another owner cannot list or count it');
    const foreignDelete = await t.request({ method: 'DELETE', url: `/api/forms/${form.id}/submissions/${ids[3]}`, headers: bearer(other) });
    assert.equal(foreignDelete.statusCode, 404);
    assert.equal((await get(`/api/forms/${form.id}/submissions/${ids[3]}`)).statusCode, 200, 'still there');
  });

  it('answers 401 as JSON without a valid key', async () => {
    const response = await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions` });
    assert.equal(response.statusCode, 401);
    assert.equal(response.json().error.code, 'unauthorized');
  });

  it('deletes a submission, answering with it, and moves the counts', async () => {
    const response = await t.request({ method: 'DELETE', url: `/api/forms/${form.id}/submissions/${ids[5]}`, headers: bearer(key) });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().id, ids[5]);
    assert.equal(response.json().spam_flag, true);
    assert.equal((await get(`/api/forms/${form.id}/submissions/${ids[5]}`)).statusCode, 404);
    assert.equal((await list('?filter=spam')).json().meta.total_count, 1);
    assert.equal((await list('?filter=all')).json().meta.total_count, 11);
    const again = await t.request({ method: 'DELETE', url: `/api/forms/${form.id}/submissions/${ids[5]}`, headers: bearer(key) });
    assert.equal(again.statusCode, 404);
  });

  it('answers 422 while a submission is being processed', async () => {
    await t.database.db.updateTable('submissions').set({ processing_status: 'processing' }).where('id', '=', ids[7]!).execute();
    const response = await t.request({ method: 'DELETE', url: `/api/forms/${form.id}/submissions/${ids[7]}`, headers: bearer(key) });
    assert.equal(response.statusCode, 422);
    assert.equal(response.json().error.code, 422);
    assert.equal((await get(`/api/forms/${form.id}/submissions/${ids[7]}`)).statusCode, 200);
  });
});
