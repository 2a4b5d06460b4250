// File uploads (issue 34) through real HTTP on a real port: the `file` field, storage on disk, the
// download routes and signed links, and deletion reaching the stored bytes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bearer, createForm, pathOf, startTestApp, type TestApp } from './helpers.ts';

const FILE_SCHEMA = {
  fields: [
    { name: 'name', type: 'string', required: true },
    { name: 'cv', type: 'file', required: true, rules: [{ op: 'accept', value: ['application/pdf', 'image/png', 'text/plain'] }, { op: 'max_file_size', value: 64 * 1024 }] },
    { name: 'photos', type: 'file', rules: [{ op: 'max_files', value: 2 }, { op: 'accept', value: ['image/*'] }] },
  ],
};

const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'), Buffer.from('1f15c4890000000d49444154789c63f8cfc0f01f0005000201a5f6a1c00000000049454e44ae426082', 'hex'),
]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

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
  const storedFiles = () => fs.readdirSync(path.join(t.config.dataDir, 'files')).sort();
  /** Posts multipart to the HTML endpoint asking for JSON; files as [field, bytes, name]. */
  function postFiles(form: Record<string, unknown>, fields: Record<string, string>, files: Array<[string, Buffer, string]>, headers: Record<string, string> = {}) {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    for (const [name, bytes, filename] of files) body.append(name, new Blob([bytes]), filename);
    return fetch(at(String(form.html_endpoint)), { method: 'POST', body, headers: { accept: 'application/json', ...headers } });
  }
  async function submissionsOf(formId: string) {
    const response = await t.request({ method: 'GET', url: `/api/forms/${formId}/submissions?filter=all`, headers: bearer(key) });
    return response.json().data as Array<{ id: string; data: Record<string, unknown> }>;
  }

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

  it('stores a posted file: 201 with its file object, the bytes on disk 0600 under a 0700 directory', async () => {
    const form = await fileForm();
    const before = storedFiles();
    const response = await postFiles(form, { name: 'Ada' }, [['cv', PDF, '../../etc/My CV\u202e.pdf'], ['photos', PNG, 'a.png'], ['photos', PNG, 'b.png']]);
    assert.equal(response.status, 201, await response.clone().text());
    const body = await response.json() as { id: string; data: { cv: Array<Record<string, unknown>>; photos: unknown[] } };
    const [cv] = body.data.cv;
    assert.deepEqual({ ...cv, id: undefined }, { id: undefined, filename: 'My CV.pdf', content_type: 'application/pdf', size: PDF.length, sha256: sha256(PDF) });
    assert.equal(body.data.photos.length, 2);
    const added = storedFiles().filter((name) => !before.includes(name));
    assert.equal(added.length, 3);
    const file = path.join(t.config.dataDir, 'files', String(cv!.id));
    assert.equal(sha256(fs.readFileSync(file)), sha256(PDF));
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.dirname(file)).mode & 0o777, 0o700);
    const [stored] = await submissionsOf(form.id);
    assert.deepEqual(stored!.data.cv, body.data.cv);
  });

  it('refuses what breaks the rules, naming the field, and keeps no bytes of it', async () => {
    const form = await fileForm();
    const before = storedFiles();
    const html = Buffer.from('<!doctype html><html><script>alert(document.cookie)</script></html>');
    const cases: Array<[Array<[string, Buffer, string]>, number, string]> = [
      [[['cv', html, 'photo.png']], 415, 'cv'],
      [[['cv', PDF, 'cv.pdf'], ['photos', PDF, 'not-an-image.png']], 415, 'photos'],
      [[['cv', Buffer.alloc(64 * 1024 + 1, 'a'), 'big.txt']], 413, 'cv'],
      [[['cv', PDF, 'cv.pdf'], ['photos', PNG, '1.png'], ['photos', PNG, '2.png'], ['photos', PNG, '3.png']], 400, 'photos'],
      [[['cv', Buffer.alloc(0), '']], 400, 'cv'],
    ];
    for (const [files, status, field] of cases) {
      const response = await postFiles(form, { name: 'Ada' }, files);
      assert.equal(response.status, status, `${files.map((f) => f[2]).join(', ')}: ${await response.clone().text()}`);
      const error = (await response.json() as { error: { details?: Record<string, string[]> } }).error;
      assert.ok(error.details?.[field], `names ${field}: ${JSON.stringify(error)}`);
    }
    assert.deepEqual(storedFiles(), before, 'every byte of the refused posts removed');
    assert.equal((await submissionsOf(form.id)).length, 0);
  });

  it('keeps no bytes of honeypot spam, and takes a form without file fields as before', async () => {
    const form = await fileForm();
    const before = storedFiles();
    const response = await postFiles(form, { name: 'Bot', _gotcha: 'filled' }, [['cv', PDF, 'cv.pdf']]);
    assert.equal(response.status, 201);
    assert.deepEqual(storedFiles(), before);
    const [stored] = await submissionsOf(form.id);
    assert.deepEqual(stored!.data, { name: 'Bot' });
    const plain = await createForm(t, key);
    const refused = await postFiles(plain, { name: 'Ada', email: 'ada@example.com' }, [['attachment', PDF, 'cv.pdf']]);
    assert.equal(refused.status, 413, 'no file parts at all without a file field: cut off at the first byte');
  });

  it('cuts an upload off at its limit: 413 while the client is still sending, the rest never read', async () => {
    const form = await fileForm();
    const before = storedFiles();
    const url = new URL(at(String(form.html_endpoint)));
    const socket = net.connect(Number(url.port), url.hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    let answer = '';
    socket.on('data', (chunk) => { answer += chunk.toString('latin1'); });
    socket.on('error', () => undefined);
    const chunk = (bytes: Buffer | string) => `${Buffer.byteLength(bytes).toString(16)}\r\n${bytes}\r\n`;
    socket.write(`POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: application/json\r\nTransfer-Encoding: chunked\r\n`
      + 'Content-Type: multipart/form-data; boundary=XyZ\r\n\r\n'
      + chunk('--XyZ\r\nContent-Disposition: form-data; name="cv"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n'));
    const total = 50 * 1024 * 1024;
    const piece = chunk(Buffer.alloc(64 * 1024, 'a').toString());
    let sent = 0;
    while (sent < total && !answer.includes('\r\n\r\n') && !socket.destroyed) {
      if (!socket.write(piece)) await new Promise((resolve) => { socket.once('drain', resolve); socket.once('close', resolve); });
      sent += 64 * 1024;
    }
    await new Promise((resolve) => (socket.destroyed ? resolve(null) : socket.once('close', resolve)));
    assert.match(answer, /^HTTP\/1\.1 413 /);
    assert.match(answer, /connection: close/i);
    assert.match(answer, /"cv"/);
    assert.ok(sent < total / 2, `stopped long before the end (${sent} of ${total} bytes sent)`);
    assert.deepEqual(storedFiles(), before);
  });

  it('deleting a submission or its form deletes the bytes (a job written with the removal), and the sweeper removes old orphans', async () => {
    const form = await fileForm();
    const first = await (await postFiles(form, { name: 'Ada' }, [['cv', PDF, 'cv.pdf']])).json() as { id: string; data: { cv: Array<{ id: string }> } };
    const second = await (await postFiles(form, { name: 'Grace' }, [['cv', PNG, 'cv.png'], ['photos', PNG, 'p.png']])).json() as { id: string; data: { cv: Array<{ id: string }>; photos: Array<{ id: string }> } };
    const ids = [first.data.cv[0]!.id, second.data.cv[0]!.id, second.data.photos[0]!.id];
    assert.ok(ids.every((id) => storedFiles().includes(id)));

    const deleted = await t.request({ method: 'DELETE', url: `/api/forms/${form.id}/submissions/${first.id}`, headers: bearer(key) });
    assert.equal(deleted.statusCode, 200);
    assert.ok(await t.services.files.processDeletions() >= 1);
    assert.ok(!storedFiles().includes(ids[0]!), 'the deleted submission\'s bytes are gone');
    assert.ok(storedFiles().includes(ids[1]!), 'the other submission keeps its bytes');

    assert.equal((await t.request({ method: 'DELETE', url: `/api/forms/${form.id}`, headers: bearer(key) })).statusCode, 200);
    await t.services.files.processDeletions();
    assert.ok(!ids.some((id) => storedFiles().includes(id)), 'the form\'s submissions\' bytes are gone');

    const dir = path.join(t.config.dataDir, 'files');
    const orphan = '00000000-0000-4000-8000-000000000001';
    const young = '00000000-0000-4000-8000-000000000002';
    fs.writeFileSync(path.join(dir, orphan), 'left by a crash');
    fs.writeFileSync(path.join(dir, `${young}.part`), 'still arriving');
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    fs.utimesSync(path.join(dir, orphan), twoHoursAgo, twoHoursAgo);
    const kept = await (await postFiles(await fileForm(), { name: 'Ada' }, [['cv', PDF, 'cv.pdf']])).json() as { data: { cv: Array<{ id: string }> } };
    fs.utimesSync(path.join(dir, kept.data.cv[0]!.id), twoHoursAgo, twoHoursAgo);
    await t.services.files.sweepOrphans();
    assert.ok(!storedFiles().includes(orphan), 'an old file without a row is removed');
    assert.ok(storedFiles().includes(`${young}.part`), 'a recent write is left alone');
    assert.ok(storedFiles().includes(kept.data.cv[0]!.id), 'an old file with its row stays');
  });

  it('downloads: the same bytes as an attachment that cannot run, for the owner only; signed links expire and break when altered', async () => {
    const form = await fileForm();
    const text = Buffer.from('Name,Role\nAda,Engineer\n');
    const posted = await (await postFiles(form, { name: 'Ada' }, [['cv', text, 'Lebenslauf für Ada (2026).txt']])).json() as { id: string; data: { cv: Array<{ id: string }> } };
    const fileId = posted.data.cv[0]!.id;
    const full = await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions/${posted.id}`, headers: bearer(key) });
    const [entry] = full.json().files as Array<{ id: string; field: string; download_url: string; sha256: string }>;
    assert.equal(entry!.id, fileId);
    assert.equal(entry!.field, 'cv');

    const download = await fetch(`${base}${new URL(entry!.download_url).pathname}`, { headers: bearer(key) });
    assert.equal(download.status, 200);
    assert.equal(sha256(Buffer.from(await download.arrayBuffer())), sha256(text));
    assert.equal(download.headers.get('content-disposition'), `attachment; filename="Lebenslauf f_r Ada (2026).txt"; filename*=UTF-8''Lebenslauf%20f%C3%BCr%20Ada%20%282026%29.txt`);
    assert.equal(download.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(download.headers.get('content-security-policy'), "sandbox; default-src 'none'");
    assert.equal(download.headers.get('content-type'), 'text/plain');

    const path_ = new URL(entry!.download_url).pathname;
    assert.equal((await fetch(`${base}${path_}`)).status, 401, 'no credentials');
    const stranger = await t.createKey();
    assert.equal((await fetch(`${base}${path_}`, { headers: bearer(stranger) })).status, 404, 'another owner');

    const link = t.services.files.signedUrl(base, fileId, 3600).url;
    const signed = await fetch(link);
    assert.equal(signed.status, 200);
    assert.equal(sha256(Buffer.from(await signed.arrayBuffer())), sha256(text));
    assert.equal(signed.headers.get('content-disposition')?.startsWith('attachment;'), true);
    const tampered = link.replace(/expires=(\d+)/, (_, n: string) => `expires=${Number(n) + 86_400}`);
    assert.equal((await fetch(tampered)).status, 403, 'a stretched expiry');
    assert.equal((await fetch(link.replace(/sig=./, (m) => (m.endsWith('A') ? 'sig=B' : 'sig=A')))).status, 403, 'an altered signature');
    assert.equal((await fetch(t.services.files.signedUrl(base, fileId, -1).url)).status, 403, 'expired');

    await t.request({ method: 'DELETE', url: `/api/forms/${form.id}/submissions/${posted.id}`, headers: bearer(key) });
    assert.equal((await fetch(link)).status, 404, 'a deleted file, at once');
  });
});
