// The dashboard in a real Chromium: first-run set-up, a form made with the field builder, a
// submission sent with fetch from a page on another origin appearing without reload, spam
// corrections, the translation toggle, a webhook destination tested and logged, an API key used
// and revoked, log out and in, a knowledge base and a reply draft edited and sent to a real SMTP
// server; hostile data never runs. Screenshots go to test-results/screenshots.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';
import { startPipelineApp, type PipelineApp } from './pipeline-helpers.ts';
import { startSmtpServer } from './smtp.ts';
import { chromiumMissing, launchBrowser, screenshot, type Browser } from './browser.ts';

const EMAIL = 'owner@example.com';
const PASSWORD = 'correct horse battery';
const XSS = '<img src=x onerror="alert(1)"><script>alert(2)</script>';

describe('dashboard in Chromium', { skip: chromiumMissing() }, () => {
  let t: PipelineApp;
  let browser: Browser;
  let page: Page;
  let base: string;
  let translator: FakeProvider;
  let receiver: FakeProvider;
  let otherOrigin: FakeProvider;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let snippet = '';
  let formUrl = '';

  before(async () => {
    translator = await startFakeProvider((request) => {
      const body = request.body as { q: string[]; target: string };
      return { body: { translatedText: body.q.map((text) => `[${body.target}] ${text}`) } };
    });
    receiver = await startFakeProvider(() => ({ status: 200, body: { ok: true } }));
    otherOrigin = await startFakeProvider(() => ({
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Another site</title></head><body><h1>Contact us</h1>${snippet}</body></html>`,
    }));
    smtp = await startSmtpServer();
    t = await startPipelineApp({
      INTAKE_TRANSLATE_URL: translator.url, INTAKE_OUTBOUND_ALLOW: '127.0.0.1', INTAKE_SMTP_URL: smtp.url, INTAKE_MAIL_FROM: 'Intake <no-reply@example.com>',
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    page = await browser.context.newPage();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await Promise.all([translator?.close(), receiver?.close(), otherOrigin?.close(), smtp?.close()]);
  });

  it('sets up the first owner on a new server', async () => {
    await page.goto(`${base}/`);
    assert.equal(new URL(page.url()).pathname, '/setup');
    await page.getByText('npm run intake -- setup-link').waitFor();
    // The link `intake serve` printed on its terminal.
    const issued = await t.services.setup.newToken();
    await page.goto(`${base}/setup?token=${issued?.token}`);
    await screenshot(page, '01-setup');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${base}/overview`);
    await page.getByRole('heading', { name: 'No forms yet' }).waitFor();
    await screenshot(page, '02-forms-empty');
  });

  it('creates a form with the field builder', async () => {
    await page.getByRole('link', { name: 'Create your first form' }).click();
    await page.getByLabel('Name', { exact: true }).first().fill(`Contact ${XSS}`);
    await page.getByLabel('Slug').fill('contact');
    const builder = page.locator('#builder');
    await builder.getByRole('button', { name: 'Add field' }).click();
    const card = builder.locator('fieldset.bcard').last();
    await card.getByLabel('Name').fill('company');
    await card.getByLabel('Type').selectOption('string');
    await card.getByRole('button', { name: 'Add rule' }).click();
    await card.getByLabel('Rule').selectOption('max_length');
    await card.getByLabel('Value').fill('80');
    await page.getByLabel('Translate submissions into my language').check();
    const json = JSON.parse(await page.getByLabel('Fields as JSON').inputValue()) as { fields: Array<{ name: string; rules: unknown[] }> };
    assert.deepEqual(json.fields.map((f) => f.name), ['email', 'message', 'company']);
    assert.deepEqual(json.fields[2]?.rules, [{ op: 'max_length', value: 80 }]);
    await screenshot(page, '03-form-editor');
    await page.getByRole('button', { name: 'Create form' }).click();
    await page.getByText('Form created.').waitFor();
    formUrl = page.url().includes('/forms/new') ? `${base}${await page.locator('nav.tabs a').first().getAttribute('href')}` : page.url();
    snippet = (await page.locator('#snippet-html').textContent()) ?? '';
    assert.match(snippet, /action="http:\/\/127\.0\.0\.1:\d+\/f\/[^"]+" method="POST"/);
    assert.match(snippet, /fetch\(form\.action, \{ method: 'POST', headers: \{ Accept: 'application\/json' \}/);
    await screenshot(page, '04-form-overview');
  });

  it('shows a submission sent with fetch from another origin without a reload, after per-field errors', async () => {
    await page.goto(`${formUrl}/inbox`);
    await page.getByText('Nothing here yet.').waitFor();
    await page.evaluate('window.marker = true');

    const site = await browser.context.newPage();
    await site.goto(`${otherOrigin.url}/contact`);
    await site.locator('input[name="email"]').fill('not an email');
    await site.locator('textarea[name="message"]').fill('Bonjour, je voudrais un devis pour des chaises de jardin.');
    await site.locator('input[name="company"]').fill('x'.repeat(81));
    await site.getByRole('button', { name: 'Send' }).click();
    await site.locator('[data-error-for="email"]').filter({ hasText: /./ }).waitFor();
    assert.match((await site.locator('[data-error-for="company"]').textContent()) ?? '', /80/);
    await screenshot(site, '05-other-origin-errors');
    await site.locator('input[name="email"]').fill('marie@example.fr');
    await site.locator('input[name="company"]').fill(XSS);
    await site.getByRole('button', { name: 'Send' }).click();
    await site.getByText('Thank you! We received your message.').waitFor();
    await site.close();

    await page.locator('#inbox-rows').getByText('marie@example.fr').waitFor({ timeout: 10_000 });
    assert.equal(await page.evaluate('window.marker'), true, 'the page was not reloaded');
    await screenshot(page, '06-inbox');
  });

  it('marks the submission as spam and not spam, and toggles its translation', async () => {
    await page.locator('#inbox-rows a').first().click();
    await page.locator('#message-subject').waitFor();
    for (let i = 0; i < 50 && !(await page.getByRole('button', { name: 'Mark as spam' }).count()); i++) {
      await page.waitForTimeout(200);
      await page.reload();
    }
    await page.getByRole('button', { name: 'Mark as spam' }).click();
    await page.getByText('Marked as spam.').waitFor();
    assert.equal(await page.locator('#spam-verdict').textContent(), 'Spam');
    await page.getByRole('button', { name: 'Not spam' }).click();
    await page.getByText('Marked as not spam.').waitFor();
    assert.equal(await page.locator('#spam-verdict').textContent(), 'Not spam');

    assert.match((await page.locator('#message-text').textContent()) ?? '', /\[en\] Bonjour/);
    await screenshot(page, '07-submission');
    await page.getByRole('link', { name: 'Show original' }).click();
    await page.getByRole('link', { name: 'Show translation' }).waitFor();
    const original = (await page.locator('#submission-data').textContent()) ?? '';
    assert.match((await page.locator('#message-text').textContent()) ?? '', /Bonjour, je voudrais/);
    assert.doesNotMatch(original, /\[en\]/);
    assert.match(original, /<img src=x onerror="alert\(1\)">/, 'hostile data shown as text');
    assert.equal(await page.locator('#submission-data img').count(), 0);
  });

  it('adds a webhook destination, tests it and shows the log', async () => {
    await page.goto(`${formUrl}/notifications`);
    await page.getByLabel('Type').selectOption('webhook');
    await page.getByLabel('URL', { exact: true }).fill(`${receiver.url}/hook`);
    await page.getByRole('button', { name: 'Add destination' }).click();
    const secret = (await page.locator('#once-secret').textContent()) ?? '';
    assert.match(secret, /^whsec_/);
    await screenshot(page, '08-notifications');
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByText('Test event delivered.').waitFor();
    assert.ok(receiver.requests.some((r) => r.path === '/hook'));
    await page.getByRole('link', { name: 'Delivery log' }).click();
    await page.getByText('HTTP 200').first().waitFor();
    await screenshot(page, '09-delivery-log');
  });

  it('generates an API key, uses it with the REST API and revokes it', async () => {
    await page.goto(`${base}/integrations`);
    await page.getByLabel('Key name').fill('Browser test key');
    await page.getByRole('button', { name: 'Generate new key' }).click();
    const key = (await page.locator('#once-secret').textContent()) ?? '';
    assert.match(key, /^ik_/);
    await screenshot(page, '10-integrations');
    const listed = await fetch(`${base}/api/forms`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(listed.status, 200);
    assert.equal(((await listed.json()) as { forms: unknown[] }).forms.length, 1);
    await page.getByRole('row', { name: /Browser test key/ }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('Key revoked.').waitFor();
    assert.equal((await fetch(`${base}/api/forms`, { headers: { authorization: `Bearer ${key}` } })).status, 401);
  });

  it('shows the account and health pages, and logs out and in again', async () => {
    await page.goto(`${base}/account`);
    await page.getByRole('heading', { name: 'Plan and AI credits' }).waitFor();
    await screenshot(page, '11-account');
    await page.goto(`${base}/health`);
    await page.getByText('Queue depth').waitFor();
    await screenshot(page, '12-health');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(`${base}/login`);
    await screenshot(page, '13-login');
    await page.goto(`${base}/forms`);
    assert.equal(new URL(page.url()).pathname, '/login');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${base}/overview`);
    await page.goto(`${base}/forms`);
    await page.getByRole('link', { name: /Contact/ }).first().waitFor();
    await screenshot(page, '14-forms');
  });

  it('lists a busy inbox (the screenshot of the README)', async () => {
    const key = (await t.services.accounts.createKey({ email: EMAIL, name: 'screenshot' })).key;
    const made = await fetch(`${base}/api/forms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Quote requests', slug: 'quotes', visibility: 'public', localisation_enabled: true, spam_protection_enabled: true,
        fields_schema: { fields: [{ name: 'name', type: 'string', required: true }, { name: 'email', type: 'email', required: true }, { name: 'message', type: 'string', required: true }] },
      }),
    });
    const form = (await made.json()) as { id: string; endpoint: string };
    const messages = [
      ['Ada Lovelace', 'ada@example.com', 'Could you send me a quote for 40 garden chairs, delivered in March?'],
      ['Jonas Weber', 'jonas@example.de', 'Guten Tag, ich hätte gern ein Angebot für zwölf Gartentische aus Holz.'],
      ['Win big', 'promo@mailinator.com', 'CLICK HERE!!! casino bonus http://bit.ly/a http://bit.ly/b cheap SEO guaranteed'],
      ['Grace Hopper', 'grace@example.com', 'Do the benches come in a weatherproof finish? We need six for a terrace.'],
      ['Lucía Pérez', 'lucia@example.es', 'Hola, ¿tienen sillas plegables en color verde? Necesito veinte.'],
    ];
    for (const [name, email, message] of messages) {
      const response = await fetch(form.endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, email, message }) });
      assert.equal(response.status, 201);
    }
    await page.goto(`${base}/forms/${form.id}/inbox?tab=all`);
    await page.locator('#inbox-rows').getByText('Lucía Pérez').waitFor();
    for (let i = 0; i < 50 && (await page.locator('#inbox-rows .status-pending, #inbox-rows .status-processing').count()) > 0; i++) await page.waitForTimeout(200);
    await screenshot(page, '18-inbox-busy');
  });

  it('edits and sends a reply draft, which arrives at a real SMTP server', async () => {
    await page.goto(`${base}/knowledge/new`);
    await page.getByLabel('Name').fill('Shop FAQ');
    await page.getByLabel('Content').fill('Q: What are your opening hours?\nA: We are open from 9 to 5, Monday to Friday.\n\nQ: Do you deliver?\nA: We deliver within 50 km for free.');
    await page.getByLabel('Signature').fill('The Garden Shop');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Knowledge base created.').waitFor();
    await screenshot(page, '19-knowledge-base');

    await page.goto(`${base}/forms/new`);
    await page.getByLabel('Name', { exact: true }).first().fill('Questions');
    await page.getByLabel('Slug').fill('questions');
    await page.getByLabel('Draft smart replies from a knowledge base').check();
    await page.getByLabel('Knowledge base', { exact: true }).selectOption({ label: 'Shop FAQ' });
    await page.getByRole('button', { name: 'Create form' }).click();
    await page.getByText('Form created.').waitFor();
    const endpoint = (await page.locator('#endpoint').textContent()) ?? '';
    const formPath = (await page.locator('nav.tabs a').first().getAttribute('href')) ?? '';
    const sent = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'visitor@example.com', message: 'Hello, what are your opening hours?' }) });
    assert.equal(sent.status, 201);
    const { id } = (await sent.json()) as { id: string };

    await page.goto(`${base}${formPath}/submissions/${id}`);
    for (let i = 0; i < 50 && (await page.locator('#f-reply_content').count()) === 0; i++) {
      await page.waitForTimeout(200);
      await page.reload();
    }
    for (let i = 0; i < 25 && (await page.locator('#reply-status').textContent()) === 'pending' && !(await page.locator('#f-reply_content').inputValue()); i++) {
      await page.waitForTimeout(200);
      await page.reload();
    }
    await screenshot(page, '20-reply-draft');
    await page.locator('#f-reply_subject').fill('Our opening hours');
    await page.locator('#f-reply_content').fill('Hello! We are open from 9 to 5, Monday to Friday. See you soon.');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft saved.').waitFor();
    await page.getByRole('button', { name: 'Send reply' }).click();
    await page.getByText('Reply sent.').waitFor();
    const mail = smtp.received.find((m) => m.recipients.includes('visitor@example.com'));
    assert.ok(mail, 'the reply reached the SMTP server');
    assert.equal(mail.mail.subject, 'Our opening hours');
    assert.match(mail.mail.text ?? '', /open from 9 to 5, Monday to Friday\. See you soon\./);
  });

  it('is usable at 375 px and in dark mode, and no injected script ever ran', async () => {
    const phone = await browser.context.newPage();
    await phone.setViewportSize({ width: 375, height: 780 });
    await phone.goto(`${formUrl}/inbox`);
    const overflow = Number(await phone.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
    assert.ok(overflow <= 1, `the inbox scrolls sideways by ${overflow}px at 375px`);
    await screenshot(phone, '15-inbox-375px');
    await phone.emulateMedia({ colorScheme: 'dark' });
    await phone.locator('#inbox-rows a').first().click();
    await phone.locator('#message-subject').waitFor();
    await screenshot(phone, '16-submission-375px-dark');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(formUrl);
    await screenshot(page, '17-form-overview-dark');
    await phone.close();
    assert.deepEqual(browser.alerts, []);
  });
});
