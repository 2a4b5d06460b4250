// The upload admission limit (INTAKE_UPLOAD_CONCURRENCY, src/files/admission.ts), through real HTTP:
// more slow uploads at once than the limit are all stored, intact, while never more than the limit
// are being written at once (counted from outside, as partial files in the storage directory, and by
// the process's own count); a JSON submit during them still answers; and a file that waits longer
// than INTAKE_UPLOAD_QUEUE_TIMEOUT_MS gets 503 with Retry-After.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bearer, createForm, pathOf, startTestApp, type TestApp } from './helpers.ts';

const SCHEMA = { fields: [{ name: 'name', type: 'string', required: true }, { name: 'doc', type: 'file', required: true, rules: [{ op: 'accept', value: ['text/plain'] }] }] };
const PIECE = 32 * 1024;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A multipart post whose file arrives in pieces, `gapMs` apart; resolves with the status, headers and body. */
function slowUpload(base: string, endpoint: string, content: Buffer, gapMs: number): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const boundary = `----intake${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda\r\n--${boundary}\r\nContent-Disposition: form-data; name="doc"; filename="doc.txt"\r\nContent-Type: text/plain\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}${pathOf(endpoint)}`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + content.length + tail.length, accept: 'application/json' },
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString() }));
    });
    request.on('error', reject);
    void (async () => {
      request.write(head);
      for (let at = 0; at < content.length; at += PIECE) {
        if (request.destroyed) return;
        request.write(content.subarray(at, at + PIECE));
        await sleep(gapMs);
      }
      request.end(tail);
    })();
  });
}

async function listening(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
}

describe('the upload admission limit', () => {
  let t: TestApp;
  let base: string;
  let key: string;

  before(async () => {
    t = await startTestApp({ INTAKE_UPLOAD_CONCURRENCY: '2' });
    base = await listening(t);
    key = await t.createKey();
  });
  after(() => t?.close());

  it('stores every one of more concurrent uploads than the limit, never reading more than the limit at once', async () => {
    const form = await createForm(t, key, { fields_schema: SCHEMA });
    const contact = await createForm(t, key, { slug: 'contact-admission' });
    const dir = path.join(t.config.dataDir, 'files');
    const contents = Array.from({ length: 6 }, (_, i) => Buffer.alloc(8 * PIECE, `file ${i} `));

    let most = 0;
    let sawWaiting = false;
    let jsonStatus = 0;
    let polling = true;
    const poller = (async () => {
      while (polling) {
        most = Math.max(most, fs.readdirSync(dir).filter((name) => name.endsWith('.part')).length);
        const stats = t.services.files.admission.stats();
        if (stats.waiting > 0 && jsonStatus === 0) {
          sawWaiting = true;
          // A JSON submit while files wait for their turn: answered, not queued behind them.
          jsonStatus = -1;
          const json = await fetch(`${base}${pathOf(contact.endpoint)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Bo', email: 'bo@example.com', message: 'hello' }) });
          jsonStatus = json.status;
        }
        await sleep(2);
      }
    })();
    const results = await Promise.all(contents.map((content) => slowUpload(base, String(form.html_endpoint), content, 20)));
    polling = false;
    await poller;

    for (const result of results) assert.equal(result.status, 201, result.body);
    assert.ok(sawWaiting, 'some uploads had to wait for their turn');
    assert.equal(jsonStatus, 201, 'the JSON submit during the uploads was stored');
    assert.ok(most >= 1 && most <= 2, `at most 2 files were being written at once (saw ${most})`);
    assert.equal(t.services.files.admission.stats().peak, 2);
    assert.deepEqual(t.services.files.admission.stats(), { active: 0, waiting: 0, peak: 2 });

    // Every file is stored whole: the submission's SHA-256 is that of the bytes sent, and so is the download's.
    for (const [i, result] of results.entries()) {
      const file = (JSON.parse(result.body) as { id: string; data: { doc: Array<{ id: string; sha256: string; size: number }> } });
      assert.equal(file.data.doc[0]!.sha256, sha256(contents[i]!));
      const download = await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions/${file.id}/files/${file.data.doc[0]!.id}`, headers: bearer(key) });
      assert.equal(download.statusCode, 200);
      assert.equal(sha256(download.rawPayload), sha256(contents[i]!));
    }
  });
});

describe('the upload admission wait limit', () => {
  let t: TestApp;
  let base: string;
  let key: string;

  before(async () => {
    t = await startTestApp({ INTAKE_UPLOAD_CONCURRENCY: '1', INTAKE_UPLOAD_QUEUE_TIMEOUT_MS: '200' });
    base = await listening(t);
    key = await t.createKey();
  });
  after(() => t?.close());

  it('answers 503 with Retry-After to a file that waited too long, and leaves nothing of it behind', async () => {
    const form = await createForm(t, key, { fields_schema: SCHEMA });
    const first = slowUpload(base, String(form.html_endpoint), Buffer.alloc(16 * PIECE, 'slow '), 50);
    while (t.services.files.admission.stats().active === 0) await sleep(5);
    const second = await slowUpload(base, String(form.html_endpoint), Buffer.alloc(PIECE, 'late '), 0);
    assert.equal(second.status, 503, second.body);
    assert.equal(second.headers['retry-after'], '1');
    assert.equal((JSON.parse(second.body) as { error: { code: string } }).error.code, 'service_unavailable');
    assert.equal((await first).status, 201, 'the file that had its turn is stored');
    assert.equal(fs.readdirSync(path.join(t.config.dataDir, 'files')).length, 1, 'only the stored file is on disk');
  });
});
