// The inbox to work in, over the real app: rows led by sender and subject with times in words and
// languages by name, unread until opened, the Inbox / Done / Spam / All split, bulk actions on the
// selected rows and on all matching, every POST answered by a 303 to a page with a notice, and the
// submission page (message first, reply, previous and next, the verdict only when spam is checked).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bearer, createForm, startTestApp, type TestApp } from './helpers.ts';
import { DashboardClient } from './dashboard-helpers.ts';
import { storeProcessed } from './triage-helpers.ts';

const EMAIL = 'owner@example.com';

describe('dashboard inbox', () => {
  let t: TestApp;
  let owner: DashboardClient;
  let key: string;
  let form: Awaited<ReturnType<typeof createForm>>;
  let ids: string[] = [];

  const rowIds = (body: string) => [...body.matchAll(/<tr class="(?:read|unread)" data-id="([^"]+)"/g)].map((m) => m[1]);
  const inbox = async (query = '') => {
    const page = await owner.get(`/forms/${form.id}/inbox${query}`);
    assert.equal(page.statusCode, 200, page.body.slice(0, 500));
    return page.body;
  };
  /** A POST, which must answer 303 to a page that then loads. */
  const post = async (url: string, fields: Record<string, string | null>) => {
    const response = await owner.post(url, fields);
    assert.equal(response.statusCode, 303, `POST ${url} answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
    const location = String(response.headers.location);
    const next = await owner.get(location);
    assert.equal(next.statusCode, 200);
    return { location, body: next.body };
  };

  before(async () => {
    t = await startTestApp();
    owner = new DashboardClient(t);
    await owner.setUp(EMAIL);
    key = await t.createKey(EMAIL);
    form = await createForm(t, key, { name: 'Support' });
    ids = await storeProcessed(t, form.id, 5, (i) => ({
      name: `Person ${i}`, email: `p${i}@example.com`, message: `Question number ${i}\nMore details on the second line.`,
    }));
    await t.database.db.updateTable('submissions').set({ original_language: 'de' }).where('id', '=', ids[4]!).execute();
    await t.database.db.updateTable('submissions').set({ created_at: new Date(Date.now() - 3 * 60_000).toISOString() }).where('id', '=', ids[4]!).execute();
  });
  after(() => t?.close());

  it('leads each row with who sent it and what they want, in words and names', async () => {
    const body = await inbox();
    assert.deepEqual(rowIds(body), [...ids].reverse());
    assert.match(body, /<th scope="row" class="from"><span class="visually-hidden">Unread: <\/span><a href="[^"]+">Person 4<\/a>/);
    assert.match(body, /<span class="subject">Question number 4<\/span> <span class="row-snippet">More details on the second line.<\/span>/);
    assert.match(body, /<time datetime="[^"]+" title="[^"]+ UTC">3 min ago<\/time>/);
    assert.match(body, />German</);
    assert.doesNotMatch(body, /class="badge[^"]*">completed</, 'no badge that says nothing');
    assert.match(body, /<tr class="unread" data-id=/);
    assert.match(body, /Select all 5 in Inbox/);
    const src = body.match(/<script type="module" src="(\/assets\/inbox\.[0-9a-f]{12}\.js)"><\/script>/)?.[1];
    assert.ok(src, 'the shortcuts script, under its hashed name');
    const script = await owner.get(src);
    assert.equal(script.statusCode, 200);
    assert.match(String(script.headers['content-type']), /javascript/);
  });

  it('marks a submission read when it is opened, with previous and next within the view', async () => {
    const page = await owner.get(`/forms/${form.id}/submissions/${ids[2]}`);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /id="message-sender">Person 2</);
    assert.match(page.body, /id="message-subject">No subject</, 'no subject field: the message is not repeated as its heading');
    assert.match(page.body, /id="message-text">Question number 2\nMore details/);
    assert.equal(page.body.split('Question number 2\nMore details').length - 1, 1, 'the message is shown once');
    assert.match(page.body, /id="data-title">Other fields</);
    assert.match(page.body, new RegExp(`href="/forms/${form.id}/submissions/${ids[3]}" rel="prev" id="newer"`));
    assert.match(page.body, new RegExp(`href="/forms/${form.id}/submissions/${ids[1]}" rel="next" id="older"`));
    assert.match(page.body, /href="mailto:p2@example.com\?subject=Re%3A%20Question%20number%202" id="reply-action"/);
    assert.doesNotMatch(page.body, /Spam verdict/, 'the form does not check spam: no verdict to show');
    const body = await inbox();
    assert.match(body, new RegExp(`<tr class="read" data-id="${ids[2]}"`));
    const api = await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions/${ids[2]}`, headers: bearer(key) });
    assert.equal(api.json().read, true);

    const unread = await post(`/forms/${form.id}/submissions/${ids[2]}/read`, { read: 'false', tab: 'inbox' });
    assert.match(unread.body, /1 submission marked unread/);
    assert.match(unread.body, new RegExp(`<tr class="unread" data-id="${ids[2]}"`));
  });

  it('shows the verdict only on a form that checks spam', async () => {
    const checked = await createForm(t, key, { spam_protection_enabled: true });
    const [id] = await storeProcessed(t, checked.id, 1, () => ({ name: 'Checked', email: 'c@example.com', message: 'hi' }));
    const page = await owner.get(`/forms/${checked.id}/submissions/${id}`);
    assert.match(page.body, /Spam verdict/);
  });

  it('acts on the selected rows and answers with a redirect and a notice', async () => {
    const done = await post(`/forms/${form.id}/inbox/bulk`, { action: 'done', ids: ids[0]!, tab: 'inbox' });
    assert.equal(done.location, `/forms/${form.id}/inbox?notice=done&n=1`);
    assert.match(done.body, /1 submission marked done\./);
    assert.deepEqual(rowIds(done.body), [ids[4], ids[3], ids[2], ids[1]]);
    assert.deepEqual(rowIds(await inbox('?tab=done')), [ids[0]]);

    const none = await post(`/forms/${form.id}/inbox/bulk`, { action: 'spam', tab: 'inbox' });
    assert.match(none.body, /Select at least one submission first/);

    // Two ids in one form post, as two checked checkboxes send them.
    const body = new URLSearchParams({ _csrf: owner.csrf, action: 'spam', tab: 'done' });
    body.append('ids', ids[1]!);
    body.append('ids', ids[0]!);
    const spam = await t.request({
      method: 'POST', url: `/forms/${form.id}/inbox/bulk`, payload: body.toString(),
      headers: { cookie: owner.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(spam.statusCode, 303);
    assert.equal(spam.headers.location, `/forms/${form.id}/inbox?tab=done&notice=spam&n=2`);
    assert.deepEqual(rowIds(await inbox('?tab=spam')), [ids[1], ids[0]]);
    assert.match(await inbox('?tab=spam'), /<a[^>]*aria-current="page"[^>]*>Spam <span class="count">2<\/span>/);
    const audit = await t.database.db.selectFrom('audit_log').select(['surface', 'operation', 'detail']).where('operation', '=', 'bulk spam').executeTakeFirstOrThrow();
    assert.deepEqual({ ...audit }, { surface: 'dashboard', operation: 'bulk spam', detail: '2 changed of 2' });
  });

  it('acts on all matching the view, and the submission page posts redirect too', async () => {
    const all = await post(`/forms/${form.id}/inbox/bulk`, { action: 'done', all: 'true', tab: 'inbox', q: 'number 3' });
    assert.equal(all.location, `/forms/${form.id}/inbox?q=number+3&notice=done&n=1`);
    assert.deepEqual(rowIds(await inbox('?tab=done')), [ids[3]]);

    const page = await post(`/forms/${form.id}/submissions/${ids[3]}/done`, { done: 'false', tab: 'done' });
    assert.equal(page.location, `/forms/${form.id}/submissions/${ids[3]}?tab=done&done=not-done`);
    assert.match(page.body, /Moved back to the inbox/);
    const spam = await post(`/forms/${form.id}/submissions/${ids[3]}/spam`, { spam: 'true' });
    assert.match(spam.body, /Marked as spam/);
    const removed = await post(`/forms/${form.id}/inbox/bulk`, { action: 'delete', all: 'true', tab: 'spam' });
    assert.match(removed.body, /3 submissions deleted\./);
    const deleted = await post(`/forms/${form.id}/submissions/${ids[4]}/delete`, { confirm: 'true' });
    assert.equal(deleted.location, `/forms/${form.id}/inbox?notice=delete&n=1`);
    assert.deepEqual(rowIds(await inbox('?tab=all')), [ids[2]]);
  });
});
