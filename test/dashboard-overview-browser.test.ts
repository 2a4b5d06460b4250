// The overview in a real Chromium, light and dark, at 1280 and 390 px: the charts draw, the range
// switch works by links, a bar names its numbers (its <title>), the data table opens from the
// keyboard, and no page is wider than the window. Screenshots go to test-results/screenshots;
// with UPDATE_DOCS_SCREENSHOTS=1 the overview's are also written to docs/ (dashboard-overview*.png).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissing, launchBrowser, screenshot, SCREENSHOTS, type Browser } from './browser.ts';
import { DashboardClient } from './dashboard-helpers.ts';
import { bearer, createForm, startPipelineApp, type PipelineApp } from './pipeline-helpers.ts';

const EMAIL = 'owner@example.com';
const PASSWORD = 'correct horse battery';
const DAY_MS = 86_400_000;
const DOCS = path.resolve(import.meta.dirname, '..', 'docs');

/** A month of a small business's contact form: weekday peaks, some spam, four languages, replies and notifications. */
async function seedMonth(t: PipelineApp, formId: string, versionId: string, destinationId: string): Promise<number> {
  const languages = ['en', 'en', 'en', 'de', 'de', 'fr', 'es', 'en', 'it', null];
  const submissions: Array<Record<string, unknown>> = [];
  const deliveries: Array<Record<string, unknown>> = [];
  for (let day = 29; day >= 0; day--) {
    const weekday = new Date(Date.now() - day * DAY_MS).getUTCDay();
    const count = (weekday === 0 || weekday === 6 ? 6 : 14) + ((day * 7) % 9);
    for (let i = 0; i < count; i++) {
      const n = submissions.length;
      const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
      // A minute apart, but never before the day's midnight (UTC): just after midnight, the first day's
      // earliest would fall on the day before the chart's 30 and the total would not match.
      const at = Date.now() - day * DAY_MS;
      const createdAt = new Date(at - Math.min(i * 60_000, at % DAY_MS)).toISOString();
      const spam = n % 11 === 0;
      submissions.push({
        id, form_id: formId, version_id: versionId, data: JSON.stringify({ name: `Person ${n}`, email: `p${n}@example.com`, message: 'Hello' }),
        metadata: '{}', processing_status: 'completed' as const, spam_flag: spam, original_language: languages[n % languages.length] ?? null,
        reply_status: spam ? 'pending' as const : (['completed', 'sent', 'sent', 'failed', 'pending'] as const)[n % 5]!, created_at: createdAt,
      });
      if (!spam) {
        deliveries.push({ id: `d-${id}`, destination_id: destinationId, submission_id: id, event_id: `e-${id}`, payload: '{}',
          status: n % 17 === 0 ? 'failed' as const : 'succeeded' as const, attempts: 1, created_at: createdAt });
      }
    }
  }
  const { db } = t.database;
  for (let i = 0; i < submissions.length; i += 100) await db.insertInto('submissions').values(submissions.slice(i, i + 100) as never).execute();
  for (let i = 0; i < deliveries.length; i += 100) await db.insertInto('deliveries').values(deliveries.slice(i, i + 100) as never).execute();
  return submissions.length;
}

describe('dashboard overview in Chromium', { skip: chromiumMissing() }, () => {
  let t: PipelineApp;
  let browser: Browser;
  let page: Page;
  let base: string;
  let total = 0;

  before(async () => {
    t = await startPipelineApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const owner = new DashboardClient(t);
    await owner.setUp(EMAIL, PASSWORD);
    const key = (await t.services.accounts.createKey({ email: EMAIL, name: 'seed' })).key;
    const form = await createForm(t, key, { name: 'Contact', localisation_enabled: true });
    const destination = await t.request({ method: 'POST', url: `/api/forms/${form.id}/destinations`, headers: bearer(key), payload: { type: 'webhook', url: 'https://example.com/hook', name: 'CRM' } });
    assert.equal(destination.statusCode, 201, destination.body);
    const stored = await t.database.db.selectFrom('forms').select('current_version_id').where('id', '=', form.id).executeTakeFirstOrThrow();
    total = await seedMonth(t, form.id, stored.current_version_id, destination.json().id);
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await page.goto(`${base}/login`);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${base}/overview`);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const noSidewaysScroll = async () => {
    const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
    assert.ok(overflow <= 0, `the page is ${overflow} px wider than the window`);
  };

  for (const scheme of ['light', 'dark'] as const) {
    it(`draws the account's month in ${scheme} mode, with numbers on hover and a data table`, async () => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: 1280, height: 860 });
      await page.goto(`${base}/overview`);
      const chart = page.getByRole('img', { name: new RegExp(`^Submissions per day: ${total} in 30 days`) });
      await chart.waitFor();
      assert.equal(await page.locator('figure.chart').count(), 4);
      const bars = page.locator('figure.chart').first().locator('svg g');
      assert.equal(await bars.count(), 30);
      assert.match(await bars.last().locator('title').textContent() ?? '', /^\d+ \w+: \d+ not spam, \d+ spam$/);
      // The bars take the theme's colours: the accent of the stylesheet, not a fixed fill.
      const fill = String(await page.evaluate("getComputedStyle(document.querySelector('rect.chart-a')).fill"));
      const accent = String(await page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--accent').trim()"));
      const hex = (rgb: string) => `#${(rgb.match(/\d+/g) ?? []).slice(0, 3).map((v) => Number(v).toString(16).padStart(2, '0')).join('')}`;
      assert.equal(hex(fill), accent.toLowerCase());
      await page.locator('rect.chart-hit').nth(20).hover();
      await screenshot(page, `overview-${scheme}`);
      if (process.env.UPDATE_DOCS_SCREENSHOTS === '1') {
        fs.copyFileSync(path.join(SCREENSHOTS, `overview-${scheme}.png`), path.join(DOCS, scheme === 'light' ? 'dashboard-overview.png' : 'dashboard-overview-dark.png'));
      }

      // The data table, from the keyboard.
      const summary = page.locator('figure.chart').first().locator('summary');
      await summary.focus();
      await page.keyboard.press('Enter');
      const table = page.getByRole('table', { name: 'Submissions per day, per day' });
      await table.waitFor();
      assert.equal(await table.locator('tbody tr').count(), 30);
      await noSidewaysScroll();
    });
  }

  it('switches the range by links and fits a 390 px phone', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/overview`);
    await page.getByRole('link', { name: '7 days' }).click();
    await page.waitForURL(`${base}/overview?range=7`);
    assert.equal(await page.getByRole('link', { name: '7 days' }).getAttribute('aria-current'), 'page');
    assert.equal(await page.locator('figure.chart').first().locator('svg g').count(), 7);
    await noSidewaysScroll();
    await screenshot(page, 'overview-390');
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.waitForURL(`${base}/audit`);
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await noSidewaysScroll();
  });
});
