// File uploads (issue 34) through real HTTP on a real port: the `file` field, storage on disk, the
// download routes and signed links, and deletion reaching the stored bytes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bearer, createForm, pathOf, startTestApp, type TestApp } from './helpers.ts';

const FILE_SCHEMA = {
  fields: [
    { name: 'name', type: 'string', required: true },
    { name: 'cv', type: 'file', required: true, rules: [{ op: 'accept', value: ['application/pdf', 'image/png', 'text/plain'] }, { op: 'max_file_size', value: 64 * 1024 }] },
    { name: 'photos', type: 'file', rules: [{ op: 'max_files', value: 2 }, { op: 'accept', value: ['image/*'] }] },
  ],
};

describe('file fields', () => {
  let t: TestApp;
  let key: string;
  let base: string;

  before(async () => {
    t = await startTestApp();
    key = await t.createKey();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });
  after(() => t.close());

  const at = (endpoint: string) => `${base}${pathOf(endpoint)}`;
  const fileForm = () => createForm(t, key, { fields_schema: FILE_SCHEMA });

  it('discovery describes the file fields and how to send them', async () => {
    const form = await fileForm();
    const doc = await (await fetch(at(form.endpoint), { headers: { accept: 'application/json' } })).json() as { files: Record<string, unknown> };
    assert.equal(doc.files.content_type, 'multipart/form-data');
    assert.equal(doc.files.accept, 'application/json');
    assert.equal(pathOf(String(doc.files.endpoint)), pathOf(String(form.html_endpoint)));
    assert.equal(doc.files.max_upload_bytes, 25 * 1024 * 1024);
    assert.deepEqual(doc.files.fields, [
      { name: 'cv', max_files: 1, max_file_size: 65536, accept: ['application/pdf', 'image/png', 'text/plain'] },
      { name: 'photos', max_files: 2, max_file_size: 10 * 1024 * 1024, accept: ['image/*'] },
    ]);
    const page = await (await fetch(at(form.endpoint), { headers: { accept: 'text/html' } })).text();
    assert.match(page, /<h2>Files<\/h2>/);
    assert.match(page, /-F &#39;cv=@document.pdf&#39;/);
  });

  it('refuses a file field in a JSON body: a client cannot name a stored file', async () => {
    const form = await fileForm();
    const forged = [{ id: '00000000-0000-0000-0000-000000000000', filename: 'x.pdf', content_type: 'application/pdf', size: 1, sha256: 'a'.repeat(64) }];
    const response = await fetch(at(form.endpoint), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Ada', cv: forged }) });
    assert.equal(response.status, 400);
    const body = await response.json() as { error: { code: string; details: Record<string, string[]> } };
    assert.equal(body.error.code, 'validation_error');
    assert.match(body.error.details.cv![0]!, /multipart\/form-data/);
    const missing = await fetch(at(form.endpoint), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Ada' }) });
    assert.deepEqual((await missing.json() as { error: { details: unknown } }).error.details, { cv: ['is required'] });
    const listed = await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions?filter=all`, headers: bearer(key) });
    assert.equal(listed.json().data.length, 0);
  });
});
