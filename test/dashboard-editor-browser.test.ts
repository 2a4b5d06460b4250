// The rough edges of issue 24, in Chromium: the destination form shows only its type's inputs;
// the form editor shows a setting only while its switch is on, speaks of rules in words and moves
// fields both ways; code blocks take keyboard focus; creating a key redirects (a reload creates no
// second key) and that one page's snippets hold the new key.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissing, launchBrowser, logInPage, screenshot, type Browser } from './browser.ts';
import { createForm, ENGINE, startTestApp, type TestApp } from './helpers.ts';

const EMAIL = 'edges@example.com';
const PASSWORD = 'correct horse battery';

describe(`dashboard rough edges in Chromium (${ENGINE})`, { skip: chromiumMissing() }, () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let base: string;
  let formId: string;

  before(async () => {
    t = await startTestApp();
    formId = (await createForm(t, await t.createKey(EMAIL))).id;
    await t.services.dashboard.setPasswordOf(EMAIL, PASSWORD);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await logInPage(page, base, EMAIL, PASSWORD);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows only the inputs of the chosen destination type', async () => {
    await page.goto(`${base}/forms/${formId}/notifications`);
    assert.equal(await page.getByLabel('Telegram bot token').isVisible(), false, 'no Telegram fields for a webhook');
    assert.equal(await page.getByLabel('URL', { exact: true }).isVisible(), true);
    await page.getByLabel('Type').selectOption('telegram');
    assert.equal(await page.getByLabel('Telegram bot token').isVisible(), true);
    assert.equal(await page.getByLabel('URL', { exact: true }).isVisible(), false);
  });

  it('shows a setting only while its switch is on, with rules in words and fields that move both ways', async () => {
    await page.goto(`${base}/forms/new`);
    // A new form starts with spam protection on (issue 35): its strategy shows, and goes with the switch.
    assert.equal(await page.getByLabel('Check submissions for spam').isChecked(), true);
    assert.equal(await page.getByLabel('Strategy', { exact: true }).isVisible(), true);
    await page.getByLabel('Check submissions for spam').uncheck();
    const pairs: Array<[string, string]> = [
      ['Check submissions for spam', 'Strategy'],
      ['Draft smart replies from a knowledge base', 'Reply mode'],
      ['Send each submission to a webhook', 'Webhook URL'],
    ];
    for (const [toggle, setting] of pairs) {
      assert.equal(await page.getByLabel(setting, { exact: true }).isVisible(), false, `${setting} hidden while off`);
      await page.getByLabel(toggle).check();
      assert.equal(await page.getByLabel(setting, { exact: true }).isVisible(), true, `${setting} shown once on`);
    }
    assert.equal(await page.getByText('leave empty to keep the current one').count(), 0, 'nothing to keep on a new form');
    const builder = page.locator('#builder');
    const ruleOptions = await builder.locator('.rule select').first().locator('option').allTextContents();
    assert.ok(ruleOptions.includes('At most (characters)') && !ruleOptions.includes('max_length'), ruleOptions.join(', '));
    const names = async () => (JSON.parse(await page.locator('#f-fields_schema').inputValue()) as { fields: Array<{ name: string }> }).fields.map((f) => f.name);
    assert.deepEqual(await names(), ['email', 'message']);
    await builder.locator('fieldset.bcard').first().getByRole('button', { name: 'Move down' }).click();
    assert.deepEqual(await names(), ['message', 'email']);
    assert.equal(await builder.locator('fieldset.bcard').last().getByRole('button', { name: 'Move down' }).isDisabled(), true);
  });

  it('shows the whole text of every rule in the field builder, at phone and desktop width', async () => {
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 860 });
      await page.goto(`${base}/forms/new`);
      const builder = page.locator('#builder');
      await builder.locator('fieldset.bcard').first().getByRole('button', { name: 'Add rule' }).click();
      const selects = builder.locator('.rule select');
      assert.ok((await selects.count()) > 0);
      // A copy of each select, free to take its natural width, is as wide as its longest option.
      const short = await page.evaluate(`[...document.querySelectorAll('#builder .rule select')].flatMap((select) => {
        const natural = select.cloneNode(true);
        natural.style.cssText = 'position:absolute;visibility:hidden;width:auto;min-width:0;max-width:none';
        select.parentElement.append(natural);
        const needed = natural.getBoundingClientRect().width;
        natural.remove();
        const has = select.getBoundingClientRect().width;
        return has + 0.5 < needed ? [select.selectedOptions[0].text + ': ' + has + ' < ' + needed] : [];
      })`);
      assert.deepEqual(short, [], `rule menus cut off at ${width} px`);
      const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      assert.equal(overflow, 0, `no sideways scrolling at ${width} px`);
      await screenshot(page, `builder-rules-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('suggests the slug from the name until the slug is edited by hand', async () => {
    await page.goto(`${base}/forms/new`);
    const name = page.locator('#f-name');
    const slug = page.locator('#f-slug');
    await name.pressSequentially('Café Contact — Été 2026!');
    assert.equal(await slug.inputValue(), 'cafe-contact-ete-2026');
    await name.fill('');
    assert.equal(await slug.inputValue(), '', 'follows the name back to empty');
    await name.fill('Newsletter sign-up');
    assert.equal(await slug.inputValue(), 'newsletter-sign-up');
    await slug.fill('news');
    await name.fill('Newsletter');
    assert.equal(await slug.inputValue(), 'news', 'a slug typed by hand stays');
    // An existing form keeps its slug (a new slug mints a new endpoint) when renamed.
    await page.goto(`${base}/forms/${formId}/edit`);
    const kept = await slug.inputValue();
    await name.fill('Renamed form');
    assert.equal(await slug.inputValue(), kept);
  });

  it('lets the keyboard reach a code block that scrolls', async () => {
    await page.goto(`${base}/forms/${formId}`);
    const block = page.locator('pre').first();
    await block.focus();
    assert.equal(await page.evaluate('document.activeElement.tagName'), 'PRE');
    assert.equal(await block.getAttribute('tabindex'), '0');
  });

  it('redirects after creating a key, shows it once, in the snippets too, and a reload creates nothing', async () => {
    const before = (await t.services.accounts.listKeys(EMAIL)).length;
    await page.goto(`${base}/integrations`);
    await page.getByLabel('Key name').fill('Laptop');
    await page.getByRole('button', { name: 'Generate new key' }).click();
    await page.waitForURL(`${base}/integrations`);
    const key = (await page.locator('#once-secret').textContent()) ?? '';
    assert.match(key, /^ik_/);
    assert.ok(((await page.locator('#mcp-claude-code').textContent()) ?? '').includes(`Bearer ${key}`));
    await page.reload();
    assert.equal((await t.services.accounts.listKeys(EMAIL)).length, before + 1, 'a reload posts nothing');
    assert.equal(await page.locator('#once-secret').count(), 0, 'shown once');
    assert.match((await page.locator('#mcp-claude-code').textContent()) ?? '', /YOUR_API_KEY/);
  });
});
