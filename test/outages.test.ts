// A database that cannot be reached is an outage a client can wait out: 503 with Retry-After and
// nothing stored, where any other failure stays 500. The errors classified here are the engines'
// own, provoked for real (a lock held past the busy timeout, a database full to its size limit, a
// closed port, an exhausted pool, a backend terminated by the server); the chaos tests do the same
// to a whole PostgreSQL cluster and a Redis server.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { storageOutage, StorageUnavailableError } from '../src/db/outage.ts';
import { openDatabase, sqliteFile } from '../src/db/database.ts';
import { migrateToLatest, migrateUpTo } from '../src/db/migrate.ts';
import { loadConfig } from '../src/config.ts';
import { freePort } from './processes.ts';
import { bearer, createForm, createTestStore, ENGINE, pathOf, POSTGRES_URL, startTestApp, type TestApp } from './helpers.ts';

function sqliteError(run: (db: DatabaseSync, other: DatabaseSync) => void): unknown {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-outage-'));
  const file = path.join(dir, 'x.sqlite');
  const db = new DatabaseSync(file, { timeout: 20 });
  const other = new DatabaseSync(file, { timeout: 20 });
  try {
    db.exec('pragma journal_mode = wal; create table t (x)');
    run(db, other);
    return null;
  } catch (error) {
    return error;
  } finally {
    db.close();
    other.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('which errors are outages', () => {
  it('SQLite: a write lock held past the busy timeout, and a full database', () => {
    const busy = sqliteError((db, other) => {
      db.exec('begin immediate');
      other.exec('begin immediate');
    });
    assert.equal(storageOutage(busy), 'busy', String(busy));
    const full = sqliteError((db) => {
      db.exec('pragma max_page_count = 3');
      for (let i = 0; i < 10; i++) db.prepare('insert into t values (randomblob(4000))').run();
    });
    assert.equal(storageOutage(full), 'disk_full', String(full));
  });

  it('SQLite: a constraint or a syntax error is no outage', () => {
    const unique = sqliteError((db) => {
      db.exec('create unique index u on t (x); insert into t values (1); insert into t values (1)');
    });
    assert.ok(unique);
    assert.equal(storageOutage(unique), null);
    assert.equal(storageOutage(sqliteError((db) => db.exec('selec 1'))), null);
  });

  it('an outage found in the writer thread keeps its reason across threads; plain errors are none', () => {
    assert.equal(storageOutage(new StorageUnavailableError('busy', new Error('database is locked'))), 'busy');
    assert.equal(storageOutage(new Error('boom')), null);
    assert.equal(storageOutage(new TypeError("Cannot read properties of undefined (reading 'id')")), null);
    assert.equal(storageOutage('ECONNREFUSED'), null);
    assert.equal(storageOutage(null), null);
  });

  it('PostgreSQL: a closed port', async () => {
    const client = new pg.Client({ host: '127.0.0.1', port: await freePort(), user: 'postgres' });
    const error = await client.connect().then(() => null, (e: unknown) => e);
    assert.equal(storageOutage(error), 'unreachable', String(error));
  });

  describe('PostgreSQL server', { skip: ENGINE !== 'postgres' && 'PostgreSQL only' }, () => {
    it('a pool whose connections are all taken past its timeout', async () => {
      // Long enough for the first connection on a loaded host; the second waits it out.
      const pool = new pg.Pool({ connectionString: POSTGRES_URL!, max: 1, connectionTimeoutMillis: 2_000 });
      const held = await pool.connect();
      try {
        const error = await pool.query('select 1').then(() => null, (e: unknown) => e);
        assert.equal(storageOutage(error), 'pool_timeout', String(error));
      } finally {
        held.release();
        await pool.end();
      }
    });

    it('a backend the server terminates (57P01), and the connection it leaves behind', async () => {
      const victim = new pg.Client({ connectionString: POSTGRES_URL! });
      const admin = new pg.Client({ connectionString: POSTGRES_URL! });
      await Promise.all([victim.connect(), admin.connect()]);
      victim.on('error', () => {});
      try {
        const { rows } = await victim.query<{ pid: number }>('select pg_backend_pid() as pid');
        const running = victim.query('select pg_sleep(5)').then(() => null, (e: unknown) => e);
        await new Promise((resolve) => setTimeout(resolve, 100));
        await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
        const error = await running;
        assert.equal((error as { code?: string }).code, '57P01');
        assert.equal(storageOutage(error), 'shutting_down');
        const after = await victim.query('select 1').then(() => null, (e: unknown) => e);
        assert.ok(storageOutage(after), `the dead connection's error: ${String(after)}`);
      } finally {
        await victim.end().catch(() => {});
        await admin.end();
      }
    });

    it('a unique violation or a syntax error is no outage', async () => {
      const client = new pg.Client({ connectionString: POSTGRES_URL! });
      await client.connect();
      try {
        const syntax = await client.query('selec 1').then(() => null, (e: unknown) => e);
        assert.equal((syntax as { code?: string }).code, '42601');
        assert.equal(storageOutage(syntax), null);
      } finally {
        await client.end();
      }
    });
  });
});

describe('answers during an outage (SQLite: a write lock held by another process)', { skip: ENGINE !== 'sqlite' && 'SQLite only' }, () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await startTestApp({ INTAKE_SQLITE_BUSY_TIMEOUT_MS: '100' });
    key = await t.createKey();
  });
  after(() => t.close());

  /** Another process's connection holds the write lock while `run` runs. */
  async function whileLocked<T>(run: () => Promise<T>): Promise<T> {
    const other = new DatabaseSync(sqliteFile(t.config.dataDir));
    other.exec('begin immediate');
    try {
      return await run();
    } finally {
      other.exec('rollback');
      other.close();
    }
  }

  it('answers a submission 503 service_unavailable with Retry-After, stores nothing, and 201 once the lock is gone', async () => {
    const form = await createForm(t, key);
    const submit = () => t.request({ method: 'POST', url: pathOf(form.endpoint), payload: { name: 'Ada', email: 'ada@example.com', message: 'Hi' } });
    const refused = await whileLocked(submit);
    assert.equal(refused.statusCode, 503, refused.body);
    assert.equal(refused.headers['retry-after'], '2');
    assert.deepEqual(refused.json(), {
      error: { code: 'service_unavailable', message: 'The service is temporarily unavailable. Try again in 2 seconds.', retry_after: 2 },
    });
    const list = async () => (await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions?filter=all`, headers: bearer(key) })).json();
    assert.equal((await list()).meta.total_count, 0, 'nothing stored');
    assert.equal((await submit()).statusCode, 201);
    assert.equal((await list()).meta.total_count, 1);
  });

  it("answers each management family's 503 in its own body, with Retry-After", async () => {
    const form = await createForm(t, key);
    const created = await whileLocked(() =>
      t.request({ method: 'POST', url: '/api/forms', headers: bearer(key), payload: { name: 'Late', slug: 'late-form', visibility: 'public', fields_schema: { fields: [] } } }));
    assert.equal(created.statusCode, 503, created.body);
    assert.equal(created.headers['retry-after'], '2');
    assert.equal(created.json().error.code, 'service_unavailable');
    const submission = (await t.request({ method: 'POST', url: pathOf(form.endpoint), payload: { name: 'Ada', email: 'ada@example.com', message: 'Hi' } })).json();
    const deleted = await whileLocked(() => t.request({ method: 'DELETE', url: `/api/forms/${form.id}/submissions/${submission.id}`, headers: bearer(key) }));
    assert.equal(deleted.statusCode, 503, deleted.body);
    assert.equal(deleted.headers['retry-after'], '2');
    assert.deepEqual(deleted.json(), { error: { code: 503, message: 'The service is temporarily unavailable. Try again in 2 seconds.' } });
    assert.doesNotMatch(created.body + deleted.body, /locked|sqlite|SQLITE|stack/i, 'no internals');
  });
});

describe('answers during an outage (PostgreSQL: a statement past the statement timeout)', { skip: ENGINE !== 'postgres' && 'PostgreSQL only' }, () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await startTestApp({ INTAKE_DATABASE_STATEMENT_TIMEOUT_MS: '300' });
    key = await t.createKey();
  });
  after(() => t.close());

  /** Another connection holds `table` locked, as a long migration or a stuck transaction would. */
  async function whileLocked<T>(table: string, run: () => Promise<T>): Promise<T> {
    const other = new pg.Client({ connectionString: t.config.databaseUrl! });
    await other.connect();
    try {
      await other.query('begin');
      await other.query(`lock table ${table} in access exclusive mode`);
      return await run();
    } finally {
      await other.query('rollback');
      await other.end();
    }
  }

  it('answers 503 with Retry-After once the server cancels the waiting statement, and 200 once the lock is gone', { timeout: 30_000 }, async () => {
    const list = () => t.request({ method: 'GET', url: '/api/forms', headers: bearer(key) });
    const refused = await whileLocked('forms', list);
    assert.equal(refused.statusCode, 503, refused.body);
    assert.equal(refused.headers['retry-after'], '2');
    assert.equal(refused.json().error.code, 'service_unavailable');
    assert.doesNotMatch(refused.body, /cancel|statement|timeout|stack/i, 'no internals');
    assert.equal((await list()).statusCode, 200);
  });

  it('lets a migration wait for a lock longer than the statement timeout', async () => {
    const store = await createTestStore();
    const database = openDatabase(loadConfig({ ...store.env, INTAKE_DATABASE_STATEMENT_TIMEOUT_MS: '100' }));
    const other = new pg.Client({ connectionString: store.databaseUrl! });
    try {
      await migrateUpTo(database, '0024_dashboard_flashes');
      await other.connect();
      // 0025 adds triggers to submissions, which waits for this lock: ten times the timeout.
      await other.query('begin');
      await other.query('lock table submissions in share mode');
      const migrating = migrateToLatest(database);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await other.query('commit');
      assert.ok((await migrating).includes('0025_daily_counts'));
    } finally {
      await other.end().catch(() => {});
      await database.close();
      await store.cleanup();
    }
  });
});

describe('/healthz and /readyz', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('says the database is up and Redis not configured, and is ready', async () => {
    const health = await t.request({ method: 'GET', url: '/healthz' });
    assert.equal(health.statusCode, 200);
    assert.deepEqual(health.json(), { status: 'ok', database: { status: 'up' }, redis: { status: 'not_configured' }, malware_scanner: { status: 'not_configured' } });
    const ready = await t.request({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 200);
    assert.deepEqual(ready.json(), { status: 'ready' });
  });

  it('keeps both out of the API reference', async () => {
    const spec = (await t.request({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, unknown> };
    assert.equal(spec.paths['/healthz'], undefined);
    assert.equal(spec.paths['/readyz'], undefined);
  });
});
