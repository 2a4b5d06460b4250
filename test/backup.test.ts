// Backups of the embedded database while a server takes submissions: every submission answered
// 201 before the backup began is in the copy, which passes PRAGMA integrity_check; a restore is
// refused while the server runs and puts the copy back once it stopped. On PostgreSQL the CLI
// points to pg_dump and pg_restore instead.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { runCli } from './cli.ts';
import { startServer, stop } from './processes.ts';
import { CONTACT_SCHEMA, createTestStore, ENGINE, RELAXED_ENV, type TestStore } from './helpers.ts';

function idsIn(file: string): { ids: Set<string>; integrity: string } {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const ids = new Set((db.prepare('select id from submissions').all() as Array<{ id: string }>).map((r) => r.id));
    const integrity = (db.prepare('pragma integrity_check').all() as Array<{ integrity_check: string }>).map((r) => r.integrity_check).join('; ');
    return { ids, integrity };
  } finally {
    db.close();
  }
}

describe('backup and restore', () => {
  let store: TestStore;
  let env: Record<string, string>;
  before(async () => {
    store = await createTestStore();
    env = { ...RELAXED_ENV, ...store.env };
  });
  after(() => store.cleanup());

  it('on PostgreSQL, points to pg_dump and pg_restore', { skip: ENGINE !== 'postgres' }, async () => {
    const result = await runCli(['backup', '--out', path.join(store.dataDir, 'x.sqlite')], env);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /pg_dump/);
  });

  it('copies a serving database under a write load, and restores it once the server stopped', { skip: ENGINE !== 'sqlite' }, async () => {
    const key = (await runCli(['keys', 'create', '--email', 'backup@example.com', '--name', 'k'], env)).stdout.trim();
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const server = await startServer(env);
    try {
      const form = await (await fetch(`${server.base}/api/forms`, {
        method: 'POST', headers: auth, body: JSON.stringify({ name: 'Backed up', slug: 'backed-up', visibility: 'public', fields_schema: CONTACT_SCHEMA }),
      })).json() as { endpoint: string };
      const endpoint = `${server.base}${new URL(form.endpoint).pathname}`;
      const acknowledged: Array<{ id: string; at: number }> = [];
      let loading = true;
      const client = async (n: number) => {
        for (let i = 0; loading; i++) {
          const response = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: `C${n}`, email: `c${n}@example.com`, message: `m ${i}` }) });
          if (response.status === 201) acknowledged.push({ id: ((await response.json()) as { id: string }).id, at: Date.now() });
        }
      };
      const clients = Array.from({ length: 8 }, (_, n) => client(n));
      while (acknowledged.length < 300) await new Promise((resolve) => setTimeout(resolve, 20));

      const out = path.join(store.dataDir, 'backups', 'copy.sqlite');
      const began = Date.now();
      const backup = await runCli(['backup', '--out', out], env);
      const during = acknowledged.filter((a) => a.at > began).length;
      loading = false;
      await Promise.all(clients);
      assert.equal(backup.code, 0, backup.stderr);
      assert.equal(backup.stdout.trim(), out);
      assert.ok(during > 0, 'submissions went on being accepted while the backup ran');

      const copy = idsIn(out);
      assert.equal(copy.integrity, 'ok');
      const before = acknowledged.filter((a) => a.at < began);
      assert.deepEqual(before.filter((a) => !copy.ids.has(a.id)), [], `all ${before.length} acknowledged before the backup are in it`);
      assert.equal((await runCli(['backup', '--out', out], env)).code, 1, 'an existing file is never overwritten');

      const refused = await runCli(['restore', '--from', out], env);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /in use/);
      await stop(server.child);

      const live = path.join(store.dataDir, 'intake.sqlite');
      const allStored = idsIn(live).ids.size;
      assert.ok(allStored > copy.ids.size, 'the live database went on past the copy');
      const restored = await runCli(['restore', '--from', out], env);
      assert.equal(restored.code, 0, restored.stderr);
      assert.match(restored.stderr, /kept at/);
      const back = idsIn(live);
      assert.equal(back.integrity, 'ok');
      assert.deepEqual(back.ids, copy.ids);
      const kept = fs.readdirSync(store.dataDir).find((f) => f.startsWith('intake.sqlite.before-restore-'));
      assert.ok(kept, 'the replaced database is kept');
      assert.equal(idsIn(path.join(store.dataDir, kept)).ids.size, allStored);

      const again = await startServer(env);
      const listed = await (await fetch(`${again.base}/api/forms`, { headers: auth })).json() as { forms: Array<{ submission_count: number }> };
      await stop(again.child);
      assert.equal(listed.forms[0]?.submission_count, copy.ids.size, 'the server serves the restored data, counters and all');
      const notIntake = path.join(store.dataDir, 'not-intake.txt');
      fs.writeFileSync(notIntake, 'hello');
      assert.equal((await runCli(['restore', '--from', notIntake], env)).code, 1);
    } finally {
      await stop(server.child);
    }
  });
});
