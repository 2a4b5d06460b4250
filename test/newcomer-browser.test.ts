// The README's five-minute tour, followed in Chromium as a newcomer would, on a real `intake serve`
// process with its embedded workers: the set-up link it printed, the owner account, a form created in
// the dashboard, its HTML snippet pasted into a static page served from another origin (a second local
// port), a submission sent from that page, the submission in the inbox, a webhook and an email
// destination added in the dashboard whose "Send test" reaches a real HTTP receiver (signed, verified
// with the standardwebhooks package) and a real SMTP server, both marked as tests, and a key made
// with the CLI as the README says that sees the form. The server is configured only through the
// environment variables the README's tour names. Nothing is set up behind the browser's back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { chromiumMissing, launchBrowser, screenshot, type Browser } from './browser.ts';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';
import { createTestStore, type TestStore } from './helpers.ts';
import { startServer, stop } from './processes.ts';
import { runCli } from './cli.ts';
import { startSmtpServer } from './smtp.ts';

const PRINTED_LINK = /^Open (http:\/\/localhost:\d+\/setup\?token=\S+) to create the owner account\.$/m;

describe('the README tour in Chromium, on a fresh server', { skip: chromiumMissing() }, () => {
  let store: TestStore;
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  let page: Page;
  let staticSite: FakeProvider;
  let receiver: FakeProvider;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let snippet = '';
  let formUrl = '';

  before(async () => {
    store = await createTestStore();
    // The mail server and the webhook receiver a newcomer has on their own machine.
    smtp = await startSmtpServer();
    receiver = await startFakeProvider(() => ({ status: 204 }));
    // The README's tour, step 5: `INTAKE_SMTP_URL=… INTAKE_MAIL_FROM=… INTAKE_OUTBOUND_ALLOW=127.0.0.1 npm start`.
    server = await startServer({
      ...store.env,
      INTAKE_LOG_LEVEL: 'warn',
      INTAKE_SMTP_URL: smtp.url,
      INTAKE_MAIL_FROM: 'intake@example.com',
      INTAKE_OUTBOUND_ALLOW: '127.0.0.1',
    }, true);
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
    await receiver?.close();
    await smtp?.close();
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

  it('5. adds a webhook and an email destination; their tests arrive, marked as tests', async () => {
    await page.goto(formUrl);
    await page.locator('nav.tabs').getByRole('link', { name: 'Notifications' }).click();
    await page.getByRole('heading', { name: 'Add a destination' }).waitFor();

    // A webhook to the receiver: plain http to 127.0.0.1 is allowed by INTAKE_OUTBOUND_ALLOW.
    await page.getByLabel('Type').selectOption('webhook');
    await page.getByLabel('URL', { exact: true }).fill(`${receiver.url}/intake-hook`);
    await page.getByRole('button', { name: 'Add destination' }).click();
    const secret = ((await page.locator('#once-secret').textContent()) ?? '').trim();
    assert.match(secret, /^whsec_/, 'the signing secret is shown once');

    // An email destination: with INTAKE_SMTP_URL set, no warning about a missing mail server.
    await page.getByLabel('Type').selectOption('email');
    await page.getByLabel('Email recipients').fill('team@example.com');
    await page.getByRole('button', { name: 'Add destination' }).click();
    await page.getByText('team@example.com').waitFor();
    assert.equal(await page.getByText('No mail server is configured').count(), 0);
    await screenshot(page, 'newcomer-notifications');

    const card = (type: string) => page.locator('li.destination').filter({ has: page.locator('.badge', { hasText: new RegExp(`^${type}$`) }) });
    await card('webhook').getByRole('button', { name: 'Send test' }).click();
    await page.getByText('Test event delivered.').waitFor();
    await card('email').getByRole('button', { name: 'Send test' }).click();
    await page.getByText('Test event delivered.').waitFor();

    // The webhook: one signed request, verified as a receiver would, with the type that marks a test.
    const hooks = receiver.requests.filter((r) => r.path === '/intake-hook');
    assert.equal(hooks.length, 1);
    const headers = Object.fromEntries(Object.entries(hooks[0]!.headers).map(([name, value]) => [name, String(value)]));
    const event = new Webhook(secret).verify(hooks[0]!.raw, headers) as { type: string; data: { form: { slug: string } } };
    assert.equal(event.type, 'submission.test');
    assert.equal(event.data.form.slug, 'contact');
    assert.throws(() => new Webhook(secret).verify(hooks[0]!.raw.replace('contact', 'contacts'), headers), 'a changed body fails the check');

    // The email: at the SMTP server, to the recipient, saying "Test" first, with a link that leads somewhere real.
    assert.equal(smtp.received.length, 1);
    const { mail, recipients } = smtp.received[0]!;
    assert.deepEqual(recipients, ['team@example.com']);
    assert.match(mail.subject ?? '', /^\[Test\] /);
    assert.equal(mail.text?.split('\n')[0], 'Test: a sample submission to Contact');
    const link = /Open the delivery log: (\S+)/.exec(mail.text ?? '')?.[1];
    assert.ok(link, mail.text);
    await page.goto(link);
    await page.getByRole('heading', { name: /^Delivery log/ }).waitFor();
    await page.getByText('test event').first().waitFor();
  });

  it('6. creates a key the way the README says, and the key sees the form made in the dashboard', async () => {
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
