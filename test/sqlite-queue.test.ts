// The embedded job queue takes any number of jobs at once: SQLite binds at most 32,766 values in a
// statement, and a job row binds six.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openDatabase, type Database } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { sqliteJobQueue } from '../src/jobs/sqlite-queue.ts';

const MANY = 6_000;
const jobs = (task: string) => Array.from({ length: MANY }, (_, i) => ({ task, payload: { n: i } }));

describe('SQLite job queue', () => {
  let dir: string;
  let database: Database;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-queue-'));
    database = openDatabase({ databaseUrl: null, dataDir: dir });
    await migrateToLatest(database);
  });
  after(async () => {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const count = async (task: string) =>
    Number((await database.db.selectFrom('jobs').select((eb) => eb.fn.countAll().as('n')).where('task', '=', task).executeTakeFirstOrThrow()).n);

  it(`enqueues ${MANY} jobs at once, on its own and inside a transaction`, async () => {
    const queue = sqliteJobQueue(database.db, { leaseMs: 30_000, pollMs: 1_000, maxAttempts: 3, retrySchedule: [1_000] });
    await queue.enqueue(jobs('alone'));
    assert.equal(await count('alone'), MANY);
    await database.db.transaction().execute((tx) => queue.enqueueInTransaction(tx, jobs('within')));
    assert.equal(await count('within'), MANY);
  });
});
