// The text filter (the inbox search, the export's `text`, a bulk action's `where.text`) matches the
// values a submitter sent, nested ones too, and never the form's field names, the keys of nested
// values or the punctuation of the stored JSON: `text=message` on a form with a `message` field used
// to select every submission, and a bulk delete on that search deleted them all.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bearer, pathOf, type TestApp } from './helpers.ts';
import { ownerWithForm, type DashboardClient } from './dashboard-helpers.ts';
import { storeProcessed } from './triage-helpers.ts';

const FIELDS = [{ name: 'name', type: 'string' }, { name: 'email', type: 'email' }, { name: 'message', type: 'string' }, { name: 'years', type: 'number' }];

describe('the text filter searches values only', () => {
  let t: TestApp;
  let key: string;
  let owner: DashboardClient;
  let form: { id: string; endpoint: string };

  before(async () => {
    ({ t, owner, key, form } = await ownerWithForm(FIELDS));
    for (const payload of [
      { name: 'Annabel Quill', email: 'annabel@example.com', message: 'hello there', years: 41 },
      { name: 'Bobby Tarn', message: 'Your MESSAGE was lost, "twice"' },
      { name: 'Cyrus Vell', email: 'cyrus@example.com' },
    ]) {
      const r = await t.request({ method: 'POST', url: pathOf(form.endpoint), payload });
      assert.equal(r.statusCode, 201, r.body);
    }
    // Nested values cannot come through this form's endpoint, but stored data may hold them.
    await storeProcessed(t, form.id, 1, () => ({ name: 'Dee Nestor', extra: { note: ['a nested NEEDLE'], flag: true } }));
  });
  after(() => t.close());

  /** Names the REST export finds for a text. */
  const exported = async (text: string) => {
    const r = await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions/export?format=ndjson&filter=all&text=${encodeURIComponent(text)}`, headers: bearer(key) });
    assert.equal(r.statusCode, 200, r.body);
    return r.body.split('\n').filter(Boolean).map((line) => JSON.parse(line).data.name as string).sort();
  };
  /** Names the dashboard's inbox (All) shows for a search. */
  const listed = async (text: string) => {
    const r = await owner.get(`/forms/${form.id}/inbox?tab=all&q=${encodeURIComponent(text)}`);
    assert.equal(r.statusCode, 200);
    return ['Annabel Quill', 'Bobby Tarn', 'Cyrus Vell', 'Dee Nestor'].filter((name) => r.body.includes(name));
  };

  const CASES: Array<[string, string[]]> = [
    ['message', ['Bobby Tarn']],
    ['name', []],
    ['email', []],
    ['years', []],
    ['extra', []],
    ['note', []],
    ['":"', []],
    ['","', []],
    ['{', []],
    ['needle', ['Dee Nestor']],
    ['quill', ['Annabel Quill']],
    ['"twice"', ['Bobby Tarn']],
    ['41', ['Annabel Quill']],
    ['cyrus@', ['Cyrus Vell']],
  ];

  it('in the export and the inbox search', async () => {
    for (const [text, names] of CASES) {
      assert.deepEqual(await exported(text), names, `export, text=${text}`);
      assert.deepEqual(await listed(text), names, `inbox, q=${text}`);
    }
  });

  it('in a bulk action\'s where: a delete on a field\'s name deletes only the values that match', async () => {
    const bulk = (text: string) => t.request({ method: 'POST', url: `/api/forms/${form.id}/submissions/bulk`, headers: bearer(key), payload: { action: 'delete', where: { filter: 'all', text } } });
    const none = await bulk('email');
    assert.equal(none.statusCode, 200, none.body);
    assert.equal(none.json().matched, 0);
    const one = await bulk('message');
    assert.equal(one.statusCode, 200, one.body);
    assert.deepEqual([one.json().matched, one.json().changed], [1, 1]);
    assert.deepEqual(await exported('e'), ['Annabel Quill', 'Cyrus Vell', 'Dee Nestor']);
  });
});
