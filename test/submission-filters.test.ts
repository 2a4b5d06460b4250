// The listing's filters an agent reaches for (search, processing_status, reply_status, spam, since,
// until, sort_order), exact pages with each, and a 400 naming any parameter the listing does not know.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bearer, createForm, pathOf, startTestApp, type TestApp } from './helpers.ts';

interface Listed {
  data: Array<{ id: string }>;
  meta: { current_page: number; total_pages: number; total_count: number; page_size: number };
}

describe('submission list filters', () => {
  let t: TestApp;
  let key: string;
  let form: Awaited<ReturnType<typeof createForm>>;
  /** Oldest first. */
  const ids: string[] = [];

  const list = async (query: string) => {
    const response = await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions?${query}`, headers: bearer(key) });
    return response;
  };
  const listed = async (query: string): Promise<Listed> => {
    const response = await list(query);
    assert.equal(response.statusCode, 200, `${query}: ${response.body}`);
    return response.json();
  };
  const idsOf = async (query: string) => (await listed(query)).data.map((s) => s.id);
  /** Positions (0 = oldest) as ids, newest first unless said. */
  const at = (...positions: number[]) => positions.map((i) => ids[i]!);

  before(async () => {
    t = await startTestApp();
    key = await t.createKey();
    form = await createForm(t, key);
    const messages = ['Hello there', 'Bonjour, ma commande', 'casino prize', 'Refund please', 'Where is my order?', 'message me'];
    for (const [i, message] of messages.entries()) {
      const r = await t.request({ method: 'POST', url: pathOf(form.endpoint), payload: { name: `Person ${i}`, email: `p${i}@example.com`, message } });
      assert.equal(r.statusCode, 201, r.body);
      ids.push(r.json().id);
    }
    const db = t.database.db;
    // One a day, 2024-03-01 … 2024-03-06, at noon UTC.
    for (const [i, id] of ids.entries()) {
      await db.updateTable('submissions').set({ created_at: `2024-03-0${i + 1}T12:00:00.000Z`, processing_status: 'completed' }).where('id', '=', id).execute();
    }
    await db.updateTable('submissions').set({ translated_data: JSON.stringify({ message: 'Hello, my order' }), original_language: 'fr' }).where('id', '=', ids[1]!).execute();
    await db.updateTable('submissions').set({ spam_flag: true, spam_reason: 'test' }).where('id', '=', ids[2]!).execute();
    await db.updateTable('forms').set({ spam_count: 1 }).where('id', '=', form.id).execute();
    await db.updateTable('submissions').set({ processing_status: 'failed', processing_reason: 'test' }).where('id', 'in', at(3, 4)).execute();
    await db.updateTable('submissions').set({ reply_status: 'sent' }).where('id', 'in', at(0, 4)).execute();
  });
  after(() => t.close());

  it('search matches submitted values and their translations, not field names', async () => {
    assert.deepEqual(await idsOf('search=ORDER'), at(4, 1), 'a value, and a translation');
    assert.deepEqual(await idsOf('search=message'), at(5), 'a field name matches nothing: only the value "message me"');
    const page = await listed('search=order&page_size=1&page=2');
    assert.deepEqual(page.data.map((s) => s.id), at(1));
    assert.deepEqual(page.meta, { current_page: 2, total_pages: 2, total_count: 2, page_size: 1 });
  });

  it('filters by processing_status and reply_status', async () => {
    assert.deepEqual(await idsOf('processing_status=failed'), at(4, 3));
    assert.equal((await listed('processing_status=failed')).meta.total_count, 2);
    assert.deepEqual(await idsOf('reply_status=sent'), at(4, 0));
    assert.deepEqual(await idsOf('processing_status=pending'), []);
  });

  it('takes spam as a shorthand of filter; beside a filter, both hold', async () => {
    assert.deepEqual(await idsOf('spam=true'), at(2));
    assert.deepEqual(await idsOf('spam=false'), at(5, 4, 3, 1, 0));
    assert.deepEqual(await idsOf('spam=true&filter=spam'), at(2));
    assert.deepEqual(await idsOf('spam=true&filter=all'), at(2));
    const none = await listed('spam=true&filter=inbox');
    assert.deepEqual(none, { data: [], meta: { current_page: 1, total_pages: 0, total_count: 0, page_size: 10 } });
  });

  it('bounds by since and until, dates and times', async () => {
    assert.deepEqual(await idsOf('filter=all&since=2024-03-04'), at(5, 4, 3));
    assert.deepEqual(await idsOf('filter=all&until=2024-03-02'), at(1, 0), 'a date until includes that day');
    assert.deepEqual(await idsOf('filter=all&since=2024-03-02T12:00:00Z&until=2024-03-04T12:00:00Z'), at(2, 1), 'times: since inclusive, until exclusive');
    assert.deepEqual(await idsOf('filter=all&since=2024-03-03T13:00:00%2B01:00&until=2024-03-03T13:00:01%2B01:00'), at(2), 'an offset is honoured');
    assert.deepEqual(await idsOf('filter=all&since=2024-03-05T23:59:60Z'), at(5), 'a leap second is the next second');
    assert.deepEqual(await idsOf('filter=all&since=0000-01-01T00:00:00Z&until=9999-12-31T23:59:59-23:59'), at(5, 4, 3, 2, 1, 0), 'times beyond the years both engines hold');
  });

  it('sorts oldest first on request, and pages stay exact both ways', async () => {
    assert.deepEqual(await idsOf('filter=all&sort_by=created_at&sort_order=asc'), at(0, 1, 2, 3, 4, 5));
    assert.deepEqual(await idsOf('filter=all&sort_order=desc'), at(5, 4, 3, 2, 1, 0));
    const pages = [];
    for (let page = 1; page <= 3; page++) pages.push(...await idsOf(`sort_order=asc&page_size=2&page=${page}`));
    assert.deepEqual(pages, at(0, 1, 3, 4, 5), 'the inbox oldest first, over three pages');
    assert.deepEqual((await listed('sort_order=asc&page_size=2&page=3')).meta, { current_page: 3, total_pages: 3, total_count: 5, page_size: 2 });
  });

  it('combines filters', async () => {
    const query = 'spam=false&search=e&processing_status=failed&reply_status=sent&since=2024-03-02&sort_order=asc';
    assert.deepEqual(await idsOf(query), at(4));
    assert.deepEqual(await idsOf('filter=all&search=o&until=2024-03-05&sort_order=asc&page_size=2&page=2'), at(2, 3));
    assert.deepEqual((await listed('filter=all&search=o&until=2024-03-05&sort_order=asc&page_size=2&page=2')).meta,
      { current_page: 2, total_pages: 3, total_count: 5, page_size: 2 }, 'every name holds an o: the days bound it');
  });

  it('answers 400 naming a parameter it does not know, or a value it cannot use', async () => {
    for (const [query, field] of [['q=order', 'q'], ['status=failed', 'status'], ['sort_by=name', 'sort_by'], ['sort_order=up', 'sort_order'],
      ['since=yesterday', 'since'], ['until=2024-02-30', 'until'], ['reply_status=bogus', 'reply_status'], ['search=', 'search']] as const) {
      const response = await list(query);
      assert.equal(response.statusCode, 400, query);
      const body = response.json();
      assert.equal(body.error.code, 400, query);
      assert.ok(body.error.message.includes(field), `${query}: ${body.error.message}`);
      assert.ok(field in body.error.details, `${query}: ${JSON.stringify(body.error.details)}`);
    }
    assert.match((await list('q=order')).json().error.message, /q is not a known field/);
  });

  it('lists every parameter in the OpenAPI document', async () => {
    const doc = (await t.request({ method: 'GET', url: '/openapi.json' })).json();
    const names = doc.paths['/api/forms/{form_id}/submissions'].get.parameters.filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name);
    for (const name of ['filter', 'spam', 'done', 'search', 'processing_status', 'reply_status', 'since', 'until', 'sort_by', 'sort_order', 'page', 'page_size']) {
      assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
    }
  });
});
