// The live inbox in Chromium. On PostgreSQL: two API processes on one database; the inbox open on
// process A shows, without a reload and within 2 s, a submission that process B accepted (the
// event crosses by LISTEN/NOTIFY), with the focused row still focused and the scroll position
// kept, announced as "1 new submission" in a polite status rather than by re-reading the table.
// On SQLite: the same in one process (the embedded default). And a page whose stream is refused
// falls back to polling.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { ChildProcess } from 'node:child_process';
import { chromiumMissing, launchBrowser, logInPage, type Browser } from './browser.ts';
import { createForm, ENGINE, RELAXED_ENV, startTestApp, type TestApp } from './helpers.ts';
import { startServer, stop } from './processes.ts';
import { MAX_STREAMS_PER_SESSION } from '../src/dashboard/pages/live.ts';

const EMAIL = 'live-owner@example.com';
const PASSWORD = 'correct horse battery';

describe(`live inbox in Chromium (${ENGINE === 'postgres' ? 'two API processes on PostgreSQL' : 'one process on SQLite'})`, { skip: chromiumMissing() }, () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  const children: ChildProcess[] = [];
  /** Where the page is open, and where submissions are sent. */
  let pageBase = '';
  let submitBase = '';
  let form: Awaited<ReturnType<typeof createForm>>;

  before(async () => {
    t = await startTestApp({ INTAKE_EMBEDDED_WORKER: 'false' });
    const key = await t.createKey(EMAIL);
    await t.services.dashboard.setPasswordOf(EMAIL, PASSWORD);
    form = await createForm(t, key);
    if (ENGINE === 'postgres') {
      const env = {
        ...RELAXED_ENV, DATABASE_URL: t.config.databaseUrl as string, INTAKE_PG_JOBS_SCHEMA: t.config.pipeline.jobsSchema,
        INTAKE_EMBEDDED_WORKER: 'false', INTAKE_DATA_DIR: t.config.dataDir,
      };
      const [a, b] = await Promise.all([startServer(env), startServer(env)]);
      children.push(a.child, b.child);
      pageBase = a.base;
      submitBase = b.base;
    } else {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      pageBase = submitBase = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    }
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await logInPage(page, pageBase, EMAIL, PASSWORD);
  });
  after(async () => {
    await browser?.close();
    await Promise.all(children.map((child) => stop(child)));
    await t?.close();
  });

  const submit = async (message: string) => {
    const response = await fetch(`${submitBase}${new URL(form.endpoint).pathname}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Ada', email: 'ada@example.com', message }),
    });
    assert.equal(response.status, 201);
    return ((await response.json()) as { id: string }).id;
  };

  it('shows a submission accepted elsewhere within 2 s, keeping focus and scroll, and announces it politely', async () => {
    const first = await submit('The first message');
    await page.setViewportSize({ width: 1280, height: 400 });
    await page.goto(`${pageBase}/forms/${form.id}/inbox`);
    await page.locator('[data-live-mode="stream"]').waitFor({ timeout: 5_000 });
    await page.evaluate('window.marker = true');
    const rows = page.locator('#inbox-rows [data-id]');
    assert.equal(await rows.count(), 1);
    assert.equal(await page.locator('#inbox-rows').getAttribute('aria-live'), null, 'the table itself is not a live region');
    await page.locator(`[data-id="${first}"] a`).first().focus();

    const sent = Date.now();
    const second = await submit('A second message');
    await page.locator(`[data-id="${second}"]`).waitFor({ timeout: 2_000 });
    const tookMs = Date.now() - sent;
    assert.equal(await rows.count(), 2);
    assert.equal(await page.evaluate('window.marker'), true, 'no reload');
    assert.equal(await page.evaluate("document.activeElement?.closest('[data-id]')?.getAttribute('data-id')"), first, 'the focused row keeps focus');
    assert.equal(await page.locator('#live-status').textContent(), '1 new submission');
    assert.equal(await page.locator('#live-status').getAttribute('role'), 'status');
    console.log(`# new row shown ${tookMs} ms after the submit answered`);
  });

  it('keeps the bulk bar\'s "Select all" count in step with the tab\'s count', async () => {
    await page.goto(`${pageBase}/forms/${form.id}/inbox`);
    await page.locator('[data-live-mode="stream"]').waitFor({ timeout: 5_000 });
    const tabCount = async () => Number(await page.locator('#inbox-tabs a[aria-current="page"] .count').textContent());
    const before = await tabCount();
    assert.equal(await page.locator('label[for="all-matching"]').textContent(), `Select all ${before} in Inbox`);
    const added = await submit('One more for the count');
    await page.locator(`[data-id="${added}"]`).waitFor({ timeout: 2_000 });
    assert.equal(await tabCount(), before + 1);
    assert.equal(await page.locator('label[for="all-matching"]').textContent(), `Select all ${before + 1} in Inbox`);
  });

  it('keeps the scroll position when rows arrive above', async () => {
    for (let i = 0; i < 8; i++) await submit(`Filler ${i}`);
    await page.goto(`${pageBase}/forms/${form.id}/inbox`);
    await page.locator('[data-live-mode="stream"]').waitFor({ timeout: 5_000 });
    const last = page.locator('#inbox-rows [data-id]').last();
    await last.locator('a').first().focus();
    const before = await last.evaluate((row) => row.getBoundingClientRect().top);
    const id = await last.getAttribute('data-id');
    const added = await submit('Arrives above');
    await page.locator(`[data-id="${added}"]`).waitFor({ timeout: 2_000 });
    const row = page.locator(`[data-id="${id}"]`);
    const afterTop = await row.evaluate((r) => r.getBoundingClientRect().top);
    assert.ok(Math.abs(afterTop - before) <= 2, `the focused row stays in place (${before} → ${afterTop})`);
  });

  it('keeps the forms list\'s counts current', async () => {
    await page.goto(`${pageBase}/forms`);
    await page.locator('[data-live-mode="stream"]').waitFor({ state: 'attached', timeout: 5_000 });
    const count = page.locator(`[data-id="${form.id}"] td.num`).first();
    const before = Number(await count.textContent());
    await submit('Counted on the list');
    await page.locator(`[data-id="${form.id}"] td.num`).first().filter({ hasText: new RegExp(`^${before + 1}$`) }).waitFor({ timeout: 2_000 });
  });

  it('falls back to polling when the stream is refused', async () => {
    // Every stream this session may hold is taken by other tabs: the next page polls instead.
    await page.goto('about:blank');
    const tabs: Page[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_SESSION; i++) {
      const tab = await browser.context.newPage();
      await tab.goto(`${pageBase}/forms/${form.id}/inbox`);
      await tab.locator('[data-live-mode="stream"]').waitFor({ state: 'attached', timeout: 5_000 });
      tabs.push(tab);
    }
    await page.goto(`${pageBase}/forms/${form.id}/inbox`);
    await page.locator('[data-live-mode="polling"]').waitFor({ state: 'attached', timeout: 10_000 });
    const id = await submit('Seen by polling');
    await page.locator(`[data-id="${id}"]`).waitFor({ timeout: 6_000 });
    await Promise.all(tabs.map((tab) => tab.close()));
  });
});
