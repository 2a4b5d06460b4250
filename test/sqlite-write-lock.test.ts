// The submit path's writer takes SQLite's write lock by polling (src/db/sqlite-dialect.ts,
// LockPolling): a batch that meets another process's write is stored once that write ends, a lock
// held past the timeout is still an outage ('busy', a 503 upstream), and the connection's busy
// timeout is what it was for the statements that follow.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Kysely, sql } from 'kysely';
import { storageOutage } from '../src/db/outage.ts';
import { openSqliteConnection, sqliteDialect } from '../src/db/sqlite-dialect.ts';

/** Another process that takes the write lock, writes a row and commits after `holdMs`. */
async function holdWriteLock(file: string, holdMs: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', `
    const { DatabaseSync } = require('node:sqlite');
    const db = new DatabaseSync(${JSON.stringify(file)});
    db.exec('begin immediate');
    db.exec("insert into t values ('other process')");
    process.stdout.write('locked\\n');
    setTimeout(() => { db.exec('commit'); db.close(); }, ${holdMs});`], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    child.stdout!.once('data', resolve);
    child.once('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
  return child;
}

const exited = (child: ChildProcess) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));

describe('SQLite: the writer polls for the write lock', () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-write-lock-'));
    file = path.join(dir, 'db.sqlite');
    openSqliteConnection(file).exec('create table t (x text)');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const busyTimeout = (connection: ReturnType<typeof openSqliteConnection>) => (connection.prepare('pragma busy_timeout').get() as { timeout: number }).timeout;

  it('stores a transaction that meets another process\'s write once that write commits', async () => {
    const connection = openSqliteConnection(file, { busyTimeoutMs: 10_000 });
    const db = new Kysely<Record<string, never>>({ dialect: sqliteDialect(connection, { pollMs: 0.25, timeoutMs: 10_000 }) });
    const holder = await holdWriteLock(file, 300);
    await db.transaction().execute(async (tx) => {
      await sql`insert into t values ('writer')`.execute(tx);
    });
    await exited(holder);
    const rows = connection.prepare('select x from t order by rowid').all().map((row) => row.x);
    assert.deepEqual(rows, ['other process', 'writer'], 'the other process committed first, then the writer');
    assert.equal(busyTimeout(connection), 10_000, 'the busy timeout is back for the statements that follow');
    await db.destroy();
  });

  it('gives up at its timeout with SQLite\'s busy error (an outage), writing nothing', async () => {
    const connection = openSqliteConnection(file, { busyTimeoutMs: 100 });
    const db = new Kysely<Record<string, never>>({ dialect: sqliteDialect(connection, { pollMs: 0.25, timeoutMs: 100 }) });
    const before = (connection.prepare('select count(*) as n from t').get() as { n: number }).n;
    const holder = await holdWriteLock(file, 2_000);
    const failure = await db.transaction().execute(async (tx) => {
      await sql`insert into t values ('too late')`.execute(tx);
    }).then(() => null, (error: unknown) => error);
    assert.ok(failure, 'the transaction failed');
    assert.equal(storageOutage(failure), 'busy', String(failure));
    assert.equal(busyTimeout(connection), 100);
    await exited(holder);
    const rows = connection.prepare('select x from t').all().map((row) => row.x);
    assert.equal(rows.length, before + 1, 'only the other process\'s row was added');
    assert.ok(!rows.includes('too late'));
    await db.destroy();
  });
});
