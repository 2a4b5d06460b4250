// The upload bandwidth limit (INTAKE_UPLOAD_BANDWIDTH, src/files/bandwidth.ts): the token bucket on
// a clock of the test's own, and through real HTTP that a paced upload is held back yet stored
// whole, that a limit still cuts a paced upload off at the limit leaving no bytes, and that a bad
// value stops `intake serve` with one clear line.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { uploadPace } from '../src/files/bandwidth.ts';
import { bearer, createForm, pathOf, startTestApp, type TestApp } from './helpers.ts';

const KIB = 1024;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('the upload pace', () => {
  it('lets a burst through, then spaces chunks at the rate, shared by every taker', () => {
    let clock = 0;
    const pace = uploadPace(1024 * KIB, { burstBytes: 64 * KIB, now: () => clock });
    assert.equal(pace.take(64 * KIB), 0, 'the burst passes at once');
    assert.equal(pace.take(64 * KIB), 63, 'the next 64 KiB waits 1/16 s (62.5 ms, rounded up)');
    // A second upload asking at the same moment queues behind the first one's debt.
    assert.equal(pace.take(64 * KIB), 125);
    assert.deepEqual(pace.stats(), { held: 2, heldBytes: 128 * KIB });
    // The debt is paid at the rate: after 125 ms the bucket is empty again, not full.
    clock = 125;
    assert.equal(pace.take(32 * KIB), 32);
    // Idle time refills the bucket only up to the burst.
    clock = 60_000;
    assert.equal(pace.take(64 * KIB), 0);
    assert.equal(pace.take(1), 1);
  });

  it('0 is no limit', () => {
    const pace = uploadPace(0);
    for (let i = 0; i < 100; i++) assert.equal(pace.take(1024 * KIB), 0);
    assert.deepEqual(pace.stats(), { held: 0, heldBytes: 0 });
  });
});

const SCHEMA = { fields: [
  { name: 'name', type: 'string', required: true },
  { name: 'doc', type: 'file', required: true, rules: [{ op: 'accept', value: ['text/plain'] }, { op: 'max_file_size', value: 64 * KIB }] },
] };

async function post(base: string, endpoint: string, content: Buffer): Promise<{ status: number; body: string }> {
  const body = new FormData();
  body.append('name', 'Ada');
  body.append('doc', new Blob([content]), 'doc.txt');
  const response = await fetch(`${base}${pathOf(endpoint)}`, { method: 'POST', body, headers: { accept: 'application/json' } });
  return { status: response.status, body: await response.text() };
}

describe('uploads under INTAKE_UPLOAD_BANDWIDTH', () => {
  let t: TestApp;
  let base: string;
  let key: string;

  before(async () => {
    t = await startTestApp({ INTAKE_UPLOAD_BANDWIDTH: String(64 * KIB) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    key = await t.createKey();
  });
  after(() => t?.close());

  it('holds a file back to the rate and stores it whole', async () => {
    const form = await createForm(t, key, { fields_schema: { fields: [SCHEMA.fields[0], { ...SCHEMA.fields[1], rules: [{ op: 'accept', value: ['text/plain'] }] }] } });
    const content = Buffer.alloc(160 * KIB, 'paced text ');
    const result = await post(base, String(form.html_endpoint), content);
    assert.equal(result.status, 201, result.body);
    const stats = t.services.files.pace.stats();
    assert.ok(stats.held > 0 && stats.heldBytes >= 64 * KIB, `chunks beyond the burst were held (${JSON.stringify(stats)})`);
    const submission = JSON.parse(result.body) as { id: string; data: { doc: Array<{ id: string; sha256: string; size: number }> } };
    assert.equal(submission.data.doc[0]!.size, content.length);
    assert.equal(submission.data.doc[0]!.sha256, sha256(content));
    const download = await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions/${submission.id}/files/${submission.data.doc[0]!.id}`, headers: bearer(key) });
    assert.equal(download.statusCode, 200);
    assert.equal(sha256(download.rawPayload), sha256(content));
  });

  it('still cuts a file off at its limit, leaving no bytes', async () => {
    const form = await createForm(t, key, { slug: 'small-docs', fields_schema: SCHEMA });
    const dir = path.join(t.config.dataDir, 'files');
    const before = new Set(fs.readdirSync(dir));
    const result = await post(base, String(form.html_endpoint), Buffer.alloc(512 * KIB, 'too large '));
    assert.equal(result.status, 413, result.body);
    assert.ok((JSON.parse(result.body) as { error: { details?: Record<string, string[]> } }).error.details?.doc, `the error names the field: ${result.body}`);
    assert.deepEqual(fs.readdirSync(dir).filter((name) => !before.has(name)), [], 'nothing of it is left in the storage');
  });
});

describe('INTAKE_UPLOAD_BANDWIDTH at start', () => {
  it('a bad value stops `intake serve` with one line naming the variable', async () => {
    const data = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-bandwidth-'));
    try {
      for (const [value, problem] of [['1000', /must be 0 \(no limit\) or at least 65536 bytes a second, got 1000/], ['16MB', /expected a whole number, got "16MB"/]] as const) {
        const env = { PATH: process.env.PATH ?? '', INTAKE_DATA_DIR: data, PORT: '0', HOST: '127.0.0.1', INTAKE_LOG_LEVEL: 'silent', INTAKE_UPLOAD_BANDWIDTH: value };
        const run = promisify(execFile)(process.execPath, [path.resolve(import.meta.dirname, '../src/cli.ts'), 'serve'], { env, timeout: 60_000 });
        const error = await run.then(() => null, (failure: { code: number; stderr: string }) => failure);
        assert.ok(error, `serve exited with an error for ${value}`);
        assert.equal(error.code, 1);
        assert.match(error.stderr, /^Configuration error: INTAKE_UPLOAD_BANDWIDTH: /);
        assert.match(error.stderr, problem);
        assert.equal(error.stderr.trim().split('\n').length, 1, 'one line');
      }
    } finally {
      fs.rmSync(data, { recursive: true, force: true });
    }
  });
});
