// Accessibility of every dashboard page in Chromium with axe-core (from .ci/audit, test/audit-tools.ts;
// without it this test skips, saying so), injected into the page: nothing is downloaded. At 1280 and
// 390 px wide, in light and dark, logged out (log in, set-up) and in; no violation of serious or
// critical impact, and no page wider than the window at 390 px.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { auditMissing, auditResolve } from './audit-tools.ts';
import { chromiumMissing, launchBrowser, logInPage, type Browser } from './browser.ts';
import { createForm, ENGINE, pathOf, startTestApp, type TestApp } from './helpers.ts';

const AXE_FILE = auditResolve('axe-core/axe.min.js');
const EMAIL = 'axe@example.com';
const PASSWORD = 'correct horse battery';

interface Violation { id: string; impact: string | null; nodes: Array<{ target: string[] }> }

/** What axe finds on the page (axe is in it already: the page's init script, see below). */
async function problems(page: Page, width: number): Promise<string[]> {
  const violations = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations)')) as Violation[];
  const found = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}) at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  if (width < 500) {
    const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
    if (overflow > 0) found.push(`the page is ${overflow} px wider than the window`);
  }
  return found;
}

describe(`dashboard accessibility in Chromium (${ENGINE})`, { skip: chromiumMissing() || auditMissing('axe-core') }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  const pages: string[] = [];

  before(async () => {
    t = await startTestApp();
    const key = await t.createKey(EMAIL);
    await t.services.dashboard.setPasswordOf(EMAIL, PASSWORD);
    const form = await createForm(t, key);
    const submitted = await t.request({ method: 'POST', url: pathOf(form.endpoint), payload: { name: 'Ada', email: 'ada@example.com', message: 'Hello' } });
    const destination = await t.request({ method: 'POST', url: `/api/forms/${form.id}/destinations`, headers: { authorization: `Bearer ${key}` }, payload: { type: 'webhook', url: 'https://example.com/hook' } });
    const kb = await t.request({ method: 'POST', url: '/api/knowledge_bases', headers: { authorization: `Bearer ${key}` }, payload: { name: 'FAQ', content: 'Q: Hours?\nA: Nine to five.' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    pages.push(
      '/forms', '/forms/new', `/forms/${form.id}`, `/forms/${form.id}/inbox`, `/forms/${form.id}/edit`, `/forms/${form.id}/delete`,
      `/forms/${form.id}/submissions/${submitted.json().id}`, `/forms/${form.id}/notifications`,
      `/forms/${form.id}/notifications/${destination.json().id}`, '/knowledge', '/knowledge/new', `/knowledge/${kb.json().id}`,
      '/overview', '/overview?range=90', '/audit', `/forms/${form.id}/inbox?tab=all`,
      '/integrations', '/account', '/account/data-requests', '/health',
    );
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`has no serious or critical violation, ${scheme}, at 1280 and 390 px, logged out and in`, async () => {
      const page = await browser.context.newPage();
      // Axe goes into every document the page loads, handed to the browser once: evaluating its half
      // megabyte on each of the 44 pages took longer than running it (on the shared, loaded 2-core host,
      // about 0.4 s a page against 0.38 s); it finds the same violations, moderate ones included.
      await page.addInitScript({ path: AXE_FILE! });
      await page.emulateMedia({ colorScheme: scheme });
      const found: string[] = [];
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 800 });
        await page.context().clearCookies();
        for (const path of ['/login', '/signup']) {
          await page.goto(`${base}${path}`);
          for (const problem of await problems(page, width)) found.push(`${path} at ${width}px: ${problem}`);
        }
        await logInPage(page, base, EMAIL, PASSWORD);
        for (const path of pages) {
          await page.goto(`${base}${path}`);
          for (const problem of await problems(page, width)) found.push(`${path} at ${width}px: ${problem}`);
        }
      }
      await page.close();
      assert.deepEqual(found, []);
    });
  }
});
