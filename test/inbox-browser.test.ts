// The inbox to work in, in a real Chromium: the keyboard shortcuts listed on `?` (j/k move, x
// select, o open, e done, ! spam, # delete, / search), selection with checkboxes and "select all
// matching", each action a POST answered by a redirect to the inbox with a notice, and the rows
// swapped as the live update swaps them without losing the current row, its focus or the
// selection. With UPDATE_DOCS_SCREENSHOTS=1 it also writes the docs' inbox screenshot
// (docs/dashboard-inbox.png); otherwise a test run leaves the checkout as it was.
import assert from 'node:assert/strict';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';
import { createForm, settled, startPipelineApp, submit, type PipelineApp } from './pipeline-helpers.ts';
import { chromiumMissing, launchBrowser, screenshot, type Browser } from './browser.ts';

const EMAIL = 'owner@example.com';
const PASSWORD = 'correct horse battery';
const DOCS = path.resolve(import.meta.dirname, '..', 'docs');

const MESSAGES: Array<[string, string, string]> = [
  ['Ada Lovelace', 'ada@example.com', 'Quote for 40 garden chairs\nCould you send me a quote, delivered in March?'],
  ['Jonas Weber', 'jonas@example.de', 'Guten Tag, ich hätte gern ein Angebot für zwölf Gartentische aus Holz.'],
  ['Grace Hopper', 'grace@example.com', 'Do the benches come in a weatherproof finish? We need six for a terrace.'],
  ['Lucía Pérez', 'lucia@example.es', 'Hola, ¿tienen sillas plegables en color verde? Necesito veinte.'],
  ['Alan Turing', 'alan@example.com', 'Is the oak table still available in the long version?'],
  ['Katherine Johnson', 'kj@example.com', 'Please call me back about the delivery date of order 1187.'],
];

describe('inbox in Chromium', { skip: chromiumMissing() }, () => {
  let t: PipelineApp;
  let browser: Browser;
  let page: Page;
  let base: string;
  let translator: FakeProvider;
  let formId = '';

  const rows = () => page.locator('#inbox-rows tr[data-id]');
  const currentId = () => page.locator('#inbox-rows tr.current').getAttribute('data-id');
  const focusedRowId = () => page.evaluate("document.activeElement?.closest('tr[data-id]')?.getAttribute('data-id') ?? null");
  const notice = () => page.locator('.notice').textContent();

  before(async () => {
    translator = await startFakeProvider((request) => {
      const body = request.body as { q: string[]; target: string };
      return { body: { translatedText: body.q.map((text) => `[${body.target}] ${text}`) } };
    });
    t = await startPipelineApp({ INTAKE_TRANSLATE_URL: translator.url, INTAKE_OUTBOUND_ALLOW: '127.0.0.1' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    page = await browser.context.newPage();

    const issued = await t.services.setup.newToken();
    await page.goto(`${base}/setup?token=${issued?.token}`);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${base}/overview`);

    const key = await t.createKey(EMAIL);
    const form = await createForm(t, key, {
      name: 'Quote requests', localisation_enabled: true, spam_protection_enabled: true,
      fields_schema: { fields: [{ name: 'name', type: 'string', required: true }, { name: 'email', type: 'email', required: true }, { name: 'message', type: 'string', required: true }] },
    });
    formId = form.id;
    let last = '';
    for (const [name, email, message] of MESSAGES) last = await submit(t, form.endpoint, { name, email, message });
    await settled(t, key, formId, last);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await translator?.close();
  });

  it('shows who wrote and what they want, unread in bold, languages by name (the docs screenshot)', async () => {
    await page.goto(`${base}/forms/${formId}/inbox`);
    await rows().first().waitFor();
    for (let i = 0; i < 50 && (await page.locator('#inbox-rows .status-pending, #inbox-rows .status-processing').count()) > 0; i++) {
      await page.waitForTimeout(200);
      await page.reload();
    }
    assert.equal(await rows().count(), MESSAGES.length);
    assert.match(await rows().first().locator('.from').innerText(), /^Unread:\s+Katherine Johnson$/);
    assert.equal(await page.locator('#inbox-rows tr.unread').count(), MESSAGES.length);
    const weight = await page.evaluate("getComputedStyle(document.querySelector('#inbox-rows tr.unread .from a')).fontWeight");
    assert.equal(weight, '700');
    assert.match(await page.locator('#inbox-rows').innerText(), /German/);
    assert.match(await rows().last().locator('.subject').innerText(), /^Quote for 40 garden chairs$/);
    assert.match(await rows().first().locator('time').getAttribute('title') ?? '', /UTC$/);
    // Open one, so the picture shows read and unread side by side.
    await page.goto(`${base}/forms/${formId}/inbox`);
    await rows().nth(2).locator('.from a').click();
    await page.locator('#message-subject').waitFor();
    await page.goBack();
    await page.reload();
    await page.setViewportSize({ width: 1280, height: 640 });
    if (process.env.UPDATE_DOCS_SCREENSHOTS === '1') await page.screenshot({ path: path.join(DOCS, 'dashboard-inbox.png') });
    await page.setViewportSize({ width: 1280, height: 860 });
    await screenshot(page, 'inbox-to-work-in');
  });

  it('lists the shortcuts on ?, moves with j and k, selects with x and searches with /', async () => {
    await page.goto(`${base}/forms/${formId}/inbox`);
    await page.keyboard.press('?');
    await page.locator('dialog#shortcuts').waitFor({ state: 'visible' });
    assert.match(await page.locator('dialog#shortcuts').innerText(), /j \/ k[\s\S]*Next \/ previous[\s\S]*#[\s\S]*Delete/);
    await screenshot(page, 'inbox-shortcuts');
    await page.keyboard.press('Escape');
    await page.locator('dialog#shortcuts').waitFor({ state: 'hidden' });

    const ids = await rows().evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')));
    await page.keyboard.press('j');
    assert.equal(await currentId(), ids[0]);
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    assert.equal(await currentId(), ids[1]);
    assert.equal(await focusedRowId(), ids[1], 'the current row has the focus');
    await page.keyboard.press('x');
    assert.equal(await page.locator(`#inbox-rows tr[data-id="${ids[1]}"] input[name="ids"]`).isChecked(), true);
    assert.equal(await page.locator('#selected-count').textContent(), '1 selected');

    // The live update swaps the rows the way dashboard.js does: the current row, its focus and the selection come back.
    await page.evaluate(`(async () => {
      const fresh = new DOMParser().parseFromString(await (await fetch(location.href)).text(), 'text/html');
      document.querySelector('#inbox-rows').replaceChildren(...fresh.querySelector('#inbox-rows').childNodes);
    })()`);
    assert.equal(await currentId(), ids[1]);
    assert.equal(await focusedRowId(), ids[1]);
    assert.equal(await page.locator(`#inbox-rows tr[data-id="${ids[1]}"] input[name="ids"]`).isChecked(), true);
    await page.keyboard.press('x');
    assert.equal(await page.locator('#selected-count').textContent(), '');

    await page.keyboard.press('/');
    assert.equal(await page.evaluate('document.activeElement?.id'), 'inbox-q');
    await page.keyboard.type('benches');
    await page.keyboard.press('Enter');
    await page.waitForURL(/q=benches/);
    assert.equal(await rows().count(), 1);
    assert.match(await rows().first().locator('.from a').innerText(), /Grace Hopper$/);
  });

  it('marks done with e, spam with !, deletes with # and opens with o, each answered by a redirect', async () => {
    await page.goto(`${base}/forms/${formId}/inbox`);
    const ids = await rows().evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')));
    await page.keyboard.press('j');
    await Promise.all([page.waitForURL(/notice=done/), page.keyboard.press('e')]);
    assert.equal(await notice(), '1 submission marked done.');
    assert.equal(await page.locator(`#inbox-rows tr[data-id="${ids[0]}"]`).count(), 0);
    assert.match(await page.locator('#inbox-tabs').innerText(), /Done 1/);
    // Back, forward or refresh repeats nothing: the page is a GET.
    await page.reload();
    assert.equal(await page.locator('#inbox-tabs a', { hasText: 'Done' }).locator('.count').innerText(), '1');

    await page.keyboard.press('j');
    await Promise.all([page.waitForURL(/notice=spam/), page.keyboard.press('!')]);
    assert.equal(await notice(), '1 submission marked as spam.');

    await page.goto(`${base}/forms/${formId}/inbox?tab=done`);
    await page.keyboard.press('j');
    await Promise.all([page.waitForURL(/\/submissions\//), page.keyboard.press('o')]);
    assert.equal(new URL(page.url()).pathname, `/forms/${formId}/submissions/${ids[0]}`);
    await page.locator('#message-subject').waitFor();

    await page.goto(`${base}/forms/${formId}/inbox?tab=done`);
    await page.keyboard.press('j');
    await Promise.all([page.waitForURL(/notice=delete/), page.keyboard.press('#')]);
    assert.equal(await notice(), '1 submission deleted.');
    assert.equal(await rows().count(), 0);
  });

  it('selects rows with checkboxes, and all matching the view, for the bulk bar', async () => {
    await page.goto(`${base}/forms/${formId}/inbox`);
    const before = await rows().count();
    await rows().nth(0).locator('input[name="ids"]').check();
    await rows().nth(1).locator('input[name="ids"]').check();
    assert.equal(await page.locator('#selected-count').textContent(), '2 selected');
    await Promise.all([page.waitForURL(/notice=spam/), page.getByRole('button', { name: 'Spam', exact: true }).click()]);
    assert.equal(await notice(), '2 submissions marked as spam.');
    assert.equal(await rows().count(), before - 2);

    await page.locator('#select-page').check();
    assert.equal(await page.locator('#selected-count').textContent(), `${before - 2} selected`);
    await page.locator('#select-page').uncheck();
    await page.getByLabel(/Select all \d+ in Inbox/).check();
    await Promise.all([page.waitForURL(/notice=done/), page.getByRole('button', { name: 'Mark done' }).click()]);
    assert.equal(await notice(), `${before - 2} submissions marked done.`);
    assert.match(await page.locator('#inbox-rows').innerText(), /All done: nothing waiting here/);

    await page.goto(`${base}/forms/${formId}/inbox?tab=spam`);
    await page.getByLabel(/Select all 3 in Spam/).check();
    await Promise.all([page.waitForURL(/notice=not_spam/), page.getByRole('button', { name: 'Not spam' }).click()]);
    assert.equal(await notice(), '3 submissions marked as not spam.');
    assert.deepEqual(browser.alerts, []);
  });
});
