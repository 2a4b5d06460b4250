// A 201 or 303 means the submission and its files are stored (issue 34): kill the server with SIGKILL
// while many multipart posts with files pour in (one of them stopped half-way through its file, so a
// partial write is certain to be on disk), restart it, and find every acknowledged submission with
// its file, whose stored bytes have the SHA-256 the client computed. Then the sweeper (run as it
// would be hours later) leaves no bytes without a row and no partial write, and every row still has
// its bytes.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { diskStorage } from '../src/files/disk.ts';
import { fileService, ORPHAN_AGE_MS } from '../src/files/service.ts';
import { fileStore } from '../src/files/store.ts';
import { runCli } from './cli.ts';
import { createTestStore, RELAXED_ENV, type TestStore } from './helpers.ts';
import { apiClient, exited, startServer, stop } from './processes.ts';

const SCHEMA = { fields: [{ name: 'name', type: 'string', required: true }, { name: 'cv', type: 'file', required: true, rules: [{ op: 'accept', value: ['text/plain'] }, { op: 'max_file_size', value: 2 * 1024 * 1024 }] }] };
const CLIENTS = 12;
const ACKNOWLEDGED_BEFORE_KILL = 60;

/** Text of `size` bytes no other upload has (hex of random bytes): sniffed as text/plain. */
const content = (size: number) => Buffer.from(randomBytes(Math.ceil(size / 2)).toString('hex').slice(0, size));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('uploads survive SIGKILL', () => {
  let store: TestStore;
  let env: Record<string, string>;
  before(async () => {
    store = await createTestStore();
    env = { ...RELAXED_ENV, ...store.env };
  });
  after(() => store.cleanup());

  it('keeps every acknowledged file with its bytes; the sweeper then leaves no bytes without a row', async () => {
    const key = (await runCli(['keys', 'create', '--email', 'uploads@example.com', '--name', 'k'], env)).stdout.trim();
    let server = await startServer(env);
    const api = apiClient(server.base, key);
    const form = (await api('POST', '/api/forms', { name: 'Uploads', slug: 'uploads', visibility: 'public', fields_schema: SCHEMA })).json as { id: string; html_endpoint: string };
    const endpoint = new URL(form.html_endpoint).pathname;
    const filesDir = path.join(store.dataDir, 'files');

    // name → SHA-256 of the file, for each post answered 201 (JSON) or 303 (a browser's redirect).
    const acknowledged = new Map<string, string>();
    let stopped = false;
    const client = async (n: number) => {
      for (let i = 0; !stopped; i++) {
        const name = `c${n}-${i}`;
        const bytes = content(64 * 1024 + ((n * 7919 + i * 104_729) % (768 * 1024)));
        const body = new FormData();
        body.append('name', name);
        body.append('cv', new Blob([bytes]), `${name}.txt`);
        const asJson = n % 2 === 0;
        try {
          const response = await fetch(`${server.base}${endpoint}`, { method: 'POST', body, redirect: 'manual', headers: asJson ? { accept: 'application/json' } : {} });
          await response.arrayBuffer();
          if (response.status === (asJson ? 201 : 303)) acknowledged.set(name, sha256(bytes));
          else throw new Error(`${name}: ${response.status}`);
        } catch (error) {
          if (stopped) return; // the server is gone
          throw error;
        }
      }
    };

    // One post that sends half its file and then waits: the server is surely mid-write when killed.
    const boundary = `----intake${randomBytes(8).toString('hex')}`;
    const stalled = http.request(`${server.base}${endpoint}`, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    stalled.on('error', () => {});
    stalled.write(`--${boundary}\r\ncontent-disposition: form-data; name="name"\r\n\r\nstalled\r\n--${boundary}\r\ncontent-disposition: form-data; name="cv"; filename="half.txt"\r\ncontent-type: text/plain\r\n\r\n`);
    stalled.write(content(256 * 1024));

    const clients = Array.from({ length: CLIENTS }, (_, n) => client(n));
    const partialOnDisk = () => fs.readdirSync(filesDir).some((name) => name.endsWith('.part'));
    for (let waited = 0; acknowledged.size < ACKNOWLEDGED_BEFORE_KILL || !partialOnDisk(); waited += 10) {
      if (waited > 120_000) throw new Error(`only ${acknowledged.size} acknowledged, partial on disk: ${partialOnDisk()}`);
      await sleep(10);
    }
    const killed = exited(server.child);
    server.child.kill('SIGKILL');
    stopped = true;
    await Promise.all(clients);
    await killed;
    stalled.destroy();
    assert.ok(partialOnDisk(), 'the kill left a partial write behind');

    server = await startServer(env);
    try {
      const stored = new Map<string, { cv: Array<{ id: string; sha256: string }> }>();
      for (let page = 1; ; page++) {
        const { json } = await apiClient(server.base, key)('GET', `/api/forms/${form.id}/submissions?filter=all&page_size=100&page=${page}`);
        for (const s of json.data as Array<{ data: { name: string; cv: Array<{ id: string; sha256: string }> } }>) stored.set(s.data.name, s.data);
        if (page >= json.meta.total_pages) break;
      }
      const lost = [...acknowledged.keys()].filter((name) => !stored.has(name));
      assert.equal(lost.length, 0, `${lost.length} of ${acknowledged.size} acknowledged submissions were lost: ${lost.slice(0, 5).join(', ')}`);
      const wrong = [...acknowledged].filter(([name, hash]) => stored.get(name)!.cv.length !== 1 || stored.get(name)!.cv[0]!.sha256 !== hash);
      assert.deepEqual(wrong, [], 'each acknowledged submission has its one file, with the SHA-256 the client sent');
    } finally {
      await stop(server.child);
    }

    // The sweeper, as the daily purge runs it once the leftovers are older than ORPHAN_AGE_MS.
    const config = loadConfig(env);
    const database = openDatabase(config);
    try {
      const storage = diskStorage(config.dataDir);
      const rows = fileStore(database.db);
      const later = fileService({ storage, store: rows, maxUploadBytes: 1, linkKey: Buffer.alloc(32), clock: () => new Date(Date.now() + 2 * ORPHAN_AGE_MS) });
      const removed = await later.sweepOrphans();
      assert.ok(removed >= 1, 'at least the partial write went');

      const left = [];
      for await (const entry of storage.list()) left.push(entry);
      assert.deepEqual(left.filter((entry) => entry.partial), [], 'no partial write is left');
      const named = await rows.keysInUse(left.map((entry) => entry.key));
      assert.deepEqual(left.filter((entry) => !named.has(entry.key)).map((entry) => entry.key), [], 'no stored bytes lack a row');
      // And the other way: every row's bytes are there, with its SHA-256 (acknowledged or not).
      const all = await database.db.selectFrom('submission_files').select(['storage_key', 'sha256']).execute();
      assert.ok(all.length >= acknowledged.size);
      const bad = all.filter((row) => {
        const file = path.join(filesDir, row.storage_key);
        return !fs.existsSync(file) || sha256(fs.readFileSync(file)) !== row.sha256;
      });
      assert.deepEqual(bad, [], 'every row has its bytes');
    } finally {
      await database.close();
    }
  });
});
