// The dashboard's pages over the real app and workers: forms made with the editor, hostile data
// rendered inert everywhere it shows, other owners' ids answering 404, the inbox's tabs, search
// and deep pages, spam corrections, destinations, keys and the health panel.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';
import { bearer, settled, startPipelineApp, submit, waitFor, type PipelineApp } from './pipeline-helpers.ts';
import { DashboardClient, formIdIn } from './dashboard-helpers.ts';

const XSS_NAME = '<script>alert("name")</script><img src=x onerror=alert(1)>';
const XSS_DATA = {
  email: 'x@example.com',
  message: '"><script>alert(document.cookie)</script><a href="javascript:alert(2)">click</a>\' onmouseover=\'alert(3)',
};
const SCHEMA = { fields: [{ name: 'email', type: 'email', required: true }, { name: 'message', type: 'string', required: true, rules: [{ op: 'max_length', value: 500 }] }] };

function assertInert(body: string): void {
  assert.doesNotMatch(body, /<script>alert/);
  assert.doesNotMatch(body, /<img src=x/);
  assert.doesNotMatch(body, /href="javascript:/i);
  assert.doesNotMatch(body, / onmouseover='alert/);
  assert.doesNotMatch(body, /<img[^>]*onerror/);
}

describe('dashboard pages', () => {
  let t: PipelineApp;
  let translator: FakeProvider;
  let owner: DashboardClient;
  let formId: string;
  let endpoint: string;

  before(async () => {
    translator = await startFakeProvider((request) => {
      const body = request.body as { q: string[]; target: string };
      return { body: { translatedText: body.q.map((text) => `[${body.target}] ${text}`) } };
    });
    t = await startPipelineApp({ INTAKE_TRANSLATE_URL: translator.url, INTAKE_OUTBOUND_ALLOW: '127.0.0.1' });
    owner = new DashboardClient(t);
    await owner.setUp();
  });
  after(async () => {
    await t?.close();
    await translator?.close();
  });

  it('creates a form from the editor, reports schema errors on the field, and keeps what was typed', async () => {
    await owner.get('/forms/new');
    const bad = await owner.post('/forms/new', { name: 'Broken', slug: 'broken', visibility: 'public', fields_schema: '{"fields": [' });
    assert.equal(bad.statusCode, 422);
    assert.match(bad.body, /is not valid JSON/);
    assert.match(bad.body, /value="Broken"/);
    const badRule = await owner.post('/forms/new', { name: 'Broken', slug: 'Not A Slug', visibility: 'public', fields_schema: JSON.stringify({ fields: [{ name: 'n', type: 'nope' }] }) });
    assert.equal(badRule.statusCode, 422);
    assert.match(badRule.body, /lowercase letters and digits/);

    const posted = await owner.post('/forms/new', {
      name: XSS_NAME, slug: 'contact', visibility: 'public', fields_schema: JSON.stringify(SCHEMA),
      localisation_enabled: 'true', spam_protection_enabled: 'true', spam_protection_strategy: 'standard',
    });
    assert.equal(posted.statusCode, 303, 'post, redirect, get: a refresh never creates it again');
    const made = await owner.follow(posted);
    assert.match(made.body, /Form created/);
    assert.doesNotMatch((await owner.get(String(posted.headers.location))).body, /Form created/, 'the notice is shown once');
    formId = formIdIn(/\/forms\/[0-9a-f-]{36}/.exec(made.body)?.[0]);
    endpoint = /<code id="endpoint">([^<]+)<\/code>/.exec(made.body)?.[1] ?? '';
    assert.match(endpoint, /^http:\/\/localhost(:80)?\/api\/[A-Za-z0-9_-]+\/f\/contact$/);
    assertInert(made.body);
    assert.match(made.body, /&lt;script&gt;alert\(&quot;name&quot;\)/);
    // The snippets: HTML with fetch and details, curl, an agent prompt.
    assert.match(made.body, /result\.error\?\.details/);
    assert.match(made.body, /curl -X POST/);
    assert.match(made.body, /Discover it: GET/);
  });

  it('edits the form: a new schema mints version 2 and both endpoints are listed', async () => {
    await owner.get(`/forms/${formId}/edit`);
    const schema = { fields: [...SCHEMA.fields, { name: 'phone', type: 'string', required: false, rules: [{ op: 'required', when: { field: 'email', is: 'empty' } }] }] };
    const saved = await owner.post(`/forms/${formId}/edit`, {
      name: XSS_NAME, slug: 'contact', visibility: 'public', fields_schema: JSON.stringify(schema), localisation_enabled: 'true', spam_protection_enabled: 'true',
    });
    const shown = await owner.follow(saved);
    assert.match(shown.body, /Changes saved/);
    assert.equal((shown.body.match(/\/api\/[A-Za-z0-9_-]+\/f\/contact/g) ?? []).length >= 2, true);
    assert.match(shown.body, /<td>2 <span class="badge">current<\/span>/);
  });

  it('shows hostile submission data inert on the inbox and submission pages, with a translation toggle', async () => {
    const key = await t.createKey('owner@example.com');
    const id = await submit(t, endpoint, { ...XSS_DATA, message: `${XSS_DATA.message} Bonjour, je voudrais un devis pour des chaises de jardin.` });
    await t.request({ method: 'POST', url: new URL(endpoint).pathname, headers: { 'content-type': 'application/json', referer: 'javascript:alert(9)' }, payload: XSS_DATA });
    // A raw <a href> with anchor text is what link drops send: the standard check flags it, and its
    // reason, which quotes the anchor, is shown inert too. Marked not spam, it is translated.
    assert.equal((await settled(t, key, formId, id)).spam_flag, true);
    const flagged = await owner.get(`/forms/${formId}/submissions/${id}`);
    assertInert(flagged.body);
    assert.match(flagged.body, /link anchor text \(&quot;click&quot;\)/);
    assert.equal((await owner.post(`/forms/${formId}/submissions/${id}/spam`, { spam: 'false' })).statusCode, 303);
    for (let i = 0; i < 300; i++) {
      const api = await t.request({ method: 'GET', url: `/api/forms/${formId}/submissions/${id}`, headers: bearer(key) });
      if (api.json().translated_data) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    const inbox = await owner.get(`/forms/${formId}/inbox`);
    assert.equal(inbox.statusCode, 200);
    assertInert(inbox.body);
    assert.match(inbox.body, /&lt;script&gt;alert\(document\.cookie\)/);
    assert.match(inbox.body, /data-poll="\/forms\/[^"]+\/inbox"/);
    assertInert((await owner.get(`/forms/${formId}/inbox?tab=all`)).body);

    const page = await owner.get(`/forms/${formId}/submissions/${id}`);
    assert.equal(page.statusCode, 200);
    assertInert(page.body);
    assert.match(page.body, /Other fields, translated/);
    assert.match(page.body, /\[en\]/);
    assert.match(page.body, /Show original/);
    const original = await owner.get(`/forms/${formId}/submissions/${id}?view=original`);
    assert.doesNotMatch(original.body, /\[en\]/);
    assert.match(original.body, /Show translation/);

    const list = await owner.get('/forms');
    assertInert(list.body);
    for (const url of [`/forms/${formId}`, `/forms/${formId}/edit`, `/forms/${formId}/notifications`, `/forms/${formId}/delete`]) {
      assertInert((await owner.get(url)).body);
    }
  });

  it('marks spam and not spam, moving the submission between tabs', async () => {
    const key = await t.createKey('owner@example.com');
    const id = await submit(t, endpoint, { email: 'ham@example.com', message: 'A perfectly ordinary question about opening hours.' });
    await settled(t, key, formId, id);
    await owner.get(`/forms/${formId}/submissions/${id}`);
    const marked = await owner.post(`/forms/${formId}/submissions/${id}/spam`, { spam: 'true' });
    assert.equal(marked.statusCode, 303);
    const after1 = await owner.get(String(marked.headers.location));
    assert.match(after1.body, /Marked as spam/);
    assert.match(after1.body, /<dd id="spam-verdict">Spam<\/dd>/);
    assert.match((await owner.get(`/forms/${formId}/inbox?tab=spam`)).body, new RegExp(id));
    assert.doesNotMatch((await owner.get(`/forms/${formId}/inbox`)).body, new RegExp(id));
    const api = await t.request({ method: 'GET', url: `/api/forms/${formId}/submissions/${id}`, headers: bearer(key) });
    assert.equal(api.json().spam_flag, true);
    await owner.post(`/forms/${formId}/submissions/${id}/spam`, { spam: 'false' });
    assert.match((await owner.get(`/forms/${formId}/inbox`)).body, new RegExp(id));
  });

  it('searches and filters by status with keyset pages, and pages by number when browsing', async () => {
    const key = await t.createKey('owner@example.com');
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push(await submit(t, endpoint, { email: `p${i}@example.com`, message: `needle number ${i} 100%_done` }));
    await settled(t, key, formId, ids[ids.length - 1] as string);
    const first = await owner.get(`/forms/${formId}/inbox?q=NEEDLE`);
    assert.equal((first.body.match(/needle number/g) ?? []).length, 20);
    assert.match(first.body, /needle number 24/);
    const older = /href="([^"]*cursor=[^"]*)"/.exec(first.body)?.[1]?.replace(/&amp;/g, '&');
    assert.ok(older);
    const second = await owner.get(older);
    assert.equal((second.body.match(/needle number/g) ?? []).length, 5);
    assert.match(second.body, /End of results/);
    // LIKE wildcards in the query are literal.
    assert.equal(((await owner.get(`/forms/${formId}/inbox?q=${encodeURIComponent('100%_d')}`)).body.match(/needle number/g) ?? []).length, 20);
    assert.equal(((await owner.get(`/forms/${formId}/inbox?q=${encodeURIComponent('0%x')}`)).body.match(/needle number/g) ?? []).length, 0);
    const failed = await owner.get(`/forms/${formId}/inbox?status=failed`);
    assert.match(failed.body, /Nothing matches this search/);
    const page2 = await owner.get(`/forms/${formId}/inbox?page=2`);
    assert.match(page2.body, /Page 2 of 2/);
    assert.equal((await owner.get(`/forms/${formId}/inbox?page=999`)).statusCode, 200);
    assert.equal((await owner.get(`/forms/${formId}/inbox?page=-1&tab=%3Cx%3E&status=%3Cy%3E`)).statusCode, 200);
  });

  it('answers 404 for another owner\'s form, submission and destination ids', async () => {
    const other = new DashboardClient(t);
    await t.services.dashboard.passwordLink('other@example.com', true).then(async (link) => {
      await other.get(`/set-password?token=${link.token}`);
      await other.post('/set-password', { token: link.token, password: 'other owner password' });
    });
    const destinations = await t.services.destinations.list((await t.services.accounts.find('owner@example.com'))!.id, formId);
    for (const url of [`/forms/${formId}`, `/forms/${formId}/inbox`, `/forms/${formId}/edit`, `/forms/${formId}/notifications`, '/forms/not-a-uuid']) {
      const response = await other.get(url);
      assert.equal(response.statusCode, 404, url);
      assert.doesNotMatch(response.body, /&lt;script&gt;alert\(&quot;name/);
    }
    await other.get('/forms');
    assert.equal((await other.post(`/forms/${formId}/delete`)).statusCode, 404);
    assert.equal((await other.post(`/forms/${formId}/notifications`, { type: 'webhook', url: 'http://127.0.0.1:9/x' })).statusCode, 404);
    assert.equal(destinations.length, 0);
    assert.equal((await owner.get(`/forms/${formId}`)).statusCode, 200, 'still there');
  });

  it('adds a webhook destination, shows its secret once, tests it and logs the attempt', async () => {
    const receiver = await startFakeProvider(() => ({ status: 200, body: { ok: true } }));
    try {
      await owner.get(`/forms/${formId}/notifications`);
      const bad = await owner.post(`/forms/${formId}/notifications`, { type: 'webhook', url: 'ftp://nope' });
      assert.equal(bad.statusCode, 422);
      const added = await owner.follow(await owner.post(`/forms/${formId}/notifications`, { type: 'webhook', name: '<b>hook</b>', url: `${receiver.url}/hook` }));
      assert.match(added.body, /<code class="secret" id="once-secret">whsec_/);
      assert.match(added.body, /&lt;b&gt;hook&lt;\/b&gt;/);
      assert.doesNotMatch((await owner.get(`/forms/${formId}/notifications`)).body, /whsec_/, 'shown only once');
      const destinationId = /\/notifications\/([0-9a-f-]{36})\/test/.exec(added.body)?.[1];
      assert.ok(destinationId);
      const tested = await owner.follow(await owner.post(`/forms/${formId}/notifications/${destinationId}/test`));
      assert.match(tested.body, /Test event delivered/);
      assert.equal(receiver.requests.length, 1);
      const log = await owner.get(`/forms/${formId}/notifications/${destinationId}`);
      assert.match(log.body, /test event/);
      assert.match(log.body, /HTTP 200/);
      const disabled = await owner.post(`/forms/${formId}/notifications/${destinationId}/disable`);
      assert.match((await owner.get(String(disabled.headers.location))).body, /badge off">disabled/);
      const regenerated = await owner.follow(await owner.post(`/forms/${formId}/notifications/${destinationId}/regenerate-secret`));
      assert.match(regenerated.body, /New signing secret/);
      assert.match(regenerated.body, /id="once-secret">whsec_/);
    } finally {
      await receiver.close();
    }
  });

  it('warns, on adding an email destination, that no mail server is configured, and names the setting', async () => {
    const page = await owner.get(`/forms/${formId}/notifications`);
    assert.match(page.body, /data-types="email">[\s\S]*?No mail server is configured[\s\S]*?INTAKE_SMTP_URL[\s\S]*?<\/div>/);
    const added = await owner.follow(await owner.post(`/forms/${formId}/notifications`, { type: 'email', recipients: 'me@example.com' }));
    assert.match(added.body, /notice warn[^>]*>Destination added\. No mail server is configured on this server, so email notifications cannot be sent until its operator sets INTAKE_SMTP_URL and INTAKE_MAIL_FROM\./);
    const ownerId = (await t.services.accounts.find('owner@example.com'))!.id;
    const emailId = (await t.services.destinations.list(ownerId, formId)).find((d) => d.type === 'email')?.id;
    assert.ok(emailId);
    assert.equal((await owner.post(`/forms/${formId}/notifications/${emailId}/delete`)).statusCode, 303);
    const local = await owner.post(`/forms/${formId}/notifications`, { type: 'webhook', url: 'https://[::1]:8443/hook' });
    assert.equal(local.statusCode, 422);
    assert.match(local.body, /loopback address \(::1\).*INTAKE_OUTBOUND_ALLOW=::1/);
  });

  it('names the destination of each notification sent, and counts failures in a row in words that agree', async () => {
    const receiver = await startFakeProvider(() => ({ status: 200, body: { ok: true } }));
    try {
      await owner.get(`/forms/${formId}/notifications`);
      await owner.follow(await owner.post(`/forms/${formId}/notifications`, { type: 'webhook', name: 'Ops hook', url: `${receiver.url}/ops` }));
      const ownerId = (await t.services.accounts.find('owner@example.com'))!.id;
      const ops = (await t.services.destinations.list(ownerId, formId)).find((d) => d.name === 'Ops hook')!;
      const id = await submit(t, endpoint, { email: 'named@example.com', message: 'Which destination?' });
      await waitFor('the delivery', async () => (await t.services.deliveries.forSubmission(id)).find((d) => d.status === 'succeeded'));
      const page = await owner.get(`/forms/${formId}/submissions/${id}`);
      assert.match(page.body, new RegExp(`<li><a href="/forms/${formId}/notifications/${ops.id}">Ops hook</a> <span class="muted small">webhook</span> · <span class="badge delivery-succeeded">`));

      await t.database.db.updateTable('destinations').set({ failure_count: 1 }).where('id', '=', ops.id).execute();
      const one = (await owner.get(`/forms/${formId}/notifications`)).body;
      assert.match(one, / · 1 failure in a row/);
      assert.doesNotMatch(one, /1 failures/);
      await t.database.db.updateTable('destinations').set({ failure_count: 2 }).where('id', '=', ops.id).execute();
      assert.match((await owner.get(`/forms/${formId}/notifications`)).body, / · 2 failures in a row/);
      await owner.post(`/forms/${formId}/notifications/${ops.id}/delete`);
    } finally {
      await receiver.close();
    }
  });

  it('refuses a short new password in the browser, before the round trip (minlength, no novalidate)', async () => {
    const account = (await owner.get('/account')).body;
    const form = /<form method="post" action="\/account\/password"[^>]*>/.exec(account)?.[0];
    assert.ok(form, 'the change-password form');
    assert.doesNotMatch(form, /novalidate/);
    assert.match(account, /<input id="f-password" name="password" type="password"[^>]* minlength="10">/);
    const link = await t.services.dashboard.passwordLink('owner@example.com', false);
    const setPage = (await new DashboardClient(t).get(`/set-password?token=${link.token}`)).body;
    assert.match(setPage, /<form method="post" action="\/set-password">/);
    assert.match(setPage, /name="password" type="password"[^>]* minlength="10">/);
  });

  it('generates an API key shown once that works on the API, and revokes it', async () => {
    await owner.get('/integrations');
    const made = await owner.follow(await owner.post('/integrations/keys', { name: 'CRM <sync>' }));
    const key = /id="once-secret">(ik_[^<]+)</.exec(made.body)?.[1];
    assert.ok(key);
    assert.match(made.body, /CRM &lt;sync&gt;/);
    const forms = await t.request({ method: 'GET', url: '/api/forms', headers: bearer(key) });
    assert.equal(forms.statusCode, 200);
    assert.equal(forms.json().forms[0].id, formId);
    const keyId = (await t.services.accounts.listKeys('owner@example.com')).find((k) => k.name === 'CRM <sync>')?.id;
    assert.ok(keyId);
    assert.match((await owner.get('/integrations')).body, new RegExp(`/integrations/keys/${keyId}/revoke`));
    assert.match((await owner.follow(await owner.post(`/integrations/keys/${keyId}/revoke`))).body, /Key revoked/);
    const revoked = await t.request({ method: 'GET', url: '/api/forms', headers: bearer(key) });
    assert.equal(revoked.statusCode, 401);
    assert.equal((await owner.post('/integrations/keys', { name: '' })).statusCode, 422);
    assert.equal((await owner.post('/integrations/keys', { name: 'x', scope: 'root' })).statusCode, 422);
    const reader = await owner.follow(await owner.post('/integrations/keys', { name: 'reader', scope: 'read' }));
    assert.match(reader.body, /New read-only API key/);
    const readKey = /id="once-secret">(ik_[^<]+)</.exec(reader.body)?.[1] ?? '';
    assert.equal((await t.request({ method: 'GET', url: '/api/forms', headers: bearer(readKey) })).statusCode, 200);
    assert.equal((await t.request({ method: 'DELETE', url: `/api/forms/${formId}`, headers: bearer(readKey) })).statusCode, 403);
    assert.match(reader.body, /claude mcp add --transport http intake http:\/\/localhost(:80)?\/mcp/);
    // Right after it is created, the snippets hold the new key; on the next visit, a placeholder again.
    assert.ok(reader.body.includes(`Authorization: Bearer ${readKey}`));
    assert.doesNotMatch(reader.body, /YOUR_API_KEY/);
    const later = (await owner.get('/integrations')).body;
    assert.match(later, /YOUR_API_KEY/);
    assert.ok(!later.includes(readKey), 'the key is shown once');
  });

  it('shows the account and the health panel', async () => {
    const account = await owner.get('/account');
    assert.match(account.body, /Credits used/);
    const language = await owner.post('/account/language', { language: 'de' });
    assert.equal(language.headers.location, '/account?done=language');
    assert.equal((await t.services.accounts.find('owner@example.com'))?.language, 'de');
    assert.equal((await owner.post('/account/language', { language: '<x>' })).statusCode, 422);
    const health = await owner.get('/health');
    assert.match(health.body, /Queue depth/);
    assert.match(health.body, /Not configured: email notifications cannot be sent/);
    assert.match(health.body, /Malware scanner<\/th><td>Not configured: uploaded files are not scanned \(set INTAKE_CLAMAV_URL\)/);
    // Another tenant sees its own figures, not the server's queue.
    const link = await t.services.dashboard.passwordLink('tenant@example.com', true);
    const tenant = new DashboardClient(t);
    await tenant.get(`/set-password?token=${link.token}`);
    assert.equal((await tenant.post('/set-password', { token: link.token, password: 'tenant password 123' })).statusCode, 303);
    const theirs = await tenant.get('/health');
    assert.equal(theirs.statusCode, 200);
    assert.doesNotMatch(theirs.body, /Queue depth|Oldest due job/);
    assert.match(theirs.body, /Failed deliveries/);
  });

  it('deletes a submission and then the form after confirmation', async () => {
    const key = await t.createKey('owner@example.com');
    const id = await submit(t, endpoint, { email: 'bye@example.com', message: 'delete me' });
    await settled(t, key, formId, id);
    await owner.get(`/forms/${formId}/submissions/${id}`);
    await owner.post(`/forms/${formId}/submissions/${id}/delete`, { confirm: 'true' });
    assert.equal((await owner.get(`/forms/${formId}/submissions/${id}`)).statusCode, 404);
    await owner.get(`/forms/${formId}/delete`);
    assert.equal((await owner.post(`/forms/${formId}/delete`)).headers.location, '/forms');
    assert.equal((await owner.get(`/forms/${formId}`)).statusCode, 404);
  });
});
