// Files in exports (issue 34): a form's export has a column per file field with the files' names
// and signed links, and a data subject's export lists the person's files as links; every link,
// followed over real HTTP, gives the uploaded bytes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { unusedUrl } from './fake-provider.ts';
import { bearer, createForm, settled, startPipelineApp, type PipelineApp } from './pipeline-helpers.ts';

const SCHEMA = { fields: [{ name: 'email', type: 'email', required: true }, { name: 'cv', type: 'file', required: true, rules: [{ op: 'accept', value: ['application/pdf'] }] }] };
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

describe('files in exports', () => {
  let t: PipelineApp;
  let base: string;
  let key: string;
  let form: Record<string, unknown> & { id: string; endpoint: string };
  let fileId: string;

  before(async () => {
    base = await unusedUrl();
    t = await startPipelineApp({ INTAKE_PUBLIC_URL: base });
    await t.app.listen({ port: Number(new URL(base).port), host: '127.0.0.1' });
    key = await t.createKey();
    form = await createForm(t, key, { fields_schema: SCHEMA });
    const upload = new FormData();
    upload.append('email', 'ada@example.com');
    upload.append('cv', new Blob([PDF]), '=cv.pdf');
    const posted = await fetch(`${base}${new URL(String(form.html_endpoint)).pathname}`, { method: 'POST', body: upload, headers: { accept: 'application/json' } });
    assert.equal(posted.status, 201, await posted.clone().text());
    const submission = await posted.json() as { id: string; data: { cv: Array<{ id: string }> } };
    fileId = submission.data.cv[0]!.id;
    await settled(t, key, form.id, submission.id);
  });
  after(() => t?.close());

  async function assertDownloads(url: string) {
    assert.ok(url.startsWith(`${base}/files/${fileId}?expires=`), url);
    const response = await fetch(url);
    assert.equal(response.status, 200, url);
    assert.ok(Buffer.from(await response.arrayBuffer()).equals(PDF), 'the link gives the uploaded bytes');
  }

  it('CSV: the file column holds the name and a working link, neutralised like every cell', async () => {
    const response = await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions/export?format=csv&filter=all`, headers: bearer(key) });
    assert.equal(response.statusCode, 200, response.body);
    const [header, row] = response.body.trim().split('\r\n');
    const cv = header!.split(',').indexOf('cv');
    assert.ok(cv > 0, header);
    const cell = row!.split(',')[cv]!;
    // The name starts with "=": the neutraliser puts an apostrophe first.
    assert.match(cell, /^'=cv\.pdf http:\/\/\S+$/);
    await assertDownloads(cell.split(' ')[1]!);
  });

  it('JSON: each file object gains its url and expires_at', async () => {
    const response = await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions/export?format=json&filter=all`, headers: bearer(key) });
    const [row] = response.json() as Array<{ data: { cv: Array<{ id: string; filename: string; url: string; expires_at: string }> } }>;
    assert.equal(row!.data.cv[0]!.id, fileId);
    assert.equal(row!.data.cv[0]!.filename, '=cv.pdf');
    assert.ok(Date.parse(row!.data.cv[0]!.expires_at) > Date.now() + 23 * 3_600_000);
    await assertDownloads(row!.data.cv[0]!.url);
  });

  it("a data subject's export lists the person's files as links", async () => {
    const response = await t.request({ method: 'POST', url: '/api/data-subjects/export', headers: bearer(key), payload: { email: 'ada@example.com' } });
    assert.equal(response.statusCode, 200, response.body);
    const { files, submissions } = response.json() as { files: Array<{ id: string; submission_id: string; field: string; filename: string; url: string }>; submissions: Array<{ submission: { id: string } }> };
    assert.equal(files.length, 1);
    assert.deepEqual({ id: files[0]!.id, submission_id: files[0]!.submission_id, field: files[0]!.field, filename: files[0]!.filename }, { id: fileId, submission_id: submissions[0]!.submission.id, field: 'cv', filename: '=cv.pdf' });
    await assertDownloads(files[0]!.url);
  });
});
