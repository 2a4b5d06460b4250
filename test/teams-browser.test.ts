// Teams in a real Chromium (issue 39): the owner invites a viewer from the Team page, the viewer
// accepts in a second browser (its own cookies), choosing a password on the invitation page, reads
// the inbox and a submission, and cannot delete: no delete control is drawn, and a POST of the
// delete form made from the viewer's own page, with the viewer's CSRF token, is refused with 403.
// Then the owner deletes the workspace from the Team page's panel (the viewer has none), typing its name.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createForm, settled, startPipelineApp, submit, type PipelineApp } from './pipeline-helpers.ts';
import { chromiumMissing, launchBrowser, screenshot, type Browser } from './browser.ts';

const OWNER = 'owner@example.com';
const VIEWER = 'viewer@example.com';
const PASSWORD = 'correct horse battery';

describe('teams in Chromium', { skip: chromiumMissing() }, () => {
  let t: PipelineApp;
  let ownerBrowser: Browser;
  let viewerBrowser: Browser;
  let owner: Page;
  let viewer: Page;
  let base: string;
  let formId = '';
  let submissionId = '';

  before(async () => {
    t = await startPipelineApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    ownerBrowser = await launchBrowser();
    viewerBrowser = await launchBrowser();
    owner = await ownerBrowser.context.newPage();
    viewer = await viewerBrowser.context.newPage();

    const issued = await t.services.setup.newToken();
    await owner.goto(`${base}/setup?token=${issued?.token}`);
    await owner.getByLabel('Email').fill(OWNER);
    await owner.getByLabel('New password').fill(PASSWORD);
    await owner.getByRole('button', { name: 'Create account' }).click();
    await owner.waitForURL(`${base}/overview`);

    const key = await t.createKey(OWNER);
    const form = await createForm(t, key, {
      name: 'Enquiries',
      fields_schema: { fields: [{ name: 'email', type: 'email', required: true }, { name: 'message', type: 'string', required: true }] },
    });
    formId = form.id;
    submissionId = await submit(t, form.endpoint, { email: 'ada@example.com', message: 'Quote for 40 garden chairs, please.' });
    await settled(t, key, formId, submissionId);
  });
  after(async () => {
    await viewerBrowser?.close();
    await ownerBrowser?.close();
    await t?.close();
  });

  it('the owner invites a viewer from the Team page and the viewer joins in another browser', async () => {
    await owner.goto(`${base}/team`);
    await owner.getByLabel('Email', { exact: true }).fill(VIEWER);
    await owner.getByLabel('Role', { exact: true }).selectOption('viewer');
    await owner.getByRole('button', { name: 'Invite' }).click();
    const inviteUrl = (await owner.locator('#invite-url').textContent())!.trim();
    assert.match(inviteUrl, /\/invite\?token=/);
    await screenshot(owner, 'teams-invited');

    // The link is built on the configured public URL; the test server listens on its own port.
    const link = new URL(inviteUrl);
    await viewer.goto(`${base}${link.pathname}${link.search}`);
    assert.match((await viewer.locator('.lead').textContent())!, /viewer@example\.com.*as viewer/s);
    await viewer.getByLabel('New password').fill(PASSWORD);
    await viewer.getByRole('button', { name: 'Join' }).click();
    await viewer.waitForLoadState();
    assert.ok(!viewer.url().includes('/invite'), `still on ${viewer.url()}`);

    // The owner's Team page now lists the viewer as an active member.
    await owner.goto(`${base}/team`);
    const row = owner.locator('tr', { hasText: VIEWER });
    assert.match((await row.textContent())!, /active/);
  });

  it('the viewer reads the inbox and the submission but has no delete control', async () => {
    await viewer.goto(`${base}/forms/${formId}/inbox`);
    await viewer.locator(`#inbox-rows tr[data-id="${submissionId}"]`).waitFor();
    assert.equal(await viewer.locator('#bulk-form').count(), 0);
    assert.equal(await viewer.getByRole('button', { name: /delete/i }).count(), 0);
    await screenshot(viewer, 'teams-viewer-inbox');

    await viewer.goto(`${base}/forms/${formId}/submissions/${submissionId}`);
    assert.match((await viewer.locator('main').textContent())!, /garden chairs/);
    assert.equal(await viewer.getByRole('button', { name: /delete/i }).count(), 0);
  });

  it('a POST of the delete form from the viewer is refused with 403 and the submission stays', async () => {
    const csrf = await viewer.locator('input[name="_csrf"]').first().inputValue();
    const status = await viewer.evaluate(async ({ formId, submissionId, csrf }) => {
      const body = new URLSearchParams({ _csrf: csrf, confirm: 'true' });
      const response = await fetch(`/forms/${formId}/submissions/${submissionId}/delete`, { method: 'POST', body, redirect: 'manual' });
      return response.status;
    }, { formId, submissionId, csrf });
    assert.equal(status, 403);

    // Still there for the owner, who does have the button.
    await owner.goto(`${base}/forms/${formId}/submissions/${submissionId}`);
    assert.equal(await owner.getByRole('button', { name: 'Delete submission' }).count(), 1);
  });

  it('only the owner sees the delete panel; a wrong name deletes nothing, the right one deletes and ends the session', async () => {
    await viewer.goto(`${base}/team`);
    assert.equal(await viewer.getByRole('button', { name: 'Delete this workspace' }).count(), 0);

    await owner.goto(`${base}/team`);
    const confirm = owner.getByLabel(/Type the workspace's name/);
    await confirm.fill('someone@example.com');
    await owner.getByRole('button', { name: 'Delete this workspace' }).click();
    await owner.waitForLoadState();
    assert.match((await owner.getByRole('alert').textContent())!, /Nothing was deleted/);
    const forms = () => t.database.db.selectFrom('forms').select('id').where('id', '=', formId).execute();
    assert.equal((await forms()).length, 1);

    await owner.getByLabel(/Type the workspace's name/).fill(OWNER);
    await owner.getByRole('button', { name: 'Delete this workspace' }).click();
    await owner.getByRole('heading', { name: 'Workspace deleted' }).waitFor();
    assert.match((await owner.locator('main, body').first().textContent())!, /1 forms, 1 submissions/);
    await screenshot(owner, 'teams-workspace-deleted');
    assert.deepEqual(await forms(), []);
    // Neither the owner nor the viewer has a workspace left: both are sent to log in.
    for (const page of [owner, viewer]) {
      await page.goto(`${base}/overview`);
      assert.match(new URL(page.url()).pathname, /^\/login/);
    }
  });
});
