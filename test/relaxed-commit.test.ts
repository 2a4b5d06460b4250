// Relaxed commits (src/db/relaxed-commit.ts): the pipeline's final statuses and the SQLite queue's
// leases and completions may commit before their fsync, and nothing else on the connection ever does.
// SQLite: the safety level is NORMAL for the relaxed transaction only, and the connection's own level
// is back before any other code gets the connection, including while the relaxed transaction waits
// for another process's write lock and after it fails. PostgreSQL: `synchronous_commit` is off in the
// relaxed transaction only.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Kysely, sql } from 'kysely';
import { relaxedTransaction, relaxedWrite } from '../src/db/relaxed-commit.ts';
import { openSqliteConnection, sqliteDialect } from '../src/db/sqlite-dialect.ts';
import { ENGINE, startTestApp, type TestApp } from './helpers.ts';
import { databaseWithTable, exited, holdWriteLock } from './sqlite-lock-holder.ts';

const FULL = 2;
const NORMAL = 1;

describe('SQLite: relaxed commits', () => {
  let file: string;
  let remove: () => void;
  let connection: ReturnType<typeof openSqliteConnection>;
  let db: Kysely<Record<string, never>>;
  before(() => {
    ({ file, remove } = databaseWithTable());
    connection = openSqliteConnection(file, { busyTimeoutMs: 300 });
    db = new Kysely({ dialect: sqliteDialect(connection, { pollMs: 1, timeoutMs: 300, blocking: false }) });
  });
  after(async () => {
    await db.destroy();
    remove();
  });

  const safety = async (executor: Kysely<Record<string, never>>) => (await sql<{ synchronous: number }>`pragma synchronous`.execute(executor)).rows[0]!.synchronous;

  it('runs the relaxed transaction at NORMAL and puts FULL back when it commits', async () => {
    assert.equal(await safety(db), FULL);
    const inside = await relaxedTransaction(db, 'sqlite', async (tx) => {
      await sql`insert into t values ('relaxed')`.execute(tx);
      return safety(tx);
    });
    assert.equal(inside, NORMAL);
    assert.equal(await safety(db), FULL);
    assert.equal(await db.transaction().execute((tx) => safety(tx)), FULL, 'a plain transaction is durable');
  });

  it('puts FULL back when the relaxed transaction rolls back', async () => {
    const failure = await relaxedTransaction(db, 'sqlite', async (tx) => {
      await sql`insert into t values ('rolled back')`.execute(tx);
      throw new Error('the work failed');
    }).then(() => null, (error: unknown) => error);
    assert.match(String(failure), /the work failed/);
    assert.equal(await safety(db), FULL);
    assert.equal(connection.prepare("select count(*) as n from t where x = 'rolled back'").get()!.n, 0);
  });

  it('runs a relaxed lone write at NORMAL and puts FULL back; a transaction that the relaxed one\'s work starts is not relaxed', async () => {
    // The statement itself records the level it ran at (a function that reads the pragma mid-statement).
    connection.function('safety_now', () => String((connection.prepare('pragma synchronous').get() as { synchronous: number }).synchronous));
    await relaxedWrite(() => sql`insert into t values ('lone ' || safety_now())`.execute(db));
    await sql`insert into t values ('plain ' || safety_now())`.execute(db);
    const levels = connection.prepare("select x from t where x like 'lone %' or x like 'plain %' order by rowid").all().map((row) => row.x);
    assert.deepEqual(levels, [`lone ${NORMAL}`, `plain ${FULL}`]);
    assert.equal(await safety(db), FULL);
    // Only Kysely's own `begin` sees the request: what the caller's callback starts is not relaxed.
    let started: Promise<number> | null = null;
    await relaxedTransaction(db, 'sqlite', async (tx) => {
      started = db.transaction().execute((other) => safety(other)); // runs once this one has committed
      await sql`insert into t values ('relaxed')`.execute(tx);
    });
    assert.equal(await started, FULL);
  });

  it('keeps FULL for everyone else while the relaxed transaction waits for another process\'s lock, and after it gives up', async () => {
    const holder = await holdWriteLock(file, 1_000);
    const seen: number[] = [];
    let waiting = true;
    const waiter = relaxedTransaction(db, 'sqlite', async (tx) => {
      await sql`insert into t values ('too late')`.execute(tx);
    }).then(() => null, (error: unknown) => error).finally(() => (waiting = false));
    // Other users of the connection get it between the waiter's tries.
    while (waiting) {
      seen.push(await safety(db));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const failure = await waiter;
    assert.ok(failure, 'the lock was held past the timeout');
    assert.ok(seen.length > 5, `the connection was used meanwhile (${seen.length} reads)`);
    assert.deepEqual([...new Set(seen)], [FULL], 'every other user saw the connection\'s own level');
    assert.equal(await safety(db), FULL);
    await exited(holder);
  });
});

describe('PostgreSQL: relaxed commits', { skip: ENGINE !== 'postgres' && 'PostgreSQL only' }, () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => {
    await t?.close();
  });

  const setting = async (executor: Kysely<never>) => (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(executor)).rows[0]!.synchronous_commit;

  it('turns synchronous_commit off in the relaxed transaction only', async () => {
    const db = t.database.db as unknown as Kysely<never>;
    assert.equal(await relaxedTransaction(db, 'postgres', (tx) => setting(tx)), 'off');
    // The pool's connections: each of them is back to the server's setting.
    const after = await Promise.all(Array.from({ length: 4 }, () => db.transaction().execute((tx) => setting(tx))));
    assert.deepEqual([...new Set(after)], ['on']);
  });
});
