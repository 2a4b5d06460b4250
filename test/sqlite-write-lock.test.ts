// SQLite's write lock is taken by polling (src/db/sqlite-lock-wait.ts): a write that meets another
// process's write is stored once that write ends, a lock held past the timeout is still an outage
// ('busy', a 503 upstream), and the connection's busy timeout is what it was for the statements that
// follow. The submit path's writer thread blocks between tries; the main thread waits on timers, so
// its event loop keeps running while another process writes.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { Kysely, sql } from 'kysely';
import { storageOutage } from '../src/db/outage.ts';
import { bearer, createForm, ENGINE, startTestApp } from './helpers.ts';
import { openSqliteConnection, sqliteDialect } from '../src/db/sqlite-dialect.ts';
import { databaseWithTable, exited, holdWriteLock } from './sqlite-lock-holder.ts';

const busyTimeout = (connection: ReturnType<typeof openSqliteConnection>) => (connection.prepare('pragma busy_timeout').get() as { timeout: number }).timeout;

describe('SQLite: the writer polls for the write lock', () => {
  let file: string;
  let remove: () => void;
  before(() => ({ file, remove } = databaseWithTable()));
  after(() => remove());

  it('stores a transaction that meets another process\'s write once that write commits', async () => {
    const connection = openSqliteConnection(file, { busyTimeoutMs: 10_000 });
    const db = new Kysely<Record<string, never>>({ dialect: sqliteDialect(connection, { pollMs: 0.25, timeoutMs: 10_000, blocking: true }) });
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
    const db = new Kysely<Record<string, never>>({ dialect: sqliteDialect(connection, { pollMs: 0.25, timeoutMs: 100, blocking: true }) });
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

/** Counts the event loop's turns (a 5 ms interval) while `work` runs. */
async function turnsDuring(work: () => Promise<unknown>): Promise<{ turns: number; outcome: unknown }> {
  let turns = 0;
  const interval = setInterval(() => { turns++; }, 5);
  try {
    const outcome = await work().then((value) => value, (error: unknown) => error);
    return { turns, outcome };
  } finally {
    clearInterval(interval);
  }
}

describe('SQLite: the main thread waits for the write lock on timers', () => {
  let file: string;
  let remove: () => void;
  before(() => ({ file, remove } = databaseWithTable()));
  after(() => remove());

  const mainThread = (timeoutMs: number) => {
    const connection = openSqliteConnection(file, { busyTimeoutMs: timeoutMs });
    return { connection, db: new Kysely<Record<string, never>>({ dialect: sqliteDialect(connection, { pollMs: 1, timeoutMs, blocking: false }) }) };
  };
  const rows = (connection: ReturnType<typeof openSqliteConnection>) => connection.prepare('select x from t order by rowid').all().map((row) => row.x);

  it('runs the event loop while a transaction waits for another process\'s write, then stores it after that write', async () => {
    const { connection, db } = mainThread(10_000);
    const holder = await holdWriteLock(file, 400);
    const { turns, outcome } = await turnsDuring(() => db.transaction().execute(async (tx) => {
      await sql`insert into t values ('transaction')`.execute(tx);
    }));
    assert.equal(outcome, undefined, String(outcome));
    await exited(holder);
    // SQLite's own busy handler sleeps inside the call: the interval would not fire until the lock is free.
    assert.ok(turns >= 10, `the event loop turned ${turns} times during a 400 ms wait`);
    assert.deepEqual(rows(connection).slice(-2), ['other process', 'transaction']);
    await db.destroy();
  });

  it('does the same for a single write outside a transaction, and the busy timeout is the connection\'s meanwhile', async () => {
    const { connection, db } = mainThread(10_000);
    const holder = await holdWriteLock(file, 400);
    const seen = new Set<number>();
    const probe = setInterval(() => seen.add(busyTimeout(connection)), 3);
    const { turns, outcome } = await turnsDuring(() => sql`insert into t values ('single')`.execute(db));
    clearInterval(probe);
    assert.ok(!(outcome instanceof Error), String(outcome));
    await exited(holder);
    assert.ok(turns >= 10, `the event loop turned ${turns} times during a 400 ms wait`);
    assert.deepEqual([...seen], [10_000], 'other code using the connection during the wait sees its busy timeout');
    assert.deepEqual(rows(connection).slice(-2), ['other process', 'single']);
    // Reads never wait for the lock (WAL), and a transaction's own statements run without the wait.
    assert.equal(rows(connection).at(-1), 'single');
    await db.destroy();
  });

  it('gives up at its timeout with SQLite\'s busy error (an outage), writing nothing, in and out of transactions', async () => {
    const { connection, db } = mainThread(150);
    const before = rows(connection).length;
    const holder = await holdWriteLock(file, 2_000);
    const inTransaction = await db.transaction().execute(async (tx) => {
      await sql`insert into t values ('too late')`.execute(tx);
    }).then(() => null, (error: unknown) => error);
    const single = await sql`insert into t values ('too late')`.execute(db).then(() => null, (error: unknown) => error);
    assert.equal(storageOutage(inTransaction), 'busy', String(inTransaction));
    assert.equal(storageOutage(single), 'busy', String(single));
    assert.equal(busyTimeout(connection), 150);
    await exited(holder);
    assert.equal(rows(connection).length, before + 1, 'only the other process\'s row was added');
    assert.ok(!rows(connection).includes('too late'));
    // Once free, the same Kysely instance writes again (no transaction left open by the failures).
    await db.transaction().execute(async (tx) => { await sql`insert into t values ('after')`.execute(tx); });
    assert.equal(rows(connection).at(-1), 'after');
    await db.destroy();
  });
});

describe('SQLite: an owner\'s change waits for another process\'s write without stopping the server', { skip: ENGINE !== 'sqlite' && 'the SQLite store only' }, () => {
  it('answers other requests while a form update waits for the lock, and stores the update after the other write', async () => {
    const t = await startTestApp();
    try {
      const key = await t.createKey();
      const form = await createForm(t, key);
      // A backup, an `intake worker` or a CLI command in another process holds the lock for 800 ms;
      // /healthz asks the database (a read), so it needs the connection the waiting update lets go of.
      const holder = await holdWriteLock(t.database.sqliteFile!, 800, 'select 1');
      const committed = once(holder.stdout!, 'data').then(([line]) => Number(/committed (\d+)/.exec(String(line))?.[1]));
      const update = t.request({ method: 'PUT', url: `/api/forms/${form.id}`, headers: bearer(key), payload: { name: 'Renamed' } });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const health = await t.request({ method: 'GET', url: '/healthz' });
      const healthAnsweredAt = Date.now();
      const updated = await update;
      const committedAt = await committed;
      await exited(holder);
      assert.equal(health.statusCode, 200);
      // With SQLite's busy handler the update's wait stopped the event loop: nothing was answered before the other commit.
      assert.ok(healthAnsweredAt < committedAt, `/healthz answered ${committedAt - healthAnsweredAt} ms before the other process committed`);
      assert.equal(updated.statusCode, 200, updated.body);
      const read = await t.request({ method: 'GET', url: `/api/forms/${form.id}`, headers: bearer(key) });
      assert.equal(read.json().name, 'Renamed');
    } finally {
      await t.close();
    }
  });
});
