// Real-browser tests drive Debian's chromium through playwright-core: no browser is downloaded.
// When /usr/bin/chromium is absent the browser tests skip with a message (.ci/run installs it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOTS = path.resolve(import.meta.dirname, '..', 'test-results', 'screenshots');

export function chromiumMissing(): string | false {
  return fs.existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed (apt-get install -y chromium); browser tests skipped`;
}

export interface Browser {
  context: BrowserContext;
  /** Dialogs other than confirmations: an alert() means injected script ran. */
  alerts: string[];
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync',
    ],
    viewport: { width: 1280, height: 860 },
  });
  const alerts: string[] = [];
  context.on('page', (page) => watchDialogs(page, alerts));
  for (const page of context.pages()) watchDialogs(page, alerts);
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    context,
    alerts,
    async close() {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

function watchDialogs(page: Page, alerts: string[]): void {
  page.on('dialog', (dialog) => {
    if (dialog.type() !== 'confirm') alerts.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.accept();
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Logs a page in through the log-in form; it lands on the forms list. */
export async function logInPage(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${base}/overview`);
}
