// The README's five-minute tour, followed in Chromium as a newcomer would, on a real `intake serve`
// process with its embedded workers: the set-up link it printed, the owner account, a form created in
// the dashboard, its HTML snippet pasted into a static page served from another origin (a second local
// port), a submission sent from that page, the submission in the inbox, and a key made with the CLI as
// the README says that sees the form. Nothing is set up behind the browser's back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissing, launchBrowser, screenshot, type Browser } from './browser.ts';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';
import { createTestStore, type TestStore } from './helpers.ts';
import { startServer, stop } from './processes.ts';
import { runCli } from './cli.ts';

const PRINTED_LINK = /^Open (http:\/\/localhost:\d+\/setup\?token=\S+) to create the owner account\.$/m;

describe('the README tour in Chromium, on a fresh server', { skip: chromiumMissing() }, () => {
  let store: TestStore;
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  let page: Page;
  let staticSite: FakeProvider;
  let snippet = '';
  let formUrl = '';

  before(async () => {
    store = await createTestStore();
    server = await startServer({ ...store.env, INTAKE_LOG_LEVEL: 'warn' }, true);
    // A static page on another port, as `python3 -m http.server` would serve the newcomer's index.html.
    staticSite = await startFakeProvider(() => ({
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>My site</title></head><body><h1>Contact</h1>\n${snippet}\n</body></html>`,
    }));
    browser = await launchBrowser();
    page = await browser.context.newPage();
  });
  after(async () => {
    await browser?.close();
    if (server) await stop(server.child);
    await staticSite?.close();
    await store?.cleanup();
  });

  it('1. creates the owner account through the link the server printed', async () => {
    for (let i = 0; i < 200 && !PRINTED_LINK.test(server.stdout()); i++) await new Promise((r) => setTimeout(r, 50));
    const link = PRINTED_LINK.exec(server.stdout())?.[1];
    assert.ok(link, server.stdout());
    await page.goto(link);
    await page.getByLabel('Email').fill('newcomer@example.com');
    await page.getByLabel('New password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'No forms yet' }).waitFor();
  });

  it('2. creates a form in the dashboard, keeping the fields it suggests', async () => {
    await page.getByRole('link', { name: 'Create your first form' }).click();
    await page.getByLabel('Name', { exact: true }).first().fill('Contact');
    await page.getByLabel('Slug').fill('contact');
    await page.getByRole('button', { name: 'Create form' }).click();
    await page.getByText('Form created.').waitFor();
    const base = new URL(page.url()).origin;
    formUrl = page.url().includes('/forms/new') ? `${base}${await page.locator('nav.tabs a').first().getAttribute('href')}` : page.url();
    await page.getByRole('heading', { name: 'Use this form' }).waitFor();
    snippet = (await page.locator('#snippet-html').textContent()) ?? '';
    assert.match(snippet, /<form id="intake-form"/);
  });

  it('3 and 4. sends it from a page on another origin, and the inbox shows it', async () => {
    const site = await browser.context.newPage();
    await site.goto(`${staticSite.url}/index.html`);
    const fields = site.locator('#intake-form input:not([type=checkbox]):not([type=hidden]), #intake-form textarea');
    assert.ok((await fields.count()) > 0, snippet);
    for (const field of await fields.all()) {
      const type = await field.getAttribute('type');
      if (!(await field.isVisible())) continue;
      await field.fill(type === 'email' ? 'visitor@example.com' : type === 'number' ? '3' : type === 'date' ? '2026-01-31' : 'Hello, do you deliver on Saturdays?');
    }
    await site.getByRole('button', { name: 'Send' }).click();
    await site.getByText('Thank you! We received your message.').waitFor();
    await screenshot(site, 'newcomer-static-page');
    await site.close();

    await page.goto(`${formUrl}/inbox`);
    await page.locator('#inbox-rows').getByText('visitor@example.com').waitFor({ timeout: 15_000 });
    await screenshot(page, 'newcomer-inbox');
  });

  it('5. creates a key the way the README says, and the key sees the form made in the dashboard', async () => {
    // `KEY=$(npm run -s intake -- keys create --email you@example.com --name laptop)`: the key alone on stdout.
    const created = await runCli(['keys', 'create', '--email', 'newcomer@example.com', '--name', 'laptop'], store.env);
    assert.equal(created.code, 0, created.stderr);
    const key = created.stdout.trim();
    assert.match(key, /^ik_\S+$/, created.stdout);
    assert.match(created.stderr, /newcomer@example\.com/, 'says which account the key belongs to');
    const response = await fetch(`${server.base}/api/forms`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(response.status, 200);
    const listed = (await response.json()) as { forms: Array<{ name: string; slug: string }> };
    assert.deepEqual(listed.forms.map((f) => [f.name, f.slug]), [['Contact', 'contact']]);
  });
});
