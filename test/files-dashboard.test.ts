// Files in the dashboard (issue 34): the submission page lists a submission's files with size and
// type and a download that works with the owner's session only, with the attachment headers; the
// inbox marks rows with files with a paperclip.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DashboardClient } from './dashboard-helpers.ts';
import { createForm, pathOf, startTestApp, type TestApp } from './helpers.ts';

const SCHEMA = { fields: [{ name: 'name', type: 'string', required: true }, { name: 'cv', type: 'file', rules: [{ op: 'accept', value: ['application/pdf'] }] }] };
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

describe('files in the dashboard', () => {
  let t: TestApp;
  let owner: DashboardClient;
  let formId: string;
  let withFile: { id: string; data: { cv: Array<{ id: string }> } };
  let withoutFile: string;

  before(async () => {
    t = await startTestApp();
    owner = new DashboardClient(t);
    await owner.setUp('owner@example.com');
    const key = await t.createKey('owner@example.com');
    const form = await createForm(t, key, { fields_schema: SCHEMA });
    formId = form.id;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const post = async (file: boolean) => {
      const body = new FormData();
      body.append('name', file ? 'Ada' : 'Grace');
      if (file) body.append('cv', new Blob([PDF]), 'Lebenslauf.pdf');
      const response = await fetch(`${base}${pathOf(String(form.html_endpoint))}`, { method: 'POST', body, headers: { accept: 'application/json' } });
      assert.equal(response.status, 201);
      return response.json() as Promise<{ id: string; data: { cv: Array<{ id: string }> } }>;
    };
    withFile = await post(true);
    withoutFile = (await post(false)).id;
  });
  after(() => t?.close());

  const download = () => `/forms/${formId}/submissions/${withFile.id}/files/${withFile.data.cv[0]!.id}`;

  it('lists the files with size, type and a download that only the owner\'s session can use', async () => {
    const page = await owner.get(`/forms/${formId}/submissions/${withFile.id}`);
    assert.equal(page.statusCode, 200);
    const files = /<ul class="plain" id="submission-files">([\s\S]*?)<\/ul>/.exec(page.body)?.[1] ?? '';
    assert.match(files, /Lebenslauf\.pdf \(\d+ B\)/);
    assert.match(files, /application\/pdf/);
    assert.ok(files.includes(`href="${download()}"`), files);

    const got = await owner.get(download());
    assert.equal(got.statusCode, 200);
    assert.equal(createHash('sha256').update(got.rawPayload).digest('hex'), createHash('sha256').update(PDF).digest('hex'));
    assert.match(String(got.headers['content-disposition']), /^attachment; filename="Lebenslauf\.pdf"/);
    assert.equal(got.headers['x-content-type-options'], 'nosniff');
    assert.equal(got.headers['content-security-policy'], "sandbox; default-src 'none'");

    const none = await owner.get(`/forms/${formId}/submissions/${withoutFile}`);
    assert.ok(!none.body.includes('id="submission-files"'), 'no file list without files');

    // Refused without a session, to another owner, and on another submission.
    const anonymous = await new DashboardClient(t).get(download());
    assert.notEqual(anonymous.statusCode, 200);
    assert.ok(!anonymous.rawPayload.includes(PDF), 'no bytes without a session');

    const stranger = new DashboardClient(t);
    const link = await t.services.dashboard.passwordLink('stranger@example.com', true);
    await stranger.get(`/set-password?token=${link.token}`);
    await stranger.post('/set-password', { token: link.token, password: 'stranger password 1' });
    assert.equal((await stranger.get(download())).statusCode, 404, "another owner's file");
    assert.equal((await owner.get(`/forms/${formId}/submissions/${withoutFile}/files/${withFile.data.cv[0]!.id}`)).statusCode, 404, 'a file of another submission');
  });

  it('marks inbox rows with files with a paperclip', async () => {
    const inbox = await owner.get(`/forms/${formId}/inbox`);
    const rowOf = (id: string) => new RegExp(`<tr[^>]*data-id="${id}"[\\s\\S]*?</tr>`).exec(inbox.body)?.[0] ?? '';
    assert.match(rowOf(withFile.id), /aria-label="Has files"/);
    assert.doesNotMatch(rowOf(withoutFile), /Has files/);
  });
});
