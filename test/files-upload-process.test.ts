// Uploads in a process of their own (docs/production.md, PostgreSQL): a second API process without
// workers takes the multipart posts, the first serves everything else. A file posted to the second is
// listed, downloaded byte for byte and, once its submission is deleted, removed by the first process's
// workers, through the store and the data directory the two share.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChildProcess } from 'node:child_process';
import { runCli } from './cli.ts';
import { createTestStore, ENGINE, type TestStore } from './helpers.ts';
import { apiClient, startServer, stop } from './processes.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('uploads through a second API process', { skip: ENGINE !== 'postgres' && 'PostgreSQL only: the deployment it documents' }, () => {
  let store: TestStore;
  const servers: Array<{ child: ChildProcess; base: string }> = [];

  before(async () => {
    store = await createTestStore();
    // The first process deletes removed files' bytes every minute, or as often as its retention runs: here every second.
    servers.push(await startServer({ ...store.env, INTAKE_RETENTION_INTERVAL_MS: '1000' }));
    servers.push(await startServer({ ...store.env, INTAKE_EMBEDDED_WORKER: 'false' }));
  });
  after(async () => {
    for (const server of servers) await stop(server.child);
    await store?.cleanup();
  });

  it('stores a file posted to the upload process; the other lists, serves and deletes it', async () => {
    const api = servers[0]!;
    const uploads = servers[1]!;
    const created = await runCli(['keys', 'create', '--email', 'owner@example.com', '--name', 'k'], store.env);
    assert.equal(created.code, 0, created.stderr);
    const key = created.stdout.trim();
    const call = apiClient(api.base, key);
    const form = await call('POST', '/api/forms', {
      name: 'Applications', slug: 'apply', visibility: 'public',
      fields_schema: { fields: [{ name: 'name', type: 'string', required: true }, { name: 'cv', type: 'file', required: true, rules: [{ op: 'accept', value: ['text/plain'] }] }] },
    });
    assert.equal(form.status, 201);

    const bytes = Buffer.from('Ada Lovelace\nAnalyst of the Analytical Engine\n'.repeat(2000));
    const body = new FormData();
    body.append('name', 'Ada');
    body.append('cv', new Blob([bytes]), 'cv.txt');
    const posted = await fetch(`${uploads.base}${new URL(String(form.json.html_endpoint)).pathname}`, { method: 'POST', body, headers: { accept: 'application/json' } });
    assert.equal(posted.status, 201, await posted.clone().text());
    const submission = (await posted.json()) as { id: string; data: { cv: Array<{ id: string; sha256: string }> } };
    const fileId = submission.data.cv[0]!.id;
    assert.equal(submission.data.cv[0]!.sha256, sha256(bytes));

    const full = await call('GET', `/api/forms/${form.json.id}/submissions/${submission.id}`);
    assert.equal(full.status, 200);
    const [entry] = full.json.files as Array<{ id: string; download_url: string }>;
    assert.equal(entry!.id, fileId);
    const download = await fetch(`${api.base}${new URL(entry!.download_url).pathname}`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(download.status, 200);
    assert.equal(sha256(Buffer.from(await download.arrayBuffer())), sha256(bytes), 'the same bytes, served by the process that did not store them');

    const stored = path.join(store.dataDir, 'files', fileId);
    assert.ok(fs.existsSync(stored));
    const deleted = await fetch(`${api.base}/api/forms/${form.json.id}/submissions/${submission.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });
    assert.equal(deleted.status, 200);
    // The first process's workers delete the bytes (the second has none).
    for (let i = 0; i < 200 && fs.existsSync(stored); i++) await sleep(50);
    assert.ok(!fs.existsSync(stored), 'the bytes are removed once the submission is deleted');
  });
});
