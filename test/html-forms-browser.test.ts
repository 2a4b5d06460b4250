// A visitor with JavaScript off (issue 33): a static page on another origin holds the dashboard's
// Plain HTML snippet; Chromium fills it in and posts it, lands on Intake's thank-you page, and the
// submission is stored. A wrong value shows Intake's error page naming the field. With ALTCHA on
// (and scripts), the widget in the same snippet, served by Intake, solves and the plain post passes.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { plainHtmlSnippet } from '../src/dashboard/pages/snippets.ts';
import { CHROMIUM, chromiumMissing, screenshot } from './browser.ts';
import { bearer, createForm, startTestApp, type TestApp } from './helpers.ts';

describe('a plain HTML form in Chromium with JavaScript disabled', { skip: chromiumMissing() }, () => {
  let t: TestApp;
  let key: string;
  let formId: string;
  let site: http.Server;
  let siteUrl: string;
  let intake: string;
  const pages = new Map<string, string>();
  let browser: Browser;

  before(async () => {
    t = await startTestApp({ INTAKE_ALTCHA_COST: '1', INTAKE_ALTCHA_MAX_COUNTER: '50' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    intake = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    key = await t.createKey();
    const created = await createForm(t, key, { name: 'Contact us' });
    formId = created.id;
    const form = await t.services.forms.get((await t.services.accounts.find(String((await t.request({ method: 'GET', url: '/api/account', headers: bearer(key) })).json().email)))!.id, formId);
    pages.set('/contact.html', pageOf(form));
    site = http.createServer((request, response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pages.get(request.url ?? '') ?? ''));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}/contact.html`;
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  });
  after(async () => {
    await browser?.close();
    site?.close();
    await t?.close();
  });

  /** A static page holding the dashboard's Plain HTML snippet of the form. */
  function pageOf(form: Parameters<typeof plainHtmlSnippet>[0]): string {
    const snippet = plainHtmlSnippet(form, `${intake}/f/${form.version.segment}/${form.version.slug}`, `${intake}/api/${form.version.segment}/f/${form.version.slug}`);
    return `<!doctype html><html lang="en"><head><title>A static site</title></head><body><h1>Write to us</h1>\n${snippet}\n</body></html>`;
  }

  async function visit(path = '/contact.html', javaScriptEnabled = false) {
    const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 375, height: 740 } });
    const page = await context.newPage();
    await page.goto(new URL(path, siteUrl).href);
    return { page, context };
  }

  it('posts the form and lands on the thank-you page; the submission is stored', async () => {
    const { page, context } = await visit();
    await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
    await page.getByLabel('Email', { exact: true }).fill('ada@example.com');
    await page.getByLabel('Message', { exact: true }).fill('Grüße, und danke!');
    await page.getByLabel('Age', { exact: true }).fill('36');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('heading', { name: 'Thank you' }).waitFor();
    assert.match(page.url(), /\/thanks/);
    await page.getByRole('link', { name: /Back to 127\.0\.0\.1/ }).waitFor();
    await screenshot(page, 'html-form-thanks');
    await context.close();
    const stored = (await t.request({ method: 'GET', url: `/api/forms/${formId}/submissions`, headers: bearer(key) })).json().data;
    assert.equal(stored.length, 1);
    assert.deepEqual(stored[0].data, { name: 'Ada Lovelace', email: 'ada@example.com', message: 'Grüße, und danke!', age: 36 });
  });

  it('shows the error page naming a wrong field', async () => {
    const { page, context } = await visit();
    await page.getByLabel('Name', { exact: true }).fill('Grace');
    // type=email would stop the browser itself; a visitor's browser may not check, Intake does.
    await page.getByLabel('Email', { exact: true }).evaluate((input) => input.setAttribute('type', 'text')).catch(() => undefined);
    await page.locator('input[name=email]').fill('not an address');
    await page.locator('form').evaluate((form) => form.setAttribute('novalidate', '')).catch(() => undefined);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('heading', { name: 'The form could not be sent' }).waitFor();
    assert.match((await page.locator('main').textContent()) ?? '', /email: invalid email/);
    await screenshot(page, 'html-form-error');
    await context.close();
    const stored = (await t.request({ method: 'GET', url: `/api/forms/${formId}/submissions`, headers: bearer(key) })).json().data;
    assert.equal(stored.length, 1, 'nothing more stored');
  });

  it('with ALTCHA on, the snippet carries the widget from Intake, which solves, and the plain post is accepted', async () => {
    const owner = (await t.services.accounts.find(String((await t.request({ method: 'GET', url: '/api/account', headers: bearer(key) })).json().email)))!.id;
    const updated = await t.request({ method: 'PUT', url: `/api/forms/${formId}`, headers: bearer(key), payload: { captcha_provider: 'altcha' } });
    assert.equal(updated.statusCode, 200, updated.body);
    const page0 = pageOf(await t.services.forms.get(owner, formId));
    assert.match(page0, new RegExp(`<script src="${intake}/assets/altcha\\.js" defer></script>`));
    pages.set('/altcha.html', page0);

    const { page, context } = await visit('/altcha.html', true);
    await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
    await page.getByLabel('Email', { exact: true }).fill('ada@example.com');
    await page.getByLabel('Message', { exact: true }).fill('With a proof of work.');
    // The widget's own checkbox, as a visitor ticks it (its check mark drawing sits on top of the input).
    await page.getByRole('checkbox').first().click({ position: { x: 2, y: 2 } });
    await page.waitForFunction("String(new FormData(document.querySelector('form')).get('altcha') ?? '').length > 0", undefined, { timeout: 30_000 });
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('heading', { name: 'Thank you' }).waitFor();
    await context.close();
    const stored = (await t.request({ method: 'GET', url: `/api/forms/${formId}/submissions`, headers: bearer(key) })).json().data;
    assert.equal(stored.length, 2);
    assert.equal(stored[0].data.altcha, undefined, 'the solution is not data');
  });
});
