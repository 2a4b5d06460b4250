// File uploads on S3-compatible storage (issue 34), against a real S3-protocol server (s3rver) the
// test starts on a loopback port with a temporary directory: uploads through the HTML endpoint,
// downloads through the API, deletion and the sweeper looking in the bucket, and a server that
// refuses to start on a missing bucket.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { DeleteObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { StorageError } from '../src/files/storage.ts';
import { bearer, createForm, pathOf, startTestApp, type TestApp } from './helpers.ts';

const BUCKET = 'intake-files';
const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'), Buffer.from('1f15c4890000000d49444154789c63f8cfc0f01f0005000201a5f6a1c00000000049454e44ae426082', 'hex'),
]);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const SCHEMA = {
  fields: [
    { name: 'name', type: 'string', required: true },
    { name: 'plan', type: 'file', required: true, rules: [{ op: 'accept', value: ['image/png', 'text/plain'] }, { op: 'max_file_size', value: 8 * 1024 * 1024 }] },
  ],
};

describe('file storage on S3', () => {
  let dir: string;
  let s3rver: S3rver;
  let endpoint: string;
  let s3: S3Client;
  let t: TestApp;
  let key: string;
  let base: string;
  const env = (bucket = BUCKET) => ({
    INTAKE_STORAGE: 's3', INTAKE_STORAGE_S3_ENDPOINT: endpoint, INTAKE_STORAGE_S3_BUCKET: bucket,
    INTAKE_STORAGE_S3_ACCESS_KEY_ID: 'S3RVER', INTAKE_STORAGE_S3_SECRET_ACCESS_KEY: 'S3RVER', INTAKE_STORAGE_S3_FORCE_PATH_STYLE: 'true',
  });

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-s3-'));
    s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: BUCKET, configs: [] }] });
    const { port } = await s3rver.run();
    endpoint = `http://127.0.0.1:${port}`;
    s3 = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    t = await startTestApp(env());
    await t.services.files.storage.ready();
    key = await t.createKey();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });
  after(async () => {
    await t.close();
    s3.destroy();
    await s3rver.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The object names in the bucket, as the test's own client lists them. */
  async function objects(): Promise<string[]> {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET }));
    return (page.Contents ?? []).map((object) => object.Key!).sort();
  }
  function post(form: Record<string, unknown>, bytes: Buffer, filename: string) {
    const body = new FormData();
    body.append('name', 'Ada');
    body.append('plan', new Blob([bytes]), filename);
    return fetch(`${base}${pathOf(String(form.html_endpoint))}`, { method: 'POST', body, headers: { accept: 'application/json' } });
  }

  it('stores an upload in the bucket and serves the same bytes through the API and a signed link', async () => {
    const form = await createForm(t, key, { fields_schema: SCHEMA });
    // 3 MiB of binary: several network chunks on the way in and out.
    const bytes = Buffer.concat([PNG, randomBytes(3 * 1024 * 1024)]);
    const response = await post(form, bytes, 'plan.png');
    assert.equal(response.status, 201, await response.clone().text());
    const posted = await response.json() as { id: string; data: { plan: Array<{ id: string; sha256: string; size: number }> } };
    const [file] = posted.data.plan;
    assert.equal(file!.sha256, sha256(bytes));
    assert.equal(file!.size, bytes.length);
    assert.ok((await objects()).includes(`files/${file!.id}`), 'the object is in the bucket');

    const full = await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions/${posted.id}`, headers: bearer(key) });
    const [entry] = full.json().files as Array<{ download_url: string }>;
    const download = await fetch(`${base}${new URL(entry!.download_url).pathname}`, { headers: bearer(key) });
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-disposition'), 'attachment; filename="plan.png"; filename*=UTF-8\'\'plan.png');
    assert.equal(sha256(Buffer.from(await download.arrayBuffer())), sha256(bytes), 'the same bytes back');
    const signed = await fetch(t.services.files.signedUrl(base, file!.id, 600).url);
    assert.equal(sha256(Buffer.from(await signed.arrayBuffer())), sha256(bytes));
  });

  it('keeps nothing in the bucket of a refused upload', async () => {
    const form = await createForm(t, key, { fields_schema: SCHEMA });
    const before = await objects();
    const html = await post(form, Buffer.from('<html><script>alert(1)</script></html>'), 'plan.png');
    assert.equal(html.status, 415);
    const large = await post(form, Buffer.concat([PNG, Buffer.alloc(8 * 1024 * 1024)]), 'big.png');
    assert.equal(large.status, 413);
    assert.deepEqual(await objects(), before);
  });

  it('deleting the submission removes the object; the sweeper removes old objects no row names', async () => {
    const form = await createForm(t, key, { fields_schema: SCHEMA });
    const posted = await (await post(form, Buffer.from('kept until deleted\n'), 'notes.txt')).json() as { id: string; data: { plan: Array<{ id: string }> } };
    const object = `files/${posted.data.plan[0]!.id}`;
    assert.ok((await objects()).includes(object));
    assert.equal((await t.request({ method: 'DELETE', url: `/api/forms/${form.id}/submissions/${posted.id}`, headers: bearer(key) })).statusCode, 200);
    assert.ok(await t.services.files.processDeletions() >= 1);
    assert.ok(!(await objects()).includes(object), 'the object is gone');

    const orphan = 'files/00000000-0000-4000-8000-00000000000a';
    const unrelated = 'elsewhere/00000000-0000-4000-8000-00000000000b';
    for (const Key of [orphan, unrelated]) await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: 'left behind' }));
    const kept = await (await post(form, Buffer.from('still wanted\n'), 'kept.txt')).json() as { data: { plan: Array<{ id: string }> } };
    assert.equal(await t.services.files.sweepOrphans(), 0, 'everything is younger than an hour');
    // The sweeper, two hours from now: the orphan is old enough to go; the row's object stays.
    const later = (await import('../src/files/service.ts')).fileService({
      storage: t.services.files.storage, store: (await import('../src/files/store.ts')).fileStore(t.database.db),
      maxUploadBytes: 1, linkKey: Buffer.alloc(32), clock: () => new Date(Date.now() + 2 * 3_600_000),
    });
    assert.ok(await later.sweepOrphans() >= 1);
    const left = await objects();
    assert.ok(!left.includes(orphan), 'the orphan is removed');
    assert.ok(left.includes(`files/${kept.data.plan[0]!.id}`), 'an object with its row stays');
    assert.ok(left.includes(unrelated), 'objects outside files/ are not Intake\'s to remove');
    await s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: unrelated }));
  });

  it('refuses to start on a missing bucket or refused keys, in one line', async () => {
    const missing = await startTestApp(env('no-such-bucket'));
    try {
      await assert.rejects(missing.services.files.storage.ready(), (error: Error) => error instanceof StorageError && /"no-such-bucket".*does not exist/.test(error.message));
    } finally {
      await missing.close();
    }
    const wrongKeys = await startTestApp({ ...env(), INTAKE_STORAGE_S3_ACCESS_KEY_ID: 'WRONG' });
    try {
      await assert.rejects(wrongKeys.services.files.storage.ready(), (error: Error) => error instanceof StorageError && /access to bucket "intake-files" .* was refused/.test(error.message));
    } finally {
      await wrongKeys.close();
    }
    // The real start: `intake serve` exits with the line, before it listens.
    const data = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-s3-serve-'));
    try {
      const childEnv = { PATH: process.env.PATH ?? '', INTAKE_DATA_DIR: data, PORT: '0', HOST: '127.0.0.1', INTAKE_LOG_LEVEL: 'silent', ...env('no-such-bucket') };
      const run = promisify(execFile)(process.execPath, [path.resolve(import.meta.dirname, '../src/cli.ts'), 'serve'], { env: childEnv, timeout: 60_000 });
      const error = await run.then(() => null, (failure: { code: number; stderr: string }) => failure);
      assert.ok(error, 'serve exited with an error');
      assert.equal(error.code, 1);
      assert.match(error.stderr, /^Storage error: S3 storage: bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+ does not exist/);
      assert.equal(error.stderr.trim().split('\n').length, 1, 'one line');
    } finally {
      fs.rmSync(data, { recursive: true, force: true });
    }
  });
});
