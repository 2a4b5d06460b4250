// The ALTCHA widget in Chromium, as a site owner would use it: a page on another origin loads the
// widget from Intake (no CDN), the widget fetches a challenge from the form's challenge URL and solves
// it, and the page posts its fields with the widget's payload to the JSON endpoint, which stores it.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { chromiumMissing, launchBrowser, type Browser } from './browser.ts';
import { bearer, createForm, startTestApp, type TestApp } from './helpers.ts';

const skip = chromiumMissing();

describe('ALTCHA widget in a browser', { skip }, () => {
  let t: TestApp;
  let site: http.Server;
  let siteUrl: string;
  let browser: Browser;
  let key: string;
  let formId: string;

  before(async () => {
    // A cheap proof of work: the widget's whole path runs, in milliseconds.
    t = await startTestApp({ INTAKE_ALTCHA_COST: '1', INTAKE_ALTCHA_MAX_COUNTER: '50' });
    const intake = await t.app.listen({ port: 0, host: '127.0.0.1' });
    key = await t.createKey();
    const form = await createForm(t, key, { captcha_provider: 'altcha', fields_schema: { fields: [{ name: 'email', type: 'email', required: true }] } });
    formId = form.id;
    const endpoint = form.endpoint.replace(/^http:\/\/localhost(:80)?/, intake);
    const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Contact</title>
<script src="${intake}/assets/altcha.js" defer></script></head><body>
<form id="contact">
  <input name="email" type="email" value="ada@example.com">
  <altcha-widget challenge="${endpoint}/captcha" auto="onload"></altcha-widget>
  <button type="submit">Send</button>
</form>
<p id="result"></p>
<script>
document.getElementById('contact').addEventListener('submit', async (event) => {
  event.preventDefault();
  const response = await fetch(${JSON.stringify(endpoint)}, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(Object.fromEntries(new FormData(event.target))),
  });
  document.getElementById('result').textContent = String(response.status);
});
</script></body></html>`;
    site = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    // localhost, not the address: the widget needs a secure context, which a localhost page is.
    siteUrl = `http://localhost:${(site.address() as AddressInfo).port}/`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
    await t?.close();
  });

  it('solves the challenge from Intake and the post is accepted and stored', async () => {
    const page = await browser.context.newPage();
    await page.goto(siteUrl);
    // Page code as strings: the tests are type-checked without the DOM's types.
    await page.waitForFunction("String(new FormData(document.querySelector('form')).get('altcha') ?? '').length > 0", undefined, { timeout: 30_000 });
    await page.click('button[type=submit]');
    await page.waitForFunction("document.getElementById('result').textContent !== ''", undefined, { timeout: 15_000 });
    assert.equal(await page.textContent('#result'), '201');
    const stored = await t.request({ method: 'GET', url: `/api/forms/${formId}/submissions?filter=all`, headers: bearer(key) });
    assert.equal(stored.json().meta.total_count, 1);
    assert.deepEqual(stored.json().data[0].data, { email: 'ada@example.com' });

    // The same page posting the same payload again: refused, the solution was used.
    await page.evaluate("document.getElementById('result').textContent = ''");
    await page.click('button[type=submit]');
    await page.waitForFunction("document.getElementById('result').textContent !== ''", undefined, { timeout: 15_000 });
    assert.equal(await page.textContent('#result'), '403');
    assert.deepEqual(browser.alerts, []);
  });
});
