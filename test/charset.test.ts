// Every snippet an owner pastes and every page Intake serves declares UTF-8 where a browser looks
// for it: a snippet pasted into a bare index.html served without a charset (python3 -m http.server)
// otherwise shows "Sendingâ€¦". A browser reads a <meta charset> only within the first 1024 bytes.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { chromiumMissing, launchBrowser } from './browser.ts';
import { DashboardClient } from './dashboard-helpers.ts';
import { bearer, createForm, startTestApp, type TestApp } from './helpers.ts';
import { htmlSnippet, plainHtmlSnippet } from '../src/dashboard/pages/snippets.ts';
import { notificationEmail } from '../src/delivery/email.ts';

/**
 * The charset Chromium decodes each document with when it is served as python3 -m http.server
 * serves a file: `text/html` and no charset, so only what the bytes declare counts.
 */
async function charsetsInChromium(documents: Map<string, string>): Promise<Map<string, string>> {
  const bodies = [...documents.values()];
  const server = http.createServer((request, response) => {
    const body = bodies[Number(request.url?.slice(1))];
    response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html' }).end(Buffer.from(body ?? '', 'utf8'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    const found = new Map<string, string>();
    let index = 0;
    for (const name of documents.keys()) {
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/${index++}`);
      found.set(name, String(await page.evaluate('document.characterSet')));
    }
    return found;
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
}

function served(documents: Map<string, string>, name: string, response: LightMyRequestResponse): void {
  assert.equal(response.headers['content-type'], 'text/html; charset=utf-8', name);
  documents.set(name, response.body);
}

describe('UTF-8 declared by every snippet and page', { skip: chromiumMissing() }, () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t?.close());

  it('is what Chromium decodes each snippet (pasted into an empty file) and each page with, served without a charset', async () => {
    const documents = new Map<string, string>();
    const owner = new DashboardClient(t);
    served(documents, 'set-up page', await owner.get(`/setup?token=${await owner.setupToken()}`));
    await owner.setUp();
    for (const url of ['/overview', '/forms', '/forms/new', '/integrations', '/account', '/health', '/no-such-page']) served(documents, url, await owner.get(url, { accept: 'text/html' }));
    served(documents, '/login', await new DashboardClient(t).get('/login'));

    const key = await t.createKey('owner@example.com');
    const created = await createForm(t, key);
    const form = await t.services.forms.get((await t.services.accounts.authenticate(key))!.account.id, created.id);
    documents.set('Plain HTML snippet', plainHtmlSnippet(form, String(created.html_endpoint), String(created.endpoint)));
    documents.set('HTML with fetch snippet', htmlSnippet(form, String(created.html_endpoint), String(created.endpoint)));
    served(documents, 'form page', await owner.get(`/forms/${created.id}`));
    served(documents, 'discovery page', await t.request({ method: 'GET', url: new URL(created.endpoint).pathname, headers: { accept: 'text/html' } }));
    const endpoint = new URL(String(created.html_endpoint)).pathname;
    const post = { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' };
    const sent = await t.request({ method: 'POST', url: endpoint, headers: post, payload: 'name=Ada&email=ada%40example.com&message=Hello%20there' });
    assert.equal(sent.statusCode, 303);
    served(documents, 'thank-you page', await t.request({ method: 'GET', url: String(sent.headers.location), headers: { accept: 'text/html' } }));
    served(documents, 'error page', await t.request({ method: 'POST', url: endpoint, headers: post, payload: 'name=Ada&email=nope' }));
    assert.equal((await t.request({ method: 'GET', url: '/api/forms', headers: bearer(key) })).statusCode, 200);
    const event = {
      id: 'evt_1', type: 'submission.created' as const, created_at: new Date().toISOString(),
      data: { form: { id: form.id, name: 'Contact', slug: form.slug, visibility: 'public' as const, version: 1 }, submission: { id: 's', data: { message: 'Grüße…' }, created_at: new Date().toISOString(), metadata: {} } as never },
    };
    documents.set('notification email', notificationEmail(event, [], 'https://x.example/').html);

    const charsets = await charsetsInChromium(documents);
    for (const name of documents.keys()) assert.equal(charsets.get(name), 'UTF-8', name);
  });
});
